import { Loader2 } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button.tsx';

type SubmitButtonProps = Omit<ButtonProps, 'type' | 'asChild'> & {
  /** While true the button is disabled and shows a spinner. */
  pending: boolean;
};

/** A form's submit button: disabled with a spinner while the form is being sent. */
export function SubmitButton({ pending, disabled, children, ...props }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={pending || disabled} aria-busy={pending || undefined} {...props}>
      {pending && <Loader2 className="animate-spin" aria-hidden />}
      {children}
    </Button>
  );
}
