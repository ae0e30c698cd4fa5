import type { TFieldControlProps } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';

/** The field for a code from an authenticator app: the phone's number pad, and the code offered by the system. */
export function CodeInput({ value, onChange, ...control }: TFieldControlProps & { value: string; onChange: (value: string) => void }) {
  return (
    <Input
      {...control}
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      autoFocus
      className="text-center font-mono text-lg tracking-[0.4em]"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
