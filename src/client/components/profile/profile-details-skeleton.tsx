import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';

/** A profile's shape while it loads. */
export function ProfileDetailsSkeleton({ label = 'Loading the profile…' }: { label?: string }) {
  return (
    <div className="grid gap-6">
      <Spinner label={label} className="sr-only" />
      <Card className="overflow-hidden">
        <div aria-hidden className="h-20 bg-navy-100 sm:h-24" />
        <CardContent className="-mt-16 flex flex-col items-center gap-4 pt-0 sm:-mt-14 sm:flex-row sm:items-end">
          <Skeleton className="size-40 rounded-full ring-4 ring-white" />
          <div className="grid w-full max-w-sm gap-2 sm:pb-3">
            <Skeleton className="h-8 w-3/4" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        {[0, 1, 2, 3].map((section) => (
          <Card key={section}>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <Skeleton className="h-5 w-40 sm:col-span-2" />
              {[0, 1, 2, 3].map((row) => (
                <div key={row} className="grid gap-1.5">
                  <Skeleton className="h-3 w-24" />
                  <Skeleton className="h-4 w-32" />
                </div>
              ))}
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
