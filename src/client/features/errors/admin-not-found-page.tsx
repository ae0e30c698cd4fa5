import { paths } from '@/config/paths.ts';
import { NotFoundPanel } from '@/components/errors/not-found-panel.tsx';

/** Shown inside the admin layout for a page that does not exist (yet). */
export function AdminNotFoundPage() {
  return (
    <div className="rounded-2xl border border-border bg-card shadow-card">
      <NotFoundPanel backTo={paths.admin.root} backLabel="Back to the overview" />
    </div>
  );
}
