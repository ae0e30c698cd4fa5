import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';

/** A profile's shape while it loads. */
export function ProfileDetailsSkeleton({ label = 'Loading the profile…' }: { label?: string }) {
  return (
    <div className="grid gap-6">
      <Spinner label={label} className="sr-only" />
      <Card className="overflow-hidden">
        <div aria-hidden className="h-24 bg-navy-100" />
        <CardContent className="flex flex-col items-center gap-4 pt-0 sm:flex-row sm:items-start sm:gap-6">
          {/* Round, so not <Skeleton> (its corners would fight rounded-full). */}
          <div aria-hidden className="-mt-20 size-40 shrink-0 animate-pulse rounded-full bg-navy-50 ring-4 ring-white sm:-mt-16" />
          <div className="grid w-full max-w-sm justify-items-center gap-2 sm:justify-items-start sm:pt-6">
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
