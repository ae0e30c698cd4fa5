import { AlertCircle, BookOpen, type LucideIcon, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/utils.ts';

/** Placeholder cards the shape of the real ones while a list loads, with a status for screen readers. */
export function CourseCardsSkeleton({
  count = 4,
  className,
  cardClassName,
  label = 'Loading courses…',
}: {
  count?: number;
  className?: string;
  cardClassName?: string;
  label?: string;
}) {
  return (
    <div className={className} aria-busy>
      <span role="status" className="sr-only">
        {label}
      </span>
      {Array.from({ length: count }, (_, index) => (
        <div
          key={index}
          aria-hidden
          className={cn('flex flex-col overflow-hidden rounded-xl border border-border bg-card shadow-card', cardClassName)}
        >
          <Skeleton className="h-40 rounded-none" />
          <div className="grid gap-3 p-5">
            <Skeleton className="h-5 w-4/5" />
            <Skeleton className="h-3.5 w-full" />
            <Skeleton className="h-3.5 w-11/12" />
            <Skeleton className="h-3.5 w-2/3" />
            <Skeleton className="mt-4 h-10 w-full" />
          </div>
        </div>
      ))}
    </div>
  );
}

type ListEmptyProps = {
  message: string;
  hint?: string;
  /** What the list would hold (a book for courses, people for users). */
  icon?: LucideIcon;
  /** The frame's corners: `cards` beside cards, `table` where a table would stand. */
  shape?: 'cards' | 'table';
  /** An action under the words (Create Course, Go to your dashboard). */
  children?: ReactNode;
};

/** Nothing to list: say so and what happens next. */
export function ListEmpty({ message, hint, icon: Icon = BookOpen, shape = 'cards', children }: ListEmptyProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center border border-dashed border-border bg-card px-6 py-12 text-center',
        shape === 'cards' ? 'rounded-xl' : 'rounded-lg',
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-sea-50 text-sea-700">
        <Icon className="size-6" aria-hidden />
      </span>
      <p className="mt-4 font-semibold text-navy-900">{message}</p>
      {hint && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{hint}</p>}
      {children}
    </div>
  );
}

/** A list (or a page) that could not be loaded: said so, never shown as empty, with a way to try again. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying,
}: {
  title: string;
  message?: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        {message && message !== title && <p>{message}</p>}
        <Button variant="outline" size="sm" className="mt-3" onClick={onRetry} disabled={retrying}>
          <RotateCw className={retrying ? 'animate-spin' : undefined} aria-hidden />
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
