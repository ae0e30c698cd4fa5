import type { ReactNode } from 'react';
import { MESSAGES } from '../../shared/messages.ts';
import { staffMay, type TStaffPermission } from '../../shared/staff-roles.ts';
import { NotYourRolePanel } from '@/components/errors/not-your-role-panel.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useStaffRole } from '@/lib/staff-role.ts';

/**
 * An admin screen behind its permission (config/routes.ts): drawn for a member whose role holds
 * it, "Not part of your role" for the others. The server refuses their calls regardless.
 */
export function RoleGate({ permission, children }: { permission: TStaffPermission | undefined; children: ReactNode }) {
  const { staffRole, isError, refetch } = useStaffRole();
  if (!permission) return children;
  if (staffRole === undefined) {
    if (isError) return <LoadError title={MESSAGES.common.internal} message={MESSAGES.common.networkError} onRetry={() => void refetch()} retrying={false} />;
    return (
      <div className="flex min-h-64 items-center justify-center">
        <Spinner size="lg" label="Checking your role…" />
      </div>
    );
  }
  return staffMay(staffRole, permission) ? children : <NotYourRolePanel staffRole={staffRole} />;
}
