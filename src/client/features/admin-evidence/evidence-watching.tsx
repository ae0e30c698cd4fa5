import { CircleCheck, CircleDashed, PlaySquare } from 'lucide-react';
import { useId } from 'react';
import type { TCertificateEvidence } from '../../../shared/schemas/evidence.ts';
import { ListEmpty } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { asSentence, formatMoment, formatSeconds, secondsWithClock } from '@/features/admin-evidence/evidence-format.ts';
import { EVIDENCE_CARD, EvidenceFigure } from '@/features/admin-evidence/evidence-layout.tsx';
import { cn } from '@/lib/utils.ts';

type TPart = TCertificateEvidence['parts'][number];
type TRefusal = TPart['refusals'][number];

/** A cell's label where the table is stacked (phones); the column's heading says it on wider screens. */
function StackedLabel({ children }: { children: string }) {
  return (
    <span aria-hidden className="block text-xs font-normal text-muted-foreground sm:hidden">
      {children}
    </span>
  );
}

/**
 * The reports of a part the server did not credit in full: when, why, the span of the part the
 * report claimed and what was credited of it. A table on wider screens, stacked rows on phones.
 */
function RefusalTable({ refusals, caption }: { refusals: TRefusal[]; caption: string }) {
  const cell = 'max-sm:p-0 max-sm:min-w-0';
  return (
    <Table className="text-sm">
      <caption className="sr-only">{caption}</caption>
      <TableHeader className="max-sm:sr-only">
        <TableRow>
          <TableHead>Time</TableHead>
          <TableHead>Reason</TableHead>
          <TableHead>Claimed span</TableHead>
          <TableHead>Credited</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {refusals.map((refusal, index) => (
          <TableRow key={`${refusal.at}-${index}`} className="max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-2 max-sm:p-3">
            <TableCell className={cn(cell, 'tabular-nums')}>
              <StackedLabel>Time</StackedLabel>
              {formatMoment(refusal.at)}
            </TableCell>
            <TableCell className={cn(cell, 'break-words')}>
              <StackedLabel>Reason</StackedLabel>
              {asSentence(refusal.reason)}
            </TableCell>
            <TableCell className={cn(cell, 'tabular-nums')}>
              <StackedLabel>Claimed span</StackedLabel>
              {formatSeconds(refusal.claimedFrom)} to {formatSeconds(refusal.claimedTo)}
            </TableCell>
            <TableCell className={cn(cell, 'tabular-nums')}>
              <StackedLabel>Credited</StackedLabel>
              {formatSeconds(refusal.creditedSeconds)} of {formatSeconds(Math.max(0, refusal.claimedTo - refusal.claimedFrom))}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** One part of the training: when it was watched, for how long (credited and timed), and its refused reports. */
function PartEvidence({ part }: { part: TPart }) {
  const titleId = useId();
  const completed = part.completedAt !== null;
  const refused = part.refusals.length;
  return (
    <li>
      <article aria-labelledby={titleId} className={cn(EVIDENCE_CARD, 'print:break-inside-avoid')}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h3 id={titleId} className="min-w-0 text-lg font-semibold break-words text-navy-900">
            <span className="text-muted-foreground">Part {part.serial}:</span>{' '}
            {part.title}
          </h3>
          <Badge variant={completed ? 'success' : 'warning'}>
            {completed ? <CircleCheck aria-hidden /> : <CircleDashed aria-hidden />}
            {completed ? 'Completed' : 'Not completed'}
          </Badge>
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3">
          <EvidenceFigure label="First watched">{part.firstWatchedAt ? formatMoment(part.firstWatchedAt) : 'Never'}</EvidenceFigure>
          <EvidenceFigure label="Last watched">{part.lastWatchedAt ? formatMoment(part.lastWatchedAt) : 'Never'}</EvidenceFigure>
          <EvidenceFigure label="Completed">{completed ? formatMoment(part.completedAt) : 'Not completed'}</EvidenceFigure>
          <EvidenceFigure label="Part length">{secondsWithClock(part.durationSeconds)}</EvidenceFigure>
          <EvidenceFigure label="Watched (credited)">{secondsWithClock(part.watchedSeconds)}</EvidenceFigure>
          <EvidenceFigure label="Timed by the server">{secondsWithClock(part.timedSeconds)}</EvidenceFigure>
        </dl>
        <div className="grid gap-2 border-t border-border pt-4">
          <h4 className="text-sm font-semibold text-navy-900">{refused === 0 ? 'Refused reports' : refused === 1 ? '1 refused report' : `${refused} refused reports`}</h4>
          {refused === 0 ? (
            <p className="text-sm text-muted-foreground">No report was refused.</p>
          ) : (
            <RefusalTable refusals={part.refusals} caption={`Refused reports of part ${part.serial}`} />
          )}
        </div>
      </article>
    </li>
  );
}

/**
 * "Training watched": each part in order. Watched is what the server credited, each second of the
 * part once; timed is how long its own clock saw the learner playing the part (decision 041).
 */
export function WatchingEvidence({ parts }: { parts: TPart[] }) {
  if (parts.length === 0) {
    return <ListEmpty icon={PlaySquare} message="This course has no training videos." hint="Nothing was there to watch, so there is no watching to show." />;
  }
  const completed = parts.filter((part) => part.completedAt !== null).length;
  const refused = parts.reduce((sum, part) => sum + part.refusals.length, 0);
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {completed} of {parts.length} {parts.length === 1 ? 'part' : 'parts'} completed; {refused === 0 ? 'no report refused' : refused === 1 ? '1 report refused' : `${refused} reports refused`}.
        Watched counts each second of a part once, as credited; timed is how long the server’s own clock saw the part playing.
      </p>
      <ol className="grid gap-4">
        {parts.map((part) => (
          <PartEvidence key={part.serial} part={part} />
        ))}
      </ol>
    </>
  );
}
