import { useEffect } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Pagination } from '@/components/ui/pagination.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { AdminPageHeader } from '@/components/layouts/admin-page-header.tsx';
import { formatDay } from '@/lib/format.ts';
import { useApprovedUsers } from '@/features/admin-users/api/use-approved-users.ts';
import { usePageParam } from '@/features/admin-users/use-page-param.ts';
import {
  UserIdentity,
  UserListEmpty,
  UserListError,
  UserRowsSkeleton,
} from '@/features/admin-users/user-list-states.tsx';
import { errorMessage } from '@/lib/api-errors.ts';

/** /admin-dashboard/approved-users: learners the academy has approved, most recent first. */
export function ApprovedUsersPage() {
  const [page, setPage] = usePageParam();
  const list = useApprovedUsers(page);
  const data = list.data;

  useEffect(() => {
    document.title = 'Approved Users · Admin Dashboard';
  }, []);

  return (
    <div className="mx-auto max-w-5xl">
      <AdminPageHeader title="Approved Users" description="Learners who may request enrolment in courses." />

      {list.isError ? (
        <UserListError
          title={MESSAGES.users.loadFailed}
          message={errorMessage(list.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : data && data.total === 0 ? (
        <UserListEmpty
          message={MESSAGES.users.noApproved}
          hint="Approve learners under Unapproved Users; they are listed here afterwards."
        />
      ) : (
        <div className="grid gap-4">
          <Table aria-busy={list.isPending || undefined}>
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead className="hidden sm:table-cell">Mobile</TableHead>
                <TableHead className="hidden sm:table-cell">Registered</TableHead>
                <TableHead>Approved</TableHead>
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
                    <TableCell className="whitespace-nowrap">
                      <Badge variant="success">{formatDay(user.approvedAt)}</Badge>
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
    </div>
  );
}
