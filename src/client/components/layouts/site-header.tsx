import { LogIn, Menu } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { MOBILE_DRAWER_WIDTH_PX } from '../../../shared/constants.ts';
import { BrandMark } from '@/components/brand/brand-mark.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from '@/components/ui/sheet.tsx';
import { useSiteConfig } from '@/lib/site-config.ts';
import { WIDE_SCREEN_QUERY, useMediaQuery } from '@/lib/use-media-query.ts';
import { cn } from '@/lib/utils.ts';

const NAV_ENTRIES = [
  { to: '/', label: 'Home', end: true },
  { to: '/courses', label: 'Courses', end: false },
  { to: '/contact', label: 'Contact', end: false },
] as const;

// Keys that move focus inside the drawer; every other key press closes it, as the spec asks.
// Enter is left out because it activates the focused entry, whose click closes the drawer.
const KEYS_THAT_KEEP_DRAWER_OPEN = new Set([
  'Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Enter', 'ArrowUp', 'ArrowDown', 'Home', 'End',
]);

export function SiteHeader() {
  const site = useSiteConfig();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const isWide = useMediaQuery(WIDE_SCREEN_QUERY);

  // A drawer left open while the window grows past the breakpoint would hide behind the full bar.
  useEffect(() => {
    if (isWide) setDrawerOpen(false);
  }, [isWide]);

  function closeOnKey(event: KeyboardEvent) {
    if (!KEYS_THAT_KEEP_DRAWER_OPEN.has(event.key)) setDrawerOpen(false);
  }

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          <BrandMark />
          <span className="truncate text-base font-bold tracking-tight text-navy-900 sm:text-lg">{site.name}</span>
        </Link>

        <nav aria-label="Main" className="ml-auto flex items-center gap-1 compact:hidden">
          {NAV_ENTRIES.map((entry) => (
            <NavLink
              key={entry.to}
              to={entry.to}
              end={entry.end}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-3 py-2 text-sm font-medium text-navy-700 transition-colors outline-none hover:bg-navy-50 hover:text-navy-900 focus-visible:ring-2 focus-visible:ring-ring',
                  isActive && 'text-sea-800 underline decoration-sea-500 decoration-2 underline-offset-[6px]',
                )
              }
            >
              {entry.label}
            </NavLink>
          ))}
          <Button asChild className="ml-3">
            <Link to="/login">
              <LogIn aria-hidden />
              Login
            </Link>
          </Button>
        </nav>

        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" className="ml-auto wide:hidden" aria-label="Open menu">
              <Menu className="size-6" aria-hidden />
            </Button>
          </SheetTrigger>
          <SheetContent side="right" width={MOBILE_DRAWER_WIDTH_PX} aria-describedby={undefined}>
            <div className="flex h-16 items-center border-b border-border px-4">
              <SheetTitle>Menu</SheetTitle>
            </div>
            <nav aria-label="Main" onClick={() => setDrawerOpen(false)} onKeyDown={closeOnKey} className="p-2">
              <ul className="flex flex-col gap-1">
                {NAV_ENTRIES.map((entry) => (
                  <li key={entry.to}>
                    <NavLink
                      to={entry.to}
                      end={entry.end}
                      className={({ isActive }) =>
                        cn(
                          'block rounded-md px-3 py-2.5 text-sm font-medium text-navy-800 outline-none hover:bg-navy-50 focus-visible:ring-2 focus-visible:ring-ring',
                          isActive && 'bg-sea-50 text-sea-800',
                        )
                      }
                    >
                      {entry.label}
                    </NavLink>
                  </li>
                ))}
                <li className="mt-2 border-t border-border pt-3">
                  <Button asChild className="w-full">
                    <Link to="/login">
                      <LogIn aria-hidden />
                      Login
                    </Link>
                  </Button>
                </li>
              </ul>
            </nav>
          </SheetContent>
        </Sheet>
      </div>
    </header>
  );
}
