import type { RefObject } from 'react';
import { ADMIN_SIDEBAR_WIDTH_PX } from '../../../shared/constants.ts';
import { ADMIN_MENU_DRAWER_ID } from '@/components/layouts/admin-menu.ts';
import { AdminMenu } from '@/components/layouts/admin-menu-nav.tsx';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet.tsx';

type AdminMenuDrawerProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets focus back when the drawer closes. */
  triggerRef: RefObject<HTMLButtonElement | null>;
};

/**
 * The admin menu in a drawer on the left, for screens narrower than the sidebar's breakpoint. It
 * lives in its own chunk: the Radix dialog underneath is not needed to draw the area's pages.
 */
export function AdminMenuDrawer({ open, onOpenChange, triggerRef }: AdminMenuDrawerProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        id={ADMIN_MENU_DRAWER_ID}
        side="left"
        width={ADMIN_SIDEBAR_WIDTH_PX}
        aria-describedby={undefined}
        className="overflow-y-auto"
        onCloseAutoFocus={(event) => {
          // There is no Radix trigger (the button is drawn with the layout), so focus goes back by hand.
          event.preventDefault();
          triggerRef.current?.focus();
        }}
      >
        <div className="flex h-16 shrink-0 items-center border-b border-border px-4">
          <SheetTitle>Admin menu</SheetTitle>
        </div>
        <AdminMenu onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
