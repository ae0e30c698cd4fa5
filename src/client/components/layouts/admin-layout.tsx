import { LogOut, Menu } from 'lucide-react';
import { Suspense, useRef, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import { ADMIN_SIDEBAR_WIDTH_PX } from '../../../shared/constants.ts';
import { paths } from '@/config/paths.ts';
import { BrandMark } from '@/components/brand/brand-mark.tsx';
import { ADMIN_MENU_DRAWER_ID } from '@/components/layouts/admin-menu.ts';
import { AdminMenu } from '@/components/layouts/admin-menu-nav.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHead } from '@/components/layouts/admin-page-heads.ts';
import { SkipLink } from '@/components/layouts/skip-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';
import { WIDE_SCREEN_QUERY, useCloseWhenWide } from '@/lib/use-media-query.ts';

const drawerCode = onDemand(() => import('@/components/layouts/admin-menu-drawer.tsx'));

/**
 * The administration area's frame: top bar, menu (sidebar when wide, drawer when narrow), the
 * page. The app puts it behind the administrators' guard. As `frame`, it is what the server sends
 * for the area's pages (decisions 038 and 040): the page's heading, its place loading and the
 * buttons waiting, until the app draws the page.
 */
export function AdminLayout({ frame = false }: { frame?: boolean }) {
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  useCloseWhenWide(setDrawerOpen);
  // The drawer's code comes once the page is idle on a narrow screen (where the menu button shows),
  // or when the button is first used; if the connection fails then, the person is told, the
  // drawer stays closed and the next tap tries again.
  const drawer = useOnDemand(drawerCode, drawerOpen, () => {
    toast.error(COMMON_MESSAGES.networkError);
    setDrawerOpen(false);
  }, {
    prefetchIf: () => !window.matchMedia(WIDE_SCREEN_QUERY).matches,
  });

  const [loggingOut, setLoggingOut] = useState(false);

  // Admin logout revokes the session and returns to the administrator login (spec section 4). The
  // code is fetched on use, as the public navigation's is: one module imported both ways would make
  // the bundler add a namespace helper to the home page's first chunks.
  async function logout() {
    setLoggingOut(true);
    const { logOut } = await import('@/lib/session/log-out.ts');
    await logOut();
    navigate(paths.adminLogin, { replace: true });
  }

  return (
    <div className="min-h-dvh bg-muted print:bg-white" style={{ ['--admin-sidebar' as string]: `${ADMIN_SIDEBAR_WIDTH_PX}px` }}>
      <SkipLink />
      <header className="sticky top-0 z-40 flex h-16 items-center gap-3 bg-navy-900 px-4 text-white shadow-sm [--dark-surface:var(--color-navy-900)] print:hidden">
        <Button
          ref={menuButtonRef}
          variant="ghost"
          tone="dark"
          size="icon"
          className="wide:hidden"
          aria-label="Open admin menu"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          aria-controls={drawerOpen ? ADMIN_MENU_DRAWER_ID : undefined}
          disabled={frame}
          onClick={() => setDrawerOpen(true)}
        >
          <Menu className="size-6" aria-hidden />
        </Button>
        {drawer && <drawer.AdminMenuDrawer open={drawerOpen} onOpenChange={setDrawerOpen} triggerRef={menuButtonRef} />}

        <Link
          to={paths.admin.root}
          className="flex min-w-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-sea-300"
        >
          <BrandMark className="size-8 rounded-[12px] ring-1 ring-white/20 compact:hidden" />
          <span className="truncate text-lg font-semibold tracking-tight">Admin Dashboard</span>
        </Link>

        <Button
          variant="outline"
          tone="dark"
          size="sm"
          onClick={() => void logout()}
          disabled={frame || loggingOut}
          className="ml-auto"
        >
          <LogOut aria-hidden />
          Logout
        </Button>
      </header>

      {/*
        The menu column stretches with the page (its background and border reach the end of the
        longest page) while the menu itself stays in view as the page scrolls. Printed (the
        certificate evidence), a page is the screen alone: no bar, no menu.
      */}
      <div className="wide:grid wide:min-h-[calc(100dvh-4rem)] wide:grid-cols-[var(--admin-sidebar)_minmax(0,1fr)] print:block!">
        <aside className="hidden border-r border-border bg-background wide:block print:hidden!">
          <div className="sticky top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto">
            <AdminMenu frame={frame} />
          </div>
        </aside>

        <main id="main-content" tabIndex={-1} className="min-w-0 p-4 outline-none sm:p-6 lg:p-8 print:p-0">
          {frame ? (
            <PageFrame />
          ) : (
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          )}
        </main>
      </div>
    </div>
  );
}

/**
 * The page's place in the frame: its heading, when the page's heading does not depend on its
 * data, over the loading sign (decision 040).
 */
function PageFrame() {
  const head = adminPageHead(useLocation().pathname);
  return head ? (
    <AdminPage {...head}>
      <PageLoading />
    </AdminPage>
  ) : (
    <PageLoading />
  );
}

function PageLoading() {
  return (
    <div className="flex justify-center py-20">
      <Spinner size="lg" />
    </div>
  );
}
