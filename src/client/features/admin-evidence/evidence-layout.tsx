import type { ReactNode } from 'react';

/** One labelled figure of the evidence (a time, a number of seconds), in a <dl>. */
export function EvidenceFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold text-navy-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** A part of the evidence page under its own heading (Training watched, Test attempts). */
export function EvidenceSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <h2 id={id} className="text-xl font-semibold tracking-tight text-navy-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A card of the evidence (a part, an attempt), kept whole on a printed page where it fits. */
export const EVIDENCE_CARD = 'grid gap-4 rounded-xl border border-border bg-card p-4 shadow-card sm:p-6 print:break-inside-avoid print:shadow-none';
