import { RotateCw } from 'lucide-react';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { ErrorScreen } from '@/features/errors/error-screen.tsx';
import { SiteConfigError } from '@/lib/site-config.ts';

function reload() {
  window.location.reload();
}

/**
 * What RouteErrorBoundary shows when a page fails to load or render. Its links are plain <a>s: the
 * router's own state may be what failed. (Unknown addresses are not errors: the "*" routes answer.)
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  if (error instanceof SiteConfigError) {
    return (
      <ErrorScreen
        title="The site is not configured"
        message={
          <>
            <p>The academy’s details could not be loaded, so the page cannot be shown.</p>
            <p className="mt-3 rounded-md bg-muted p-3 text-left font-mono text-xs text-navy-800">{error.message}</p>
          </>
        }
        actions={<ReloadButton />}
      />
    );
  }

  if (import.meta.env.DEV) console.error(error);
  return (
    <ErrorScreen
      title="Something went wrong"
      message={
        <p>
          {COMMON_MESSAGES.internal} If it keeps happening, reload the page or come back in a few minutes.
        </p>
      }
      actions={
        <>
          <ReloadButton />
          <Button asChild size="lg" variant="outline">
            <a href={paths.home}>Go to the home page</a>
          </Button>
        </>
      }
    />
  );
}

function ReloadButton() {
  return (
    <Button size="lg" onClick={reload}>
      <RotateCw aria-hidden />
      Reload the page
    </Button>
  );
}
