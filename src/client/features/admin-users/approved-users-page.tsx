import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { useApprovedUsers } from '@/features/admin-users/api/use-approved-users.ts';
import { PagedUsers, UsersTable } from '@/features/admin-users/users-list.tsx';
import { formatDay } from '@/lib/format.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';

/** /admin-dashboard/approved-users: learners the academy has approved, most recent first. */
export function ApprovedUsersPage() {
  const paging = usePageParams();
  const list = useApprovedUsers(paging.page);

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.users.approved)}>
      <PagedUsers
        list={list}
        paging={paging}
        empty={{
          message: MESSAGES.users.noApproved,
          hint: 'Approve learners under Unapproved Users; they are listed here afterwards.',
        }}
        table={(users, busy) => (
          <UsersTable
            users={users}
            busy={busy}
            last={{
              head: 'Approved',
              cellClassName: 'whitespace-nowrap',
              cell: (user) => <Badge variant="success">{formatDay(user.approvedAt)}</Badge>,
            }}
          />
        )}
      />
    </AdminPage>
  );
}
