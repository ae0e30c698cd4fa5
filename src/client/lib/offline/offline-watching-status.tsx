import { AlertTriangle, CheckCircle2, CloudUpload } from 'lucide-react';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { notCounted } from '@/lib/offline/watch-records.ts';
import { cn } from '@/lib/utils.ts';

/** A length of watching in words: "40 s", "12 min". */
function watchingLength(playedMs: number): string {
  const seconds = Math.max(1, Math.round(playedMs / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/**
 * What this device holds of a course's watching done offline: how much is waiting to be sent, or
 * that all of it was sent, and the records the server refused with its reason. Nothing when the
 * device holds none.
 */
export function OfflineWatchingStatus({ records, className }: { records: readonly TStoredRecord[]; className?: string }) {
  if (records.length === 0) return null;
  const pendingMs = records.filter((stored) => stored.state === 'pending').reduce((sum, stored) => sum + stored.record.playedMs, 0);
  const pending = records.some((stored) => stored.state === 'pending');
  const refused = new Map<string, number>();
  for (const stored of records) {
    if (!notCounted(stored)) continue;
    const reason = stored.reason ?? 'refused by the server';
    refused.set(reason, (refused.get(reason) ?? 0) + stored.record.playedMs);
  }
  return (
    <div role="status" className={cn('grid gap-1 text-sm', className)}>
      {pending ? (
        <p className="flex items-start gap-2 text-navy-900">
          <CloudUpload className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
          {watchingLength(pendingMs)} of watching waiting to be sent
        </p>
      ) : (
        <p className="flex items-start gap-2 text-muted-foreground">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
          All watching sent
        </p>
      )}
      {[...refused].map(([reason, playedMs]) => (
        <p key={reason} className="flex items-start gap-2 text-destructive">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {watchingLength(playedMs)} of watching not counted: {reason}
          </span>
        </p>
      ))}
    </div>
  );
}
