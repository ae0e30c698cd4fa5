import type { ReactNode } from 'react';

/** The navy banner at the top of a content page, with a wave running into the page below. */
export function PageHero({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden bg-navy-900 text-white">
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[radial-gradient(90%_120%_at_90%_0%,#115e59_0%,transparent_60%),linear-gradient(160deg,#061731,#0b2545_60%,#16304f)]"
      />
      <div className="mx-auto max-w-6xl px-4 pt-14 pb-20 sm:px-6 sm:pt-16 sm:pb-24">
        <p className="text-sm font-semibold tracking-wider text-sea-300 uppercase">{eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        {children && <p className="mt-4 max-w-2xl text-lg leading-relaxed text-navy-100">{children}</p>}
      </div>
      <svg
        aria-hidden
        viewBox="0 0 1440 60"
        preserveAspectRatio="none"
        className="absolute inset-x-0 bottom-0 h-8 w-full sm:h-12"
      >
        <path d="M0 35 C 240 5 480 10 720 32 S 1200 60 1440 25 V60 H0 Z" fill="#ffffff" />
      </svg>
    </section>
  );
}
