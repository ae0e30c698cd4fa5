import { AlertCircle } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';

/** What went wrong with a form as a whole (not one field), in the catalogue's words; nothing when all is well. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
