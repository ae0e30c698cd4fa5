import { IdCard, UserCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TUserListItem } from '../../../shared/schemas/users.ts';
import { paths } from '@/app/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { Pagination } from '@/components/ui/pagination.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { AdminPageHeader } from '@/components/layouts/admin-page-header.tsx';
import { useApproveUser } from '@/features/admin-users/api/use-approve-user.ts';
import { useUnapprovedUsers } from '@/features/admin-users/api/use-unapproved-users.ts';
import { ApproveUserDialog } from '@/features/admin-users/approve-user-dialog.tsx';
import { formatDay } from '@/lib/format.ts';
import { usePageParam } from '@/features/admin-users/use-page-param.ts';
import {
  UserIdentity,
  UserListEmpty,
  UserListError,
  UserRowsSkeleton,
} from '@/features/admin-users/user-list-states.tsx';
import { errorMessage } from '@/lib/api-errors.ts';

/** /admin-dashboard/unapproved-users: verified learners waiting for the academy's approval. */
export function UnapprovedUsersPage() {
  const [page, setPage] = usePageParam();
  const list = useUnapprovedUsers(page);
  const approve = useApproveUser();
  const [confirming, setConfirming] = useState<TUserListItem | null>(null);

  useEffect(() => {
    document.title = 'Unapproved Users · Admin Dashboard';
  }, []);

  // Approving the last user of the last page leaves it empty: step back to a page that has users.
  const data = list.data;
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) {
      setPage(Math.ceil(data.total / data.pageSize));
    }
  }, [data, page, setPage]);

  function confirmApproval() {
    if (!confirming) return;
    approve.mutate({ userId: confirming.id }, { onSettled: () => setConfirming(null) });
  }

  return (
    <div className="mx-auto max-w-5xl">
      <AdminPageHeader
        title="Unapproved Users"
        description="Learners who have verified their email and wait for approval before they can enrol in courses."
      />

      {list.isError ? (
        <UserListError
          title={MESSAGES.users.loadFailed}
          message={errorMessage(list.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : data && data.total === 0 ? (
        <UserListEmpty
          message={MESSAGES.users.noUnapproved}
          hint="New learners appear here once they have registered and verified their email address."
        />
      ) : (
        <div className="grid gap-4">
          <Table aria-busy={list.isPending || undefined}>
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead className="hidden sm:table-cell">Mobile</TableHead>
                <TableHead className="hidden sm:table-cell">Registered</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Action</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className="bg-card">
              {!data ? (
                <UserRowsSkeleton columns={4} />
              ) : (
                data.items.map((user) => (
                  <TableRow key={user.id}>
                    <TableCell>
                      <UserIdentity name={user.name} email={user.email} />
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">{user.mobile}</TableCell>
                    <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatDay(user.registeredAt)}</TableCell>
                    <TableCell className="text-right">
                      <div className="flex flex-wrap justify-end gap-2">
                        {/* Reviewers check the seafarer's documents before approving. */}
                        <Button asChild variant="outline" size="sm">
                          <Link to={paths.admin.users.profile(user.id)} aria-label={`View profile of ${user.name}`}>
                            <IdCard aria-hidden />
                            View profile
                          </Link>
                        </Button>
                        <Button size="sm" onClick={() => setConfirming(user)} aria-label={`Approve ${user.name}`}>
                          <UserCheck aria-hidden />
                          Approve
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
          {data && (
            <Pagination page={page} pageSize={data.pageSize} total={data.total} onPageChange={setPage} noun="users" />
          )}
        </div>
      )}

      <ApproveUserDialog
        user={confirming}
        pending={approve.isPending}
        onConfirm={confirmApproval}
        onClose={() => setConfirming(null)}
      />
    </div>
  );
}
