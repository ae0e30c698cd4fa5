import { Search, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { cn } from '@/lib/utils.ts';

type ListSearchProps = {
  id: string;
  label: string;
  /** The label is read out but not shown (the placeholder says the same). */
  labelHidden?: boolean;
  /** What the box holds (usePageParams' `term`). */
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  maxLength: number;
  /** A search is on its way: a spinner stands at the end of the box. */
  searching: boolean;
  /** Offers a Clear search button (instead of the browser's own) while the box holds text. */
  clearable?: boolean;
  /** What can be searched for, under the box. */
  hint?: ReactNode;
};

/** The search box above a server-searched list. */
export function ListSearch({
  id,
  label,
  labelHidden = false,
  value,
  onChange,
  placeholder,
  maxLength,
  searching,
  clearable = false,
  hint,
}: ListSearchProps) {
  const hintId = `${id}-hint`;
  return (
    <div role="search" className="mb-6 grid gap-1.5">
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'text-sm font-medium text-navy-900'}>
        {label}
      </label>
      <div className="relative max-w-xl">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          id={id}
          type="search"
          value={value}
          maxLength={maxLength}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
          aria-describedby={hint ? hintId : undefined}
          className={cn('pr-10 pl-9', clearable && '[&::-webkit-search-cancel-button]:hidden')}
          autoComplete="off"
        />
        {searching ? (
          <Spinner size="sm" label="Searching…" className="absolute top-1/2 right-3 -translate-y-1/2" />
        ) : (
          clearable &&
          value && (
            <button
              type="button"
              onClick={() => onChange('')}
              className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-muted-foreground outline-none hover:bg-navy-50 hover:text-navy-900 focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-4" aria-hidden />
              <span className="sr-only">Clear search</span>
            </button>
          )
        )}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
