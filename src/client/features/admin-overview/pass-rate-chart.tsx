import { useId, useState } from 'react';
import type { TCoursePassRate } from '../../../shared/schemas/tests.ts';
import { Button } from '@/components/ui/button.tsx';

const GRID_LINES = [0, 25, 50, 75, 100];

/** One course's bar: the pass rate across 0–100 %, with grid lines every quarter. */
function Bar({ rate }: { rate: number }) {
  return (
    <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="h-4 w-full overflow-visible" aria-hidden focusable="false">
      <rect x="0" y="0" width="100" height="10" rx="1.5" className="fill-navy-50" />
      {GRID_LINES.slice(1, -1).map((line) => (
        <line key={line} x1={line} x2={line} y1="0" y2="10" className="stroke-white" strokeWidth="0.6" vectorEffect="non-scaling-stroke" />
      ))}
      {rate > 0 && <rect x="0" y="0" width={rate} height="10" rx="1.5" className={rate >= 50 ? 'fill-sea-600' : 'fill-warning'} />}
    </svg>
  );
}

/**
 * Pass rate per course: bars drawn in SVG for the eye, and the same figures as a table, which
 * screen readers read (the bars are hidden from them) and anyone can show.
 */
export function PassRateChart({ rates }: { rates: TCoursePassRate[] }) {
  const [asTable, setAsTable] = useState(false);
  const captionId = useId();
  const tableId = useId();
  return (
    <figure aria-labelledby={captionId} className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={captionId} className="text-lg font-semibold text-navy-900">
          Pass rate per course
        </figcaption>
        <Button variant="ghost" size="sm" aria-expanded={asTable} aria-controls={tableId} onClick={() => setAsTable((value) => !value)}>
          {asTable ? 'Show as chart' : 'Show as table'}
        </Button>
      </div>
      <p className="-mt-2 text-sm text-muted-foreground">Share of submitted attempts that passed, all time.</p>
      {!asTable && (
        <div aria-hidden className="grid gap-4">
          <ul className="grid gap-3">
            {rates.map((rate) => (
              <li key={rate.courseId} className="grid gap-1.5 sm:grid-cols-[minmax(0,14rem)_1fr_4.5rem] sm:items-center sm:gap-4">
                <span className="min-w-0 truncate text-sm font-medium text-navy-900" title={rate.courseTitle}>
                  {rate.courseTitle}
                </span>
                <div className="flex items-center gap-3">
                  <Bar rate={rate.passRate} />
                  <span className="w-12 shrink-0 text-right text-sm font-semibold text-navy-900 tabular-nums sm:hidden">{rate.passRate}%</span>
                </div>
                <span className="hidden text-right text-sm tabular-nums sm:block">
                  <span className="font-semibold text-navy-900">{rate.passRate}%</span>{' '}
                  <span className="text-xs text-muted-foreground">
                    {rate.passed}/{rate.attempts}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          <div className="hidden text-xs text-muted-foreground tabular-nums sm:grid sm:grid-cols-[minmax(0,14rem)_1fr_4.5rem] sm:gap-4">
            <span />
            <span className="flex justify-between">
              {GRID_LINES.map((line) => (
                <span key={line}>{line}%</span>
              ))}
            </span>
            <span />
          </div>
        </div>
      )}
      <div id={tableId} className={asTable ? 'overflow-x-auto' : 'sr-only'}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Pass rate per course</caption>
          <thead>
            <tr className="border-b border-border text-muted-foreground">
              <th scope="col" className="py-2 pr-4 font-medium">
                Course
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Attempts
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Passed
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Pass rate
              </th>
            </tr>
          </thead>
          <tbody>
            {rates.map((rate) => (
              <tr key={rate.courseId} className="border-b border-border last:border-0">
                <th scope="row" className="py-2 pr-4 font-medium text-navy-900">
                  {rate.courseTitle}
                </th>
                <td className="py-2 pr-4 text-right tabular-nums">{rate.attempts}</td>
                <td className="py-2 pr-4 text-right tabular-nums">{rate.passed}</td>
                <td className="py-2 text-right font-semibold tabular-nums">{rate.passRate}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
