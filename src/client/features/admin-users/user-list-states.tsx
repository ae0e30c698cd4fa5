import { AlertCircle, RotateCw, Users } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { TableCell, TableRow } from '@/components/ui/table.tsx';

/** Placeholder rows while a page of users loads. */
export function UserRowsSkeleton({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <TableRow key={row} aria-hidden>
          <TableCell>
            <Skeleton className="h-4 w-40" />
            <Skeleton className="mt-2 h-3 w-52" />
          </TableCell>
          {Array.from({ length: columns - 1 }, (_, column) => (
            <TableCell key={column} className={column < columns - 2 ? 'hidden sm:table-cell' : undefined}>
              <Skeleton className="h-4 w-20" />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}

/** The list could not be loaded: say so (never pretend it is empty) and offer to try again. */
export function UserListError({ title, message, onRetry, retrying }: { title: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={onRetry} disabled={retrying}>
          <RotateCw className={retrying ? 'animate-spin' : undefined} aria-hidden />
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** No users in this list, and what that means. */
export function UserListEmpty({ message, hint }: { message: string; hint: string }) {
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-border bg-card px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-sea-50 text-sea-700">
        <Users className="size-6" aria-hidden />
      </span>
      <p className="mt-4 font-semibold text-navy-900">{message}</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">{hint}</p>
    </div>
  );
}

/** The name and e-mail of a user, stacked, as the first cell of a row. */
export function UserIdentity({ name, email }: { name: string; email: string }) {
  return (
    <div className="min-w-0">
      <p className="font-semibold text-navy-900">{name}</p>
      <p className="text-sm break-all text-muted-foreground">{email}</p>
    </div>
  );
}
