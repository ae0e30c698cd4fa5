import { type ReactNode, useEffect } from 'react';
import type { TAdminPageWidth } from '@/components/layouts/admin-page-heads.ts';

const WIDTHS: Record<TAdminPageWidth, string> = { '3xl': 'max-w-3xl', '5xl': 'max-w-5xl', '6xl': 'max-w-6xl' };

/** Sets an admin screen's tab title: "<page> · Admin Dashboard", or "Admin Dashboard". */
export function useAdminDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · Admin Dashboard` : 'Admin Dashboard';
  }, [pageTitle]);
}

type AdminPageProps = {
  /** The page's heading, and its tab title ("… · Admin Dashboard"). */
  title: string;
  /** One line of explanation under the heading. */
  description: string;
  /** How wide the page may grow: narrow for forms, wide for lists of cards. */
  width?: TAdminPageWidth;
  /** A button beside the heading (Create Course). */
  action?: ReactNode;
  /** Above the heading (a back link). */
  before?: ReactNode;
  children: ReactNode;
};

/** An admin screen's frame: its width, heading, explanation and tab title. */
export function AdminPage({ title, description, width = '5xl', action, before, children }: AdminPageProps) {
  useAdminDocumentTitle(title);
  // The heading keeps its place whether or not the page has an action beside it: the frame the
  // server draws has the heading alone (decision 040). An action that finds no room beside the
  // heading goes under it, spaced from the page as the heading would be.
  const header = (
    <header className={action ? undefined : 'mb-6'}>
      <h1 className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">{title}</h1>
      <p className="mt-2 text-muted-foreground">{description}</p>
    </header>
  );
  return (
    <div className={`mx-auto ${WIDTHS[width]}`}>
      {before}
      {action ? (
        <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
          {header}
          {action}
        </div>
      ) : (
        header
      )}
      {children}
    </div>
  );
}
