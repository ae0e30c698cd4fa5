import { NotFoundPanel } from '@/features/errors/not-found-panel.tsx';

/** Shown inside the admin layout for a page that does not exist (yet). */
export function AdminNotFoundPage() {
  return (
    <div className="rounded-2xl border border-border bg-card shadow-card">
      <NotFoundPanel backTo="/admin-dashboard" backLabel="Back to the overview" />
    </div>
  );
}
