import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type AuthShellProps = {
  icon: LucideIcon;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Links under the card (sign up, back to login...). */
  footer?: ReactNode;
  /** Wider card for longer forms (registration). */
  wide?: boolean;
};

/** The frame of every account screen: a centred card on a pale sea background. */
export function AuthShell({ icon: Icon, title, description, children, footer, wide = false }: AuthShellProps) {
  return (
    <div className="flex flex-1 justify-center bg-[linear-gradient(180deg,var(--color-sea-50),#ffffff_70%)] px-4 py-10 sm:py-16">
      <div className={wide ? 'w-full max-w-xl' : 'w-full max-w-md'}>
        <section className="rounded-2xl border border-border bg-card p-6 shadow-card sm:p-8">
          <div className="flex flex-col items-center text-center">
            <span className="flex size-12 items-center justify-center rounded-xl bg-navy-900 text-sea-300">
              <Icon className="size-6" aria-hidden />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight text-navy-900">{title}</h1>
            {description && <p className="mt-2 text-sm text-muted-foreground">{description}</p>}
          </div>
          <div className="mt-6">{children}</div>
        </section>
        {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
      </div>
    </div>
  );
}

/** A text link in the account screens' style. */
export const authLinkClass =
  'rounded-sm font-semibold text-sea-800 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring';
