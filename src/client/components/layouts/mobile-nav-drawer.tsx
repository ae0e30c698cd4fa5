import { LogIn, LogOut } from 'lucide-react';
import type { KeyboardEvent, RefObject } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { MOBILE_DRAWER_WIDTH_PX } from '../../../shared/constants.ts';
import { paths } from '@/config/paths.ts';
import {
  MOBILE_NAV_DRAWER_ID,
  PUBLIC_NAV_ENTRIES,
  SIGNED_IN_NAV_ENTRIES,
  logOutAndReload,
} from '@/components/layouts/public-nav.ts';
import { Button } from '@/components/ui/button.tsx';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet.tsx';
import { useHasSession } from '@/lib/session/session.ts';
import { cn } from '@/lib/utils.ts';

// Keys that move focus inside the drawer; any other key press closes it, as the spec asks.
// Enter is left out because it activates the focused entry, whose click then closes the drawer.
const KEYS_THAT_KEEP_DRAWER_OPEN = new Set([
  'Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Enter', 'ArrowUp', 'ArrowDown', 'Home', 'End',
]);

type MobileNavDrawerProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets focus back when the drawer closes. */
  triggerRef: RefObject<HTMLButtonElement | null>;
};

/**
 * The navigation bar's entries in a 200 px drawer on the right, for screens up to 600 px wide.
 * It lives in its own chunk: the radix dialog underneath is not needed to paint the page.
 */
export function MobileNavDrawer({ open, onOpenChange, triggerRef }: MobileNavDrawerProps) {
  const signedIn = useHasSession();
  const entries = signedIn ? [...PUBLIC_NAV_ENTRIES, ...SIGNED_IN_NAV_ENTRIES] : PUBLIC_NAV_ENTRIES;
  function closeOnKey(event: KeyboardEvent) {
    if (!KEYS_THAT_KEEP_DRAWER_OPEN.has(event.key)) onOpenChange(false);
  }

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        id={MOBILE_NAV_DRAWER_ID}
        side="right"
        width={MOBILE_DRAWER_WIDTH_PX}
        aria-describedby={undefined}
        onClick={() => onOpenChange(false)}
        onKeyDown={closeOnKey}
        onCloseAutoFocus={(event) => {
          // There is no radix Trigger (the button is in the page's first chunk), so return focus by hand.
          event.preventDefault();
          triggerRef.current?.focus();
        }}
      >
        <div className="flex h-16 shrink-0 items-center border-b border-border px-4">
          <SheetTitle>Menu</SheetTitle>
        </div>
        <nav aria-label="Main" className="flex-1 p-2">
          <ul className="flex flex-col gap-1">
            {entries.map((entry) => (
              <li key={entry.to}>
                <NavLink
                  to={entry.to}
                  end={entry.end}
                  className={({ isActive }) =>
                    cn(
                      'block rounded-md px-3 py-2.5 text-sm font-medium outline-none hover:bg-navy-50 focus-visible:ring-2 focus-visible:ring-ring',
                      isActive ? 'bg-sea-50 text-sea-800' : 'text-navy-800',
                    )
                  }
                >
                  {entry.label}
                </NavLink>
              </li>
            ))}
            <li className="mt-2 border-t border-border pt-3">
              {signedIn ? (
                <Button variant="outline" className="w-full" onClick={() => void logOutAndReload()}>
                  <LogOut aria-hidden />
                  Logout
                </Button>
              ) : (
                <Button asChild className="w-full">
                  <Link to={paths.login}>
                    <LogIn aria-hidden />
                    Login
                  </Link>
                </Button>
              )}
            </li>
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}
