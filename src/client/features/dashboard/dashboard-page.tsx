import { AlertCircle } from 'lucide-react';
import { type ReactNode, Suspense } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApprovalBanner } from '@/features/dashboard/approval-banner.tsx';
import { DashboardTiles } from '@/features/dashboard/dashboard-tiles.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useMe } from '@/lib/api/auth.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/**
 * /dashboard, the learner's home: a greeting, the approval banner while the academy has not
 * approved the account, the four tiles, then one section per feature below them (`children`, which
 * the app composes and may load lazily).
 */
export function DashboardPage({ children }: { children: ReactNode }) {
  useDocumentTitle('Dashboard');
  const me = useMe();
  const name = me.data?.name ?? readStoredUser()?.name;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6">
      <header>
        <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">Dashboard</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">
          {name ? `Welcome, ${name}` : 'Welcome'}
        </h1>
      </header>

      {me.isPending && <DashboardSkeleton />}
      {/* Mounted at once, so the sections' queries go in the same request as the account's; shown
          together once the account is known, so the approval banner moves nothing already shown. */}
      <div hidden={me.isPending}>
        <div className="mt-6 empty:hidden">
          {me.isError && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden />
              <AlertDescription>{errorMessage(me.error, { fallback: MESSAGES.common.internal })}</AlertDescription>
            </Alert>
          )}
          {me.data && me.data.role === 'learner' && !me.data.approved && <ApprovalBanner />}
        </div>

        <section aria-label="Shortcuts" className="mt-8">
          <DashboardTiles />
        </section>

        {/* Feature sections go below the tiles, each its own component and section. */}
        <Suspense fallback={<Skeleton className="mt-12 h-96 rounded-xl" />}>{children}</Suspense>
      </div>
    </div>
  );
}

/** The greeting's place is kept; the rest waits for the account, in the shape of the tiles and a section. */
function DashboardSkeleton() {
  return (
    <div className="mt-8" aria-busy>
      <span role="status" className="sr-only">
        Loading your dashboard…
      </span>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((tile) => (
          <Skeleton key={tile} className="h-32 rounded-xl" />
        ))}
      </div>
      <Skeleton className="mt-12 h-96 rounded-xl" />
    </div>
  );
}
