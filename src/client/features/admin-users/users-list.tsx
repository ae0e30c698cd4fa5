import { Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TUserListItem, TUserPage } from '../../../shared/schemas/users.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatDay } from '@/lib/format.ts';
import type { usePageParams } from '@/lib/paging/use-page-params.ts';

const COLUMNS = 4;

/** Placeholder rows while a page of users loads. */
function UserRowsSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <TableRow key={row} aria-hidden>
          <TableCell>
            <Skeleton className="h-4 w-40" />
            <Skeleton className="mt-2 h-3 w-52" />
          </TableCell>
          {Array.from({ length: COLUMNS - 1 }, (_, column) => (
            <TableCell key={column} className={column < COLUMNS - 2 ? 'hidden sm:table-cell' : undefined}>
              <Skeleton className="h-4 w-20" />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}

/** The name and e-mail of a user, stacked, as the first cell of a row. */
function UserIdentity({ name, email }: { name: string; email: string }) {
  return (
    <div className="min-w-0">
      <p className="font-semibold text-navy-900">{name}</p>
      <p className="text-sm break-all text-muted-foreground">{email}</p>
    </div>
  );
}

type UsersTableProps = {
  /** The page's users; none yet shows placeholder rows. */
  users: TUserListItem[] | undefined;
  /** Whether a page is still on its way (for assistive technology). */
  busy: boolean;
  /** The last column: its heading, its cell's class and content per user. */
  last: { head: ReactNode; headClassName?: string; cellClassName?: string; cell: (user: TUserListItem) => ReactNode };
};

/** Learners in a table: who (name and e-mail), mobile and registration date (wide screens), and one column of the list's own. */
export function UsersTable({ users, busy, last }: UsersTableProps) {
  return (
    <Table aria-busy={busy || undefined}>
      <TableHeader>
        <TableRow>
          <TableHead>User</TableHead>
          <TableHead className="hidden sm:table-cell">Mobile</TableHead>
          <TableHead className="hidden sm:table-cell">Registered</TableHead>
          <TableHead className={last.headClassName}>{last.head}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className="bg-card">
        {!users ? (
          <UserRowsSkeleton />
        ) : (
          users.map((user) => (
            <TableRow key={user.id}>
              <TableCell>
                <UserIdentity name={user.name} email={user.email} />
              </TableCell>
              <TableCell className="hidden sm:table-cell">{user.mobile}</TableCell>
              <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatDay(user.registeredAt)}</TableCell>
              <TableCell className={last.cellClassName}>{last.cell(user)}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}

type PagedUsersProps = {
  list: {
    data: TUserPage | undefined;
    error: unknown;
    isError: boolean;
    isPending: boolean;
    isFetching: boolean;
    isPlaceholderData: boolean;
    refetch: () => unknown;
  };
  paging: ReturnType<typeof usePageParams>;
  /** The catalogue's words for an empty list, and what it means. */
  empty: { message: string; hint: string };
  /** The list's table: no users yet means placeholder rows. */
  table: (users: TUserListItem[] | undefined, busy: boolean) => ReactNode;
};

/**
 * A page of learners with its pagination, and the user lists' loading, empty and error states. A
 * page emptied by approvals moves back to the last page that has users.
 */
export function PagedUsers({ list, paging, empty, table }: PagedUsersProps) {
  return (
    <PagedList
      query={list}
      paging={paging}
      noun="users"
      staleOnError="hide"
      error={
        <LoadError
          title={MESSAGES.users.loadFailed}
          message={errorMessage(list.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      }
      empty={<ListEmpty icon={Users} shape="table" message={empty.message} hint={empty.hint} />}
      loading={table(undefined, true)}
    >
      {(users) => table(users, list.isPending)}
    </PagedList>
  );
}
