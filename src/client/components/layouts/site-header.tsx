import { LogIn, LogOut, Menu } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { BrandMark } from '@/components/brand/brand-mark.tsx';
import {
  MOBILE_NAV_DRAWER_ID,
  PUBLIC_NAV_ENTRIES,
  SIGNED_IN_NAV_ENTRIES,
  logOutAndReload,
} from '@/components/layouts/public-nav.ts';
import { Button } from '@/components/ui/button.tsx';
import { useHasSession } from '@/lib/session/session.ts';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useCloseWhenWide } from '@/lib/use-media-query.ts';
import { cn } from '@/lib/utils.ts';

const drawerCode = onDemand(() => import('@/components/layouts/mobile-nav-drawer.tsx'));
const loadDrawer = () => void drawerCode.load().catch(() => {});

/**
 * The site's navigation bar. As `frame`, it is the server's drawing of a signed-in page while the
 * page's code comes (decision 038): the user's links, and buttons that wait for the code.
 */
export function SiteHeader({ frame = false }: { frame?: boolean }) {
  const site = useSiteConfig();
  const hasSession = useHasSession();
  const signedIn = frame || hasSession;
  const entries = signedIn ? [...PUBLIC_NAV_ENTRIES, ...SIGNED_IN_NAV_ENTRIES] : PUBLIC_NAV_ENTRIES;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  useCloseWhenWide(setDrawerOpen);
  // The drawer's code is fetched as the visitor reaches for the menu button, and kept mounted
  // once here so it can animate closed. If the connection fails, the drawer stays closed and the
  // next tap tries again.
  const drawer = useOnDemand(drawerCode, drawerOpen, () => setDrawerOpen(false), { prefetchIf: () => false });

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Link
          to={paths.home}
          className="flex min-w-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          <BrandMark className="size-9 shrink-0" />
          <span className="truncate text-base font-bold tracking-tight text-navy-900 sm:text-lg">{site.name}</span>
        </Link>

        {/* Tighter between 601 px and 1024 px, where a signed-in bar has six links beside the name. */}
        <nav aria-label="Main" className="ml-auto flex items-center gap-0.5 compact:hidden lg:gap-1">
          {entries.map((entry) => (
            <NavLink
              key={entry.to}
              to={entry.to}
              end={entry.end}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-1.5 py-2 text-[13px] font-medium whitespace-nowrap transition-colors lg:px-3 lg:text-sm outline-none hover:bg-navy-50 focus-visible:ring-2 focus-visible:ring-ring',
                  isActive
                    ? 'text-sea-800 underline decoration-sea-500 decoration-2 underline-offset-[6px]'
                    : 'text-navy-700 hover:text-navy-900',
                )
              }
            >
              {entry.label}
            </NavLink>
          ))}
          {signedIn ? (
            <Button variant="outline" className="ml-1.5 max-lg:h-8 max-lg:px-2.5 max-lg:text-[13px] lg:ml-3" disabled={frame} onClick={() => void logOutAndReload()}>
              <LogOut className="max-lg:hidden" aria-hidden />
              Logout
            </Button>
          ) : (
            <Button asChild className="ml-3">
              <Link to={paths.login}>
                <LogIn aria-hidden />
                Login
              </Link>
            </Button>
          )}
        </nav>

        <Button
          ref={menuButtonRef}
          variant="ghost"
          size="icon"
          className="ml-auto wide:hidden"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          aria-controls={drawerOpen ? MOBILE_NAV_DRAWER_ID : undefined}
          disabled={frame}
          onPointerEnter={loadDrawer}
          onFocus={loadDrawer}
          onTouchStart={loadDrawer}
          onClick={() => setDrawerOpen(true)}
        >
          <Menu className="size-6" aria-hidden />
        </Button>
        {drawer && <drawer.MobileNavDrawer open={drawerOpen} onOpenChange={setDrawerOpen} triggerRef={menuButtonRef} />}
      </div>
    </header>
  );
}
