import { Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';

/** "Page not found" with a way back; used full-width on public pages and inside the admin area. */
export function NotFoundPanel({ backTo = paths.home, backLabel = 'Back to home' }: { backTo?: string; backLabel?: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-sea-50 text-sea-700 ring-1 ring-sea-100">
        <Compass className="size-8" aria-hidden />
      </span>
      <p className="mt-6 text-sm font-semibold tracking-wider text-sea-700 uppercase">Error 404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-navy-900">Page not found</h1>
      <p className="mt-3 text-muted-foreground">
        {COMMON_MESSAGES.routeNotFound} It may have moved, or the link may be mistyped.
      </p>
      <Button asChild size="lg" className="mt-8">
        <Link to={backTo}>{backLabel}</Link>
      </Button>
    </div>
  );
}
