import { IdCard, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TUserListItem } from '../../../shared/schemas/users.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Button } from '@/components/ui/button.tsx';
import { useApproveUser } from '@/features/admin-users/api/use-approve-user.ts';
import { useUnapprovedUsers } from '@/features/admin-users/api/use-unapproved-users.ts';
import { ApproveUserDialog } from '@/features/admin-users/approve-user-dialog.tsx';
import { PagedUsers, UsersTable } from '@/features/admin-users/users-list.tsx';
import { usePageParams } from '@/lib/paging/use-page-params.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

type UnapprovedUsersTableProps = {
  users: TUserListItem[] | undefined;
  busy: boolean;
  /** Absent for a role that may not approve: the row keeps its profile link only. */
  onApprove: ((user: TUserListItem) => void) | undefined;
};

function UnapprovedUsersTable({ users, busy, onApprove }: UnapprovedUsersTableProps) {
  return (
    <UsersTable
      users={users}
      busy={busy}
      last={{
        head: <span className="sr-only">Action</span>,
        headClassName: 'text-right',
        cellClassName: 'text-right',
        cell: (user) => (
          <div className="flex flex-wrap justify-end gap-2">
            {/* Reviewers check the seafarer's documents before approving. */}
            <Button asChild variant="outline" size="sm">
              <Link to={paths.admin.users.profile(user.id)} aria-label={`View profile of ${user.name}`}>
                <IdCard aria-hidden />
                View profile
              </Link>
            </Button>
            {onApprove && (
              <Button size="sm" onClick={() => onApprove(user)} aria-label={`Approve ${user.name}`}>
                <UserCheck aria-hidden />
                Approve
              </Button>
            )}
          </div>
        ),
      }}
    />
  );
}

/** /admin-dashboard/unapproved-users: verified learners waiting for the academy's approval. */
export function UnapprovedUsersPage() {
  const paging = usePageParams();
  const list = useUnapprovedUsers(paging.page);
  const approve = useApproveUser();
  const mayApprove = useStaffMay('accounts.approve');
  const [confirming, setConfirming] = useState<TUserListItem | null>(null);

  function confirmApproval() {
    if (!confirming) return;
    approve.mutate({ userId: confirming.id }, { onSettled: () => setConfirming(null) });
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.users.unapproved)}>
      {/* Approving the last user of the last page leaves it empty: the list steps back to a page that has users. */}
      <PagedUsers
        list={list}
        paging={paging}
        empty={{
          message: MESSAGES.users.noUnapproved,
          hint: 'New learners appear here once they have registered and verified their email address.',
        }}
        table={(users, busy) => <UnapprovedUsersTable users={users} busy={busy} onApprove={mayApprove ? setConfirming : undefined} />}
      />

      <ApproveUserDialog
        user={confirming}
        pending={approve.isPending}
        onConfirm={confirmApproval}
        onClose={() => setConfirming(null)}
      />
    </AdminPage>
  );
}
