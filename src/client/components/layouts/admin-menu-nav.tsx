import { LayoutDashboard } from 'lucide-react';
import { useId } from 'react';
import { NavLink } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { adminMenuFor, type TAdminMenuGroup } from '@/components/layouts/admin-menu.ts';
import { useStaffRole } from '@/lib/staff-role.ts';
import { cn } from '@/lib/utils.ts';

/**
 * The admin area's menu: in the sidebar on a wide screen, in the drawer on a narrow one. Only the
 * screens the member's role may use; in the server's frame, which does not know the role, and
 * until the role is known, none but the overview.
 */
export function AdminMenu({ onNavigate, frame = false }: { onNavigate?: () => void; frame?: boolean }) {
  return frame ? <MenuLinks menu={[]} /> : <MemberMenu onNavigate={onNavigate} />;
}

function MemberMenu({ onNavigate }: { onNavigate?: (() => void) | undefined }) {
  return <MenuLinks menu={adminMenuFor(useStaffRole().staffRole)} onNavigate={onNavigate} />;
}

function MenuLinks({ menu, onNavigate }: { menu: readonly TAdminMenuGroup[]; onNavigate?: (() => void) | undefined }) {
  // The menu is in the page twice on a phone (the hidden sidebar and the drawer): ids of its own.
  const idPrefix = useId();
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'flex items-center gap-2.5 rounded-md px-3 py-2 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
      isActive
        ? 'bg-sea-50 font-semibold text-sea-800'
        : 'font-medium text-navy-700 hover:bg-navy-50 hover:text-navy-900',
    );

  return (
    <nav aria-label="Admin" className="flex flex-col gap-5 p-3" onClick={onNavigate}>
      <NavLink to={paths.admin.root} end className={linkClass}>
        <LayoutDashboard className="size-4 shrink-0" aria-hidden />
        Overview
      </NavLink>
      {menu.map((group) => (
        <div key={group.title} role="group" aria-labelledby={`${idPrefix}-${group.title}`}>
          <h2
            id={`${idPrefix}-${group.title}`}
            className="px-3 pb-1.5 text-xs font-semibold tracking-wider text-muted-foreground uppercase"
          >
            {group.title}
          </h2>
          <ul className="flex flex-col gap-0.5">
            {group.items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass}>
                  <item.icon className="size-4 shrink-0" aria-hidden />
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
