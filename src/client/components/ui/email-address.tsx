import { cn } from '@/lib/utils.ts';

/**
 * An e-mail address that wraps where a reader expects it to on a narrow screen: before the `@`,
 * and inside a part only when that part alone is wider than the line.
 */
export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@');
  return (
    <span className={cn('wrap-anywhere', className)}>
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}
