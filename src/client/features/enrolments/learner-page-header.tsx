import type { ReactNode } from 'react';

/** The eyebrow, title and one line of explanation at the top of a learner page. */
export function LearnerPageHeader({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <header>
      <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">{eyebrow}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">{title}</h1>
      {children && <p className="mt-2 max-w-2xl text-muted-foreground">{children}</p>}
    </header>
  );
}
