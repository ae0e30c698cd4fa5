import type { ComponentProps } from 'react';
import { OTP_LENGTH } from '../../../shared/constants.ts';
import { Input } from '@/components/ui/input.tsx';
import { cn } from '@/lib/utils.ts';

/** Keeps digits only, at most OTP_LENGTH of them (spec section 5). */
export function normaliseOtp(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

/** A one-time code field: numeric keyboard, the browser's one-time-code autofill, wide spacing. */
export function OtpInput({ className, ...props }: ComponentProps<'input'>) {
  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      pattern={`\\d{${OTP_LENGTH}}`}
      spellCheck={false}
      className={cn('h-12 text-center font-mono text-xl tracking-[0.5em]', className)}
      {...props}
    />
  );
}
