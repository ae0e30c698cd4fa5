import type { ReactNode } from 'react';
import { BrandMark } from '@/components/brand/brand-mark.tsx';

/**
 * A whole-page message for when the app itself cannot render. It deliberately avoids the site
 * configuration and the router, since either may be what failed.
 */
export function ErrorScreen({ title, message, actions }: { title: string; message: ReactNode; actions: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted px-4 py-16">
      <div
        role="alert"
        className="w-full max-w-lg rounded-2xl border border-border bg-card p-8 text-center shadow-card"
      >
        <BrandMark className="mx-auto size-12" />
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-navy-900">{title}</h1>
        <div className="mt-3 text-muted-foreground">{message}</div>
        <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
      </div>
    </main>
  );
}
