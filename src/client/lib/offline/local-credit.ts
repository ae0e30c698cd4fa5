import { VIDEO_COMPLETION_SHARE } from '../../../shared/constants.ts';
import { clipToNewSeconds, lockedParts, mergeInterval, watchedSeconds, type TSpan } from '../../../shared/watched-spans.ts';


/*
 * What the device may take as watched before the server has seen its records: the server's rules
 * for offline credit (decision 050), applied to this device's own records only, so that the player
 * unlocks the next part offline exactly when the server will once the records are sent. Pure: the
 * player and the course home feed it the parts and the records they hold.
 */

/** A record's part of the rules: which part, the span of it played, and the monotonic time it played. */
export type TCreditRecord = { videoId: string; from: number; to: number; playedMs: number };

export type TCreditPart = {
  id: string;
  durationSeconds: number | null;
  /** Completed on the server's record (as last seen). */
  completed: boolean;
};

export type TLocalPartCredit = {
  /** Seconds of the part this device's records cover, each counted once, gaps never. */
  watchedSeconds: number;
  /** Seconds of play the device's monotonic clock measured for the part, as the server counts them. */
  playSeconds: number;
  /** Completed on the server's record, or by this device's records. */
  completed: boolean;
  /** Locked until every earlier part is completed. */
  locked: boolean;
};

/** A record credits at most its played time and this much more (the server's figure). */
const RECORD_SLACK_SECONDS = 1;

/**
 * The seconds of one part the device's records credit, taken in their order as the server takes
 * them: each span within the part's length, its new seconds at most its played time + 1 s, and
 * the clock grown by its played time.
 */
export function creditOfRecords(records: readonly TCreditRecord[], durationSeconds: number): { watchedSeconds: number; playSeconds: number } {
  let spans: TSpan[] = [];
  let playSeconds = 0;
  for (const record of records) {
    const from = Math.min(Math.max(record.from, 0), durationSeconds);
    const to = Math.min(Math.max(record.to, from), durationSeconds);
    const played = Math.max(0, record.playedMs) / 1000;
    playSeconds += played;
    if (to <= from) continue;
    const before = watchedSeconds(spans);
    const claimed = watchedSeconds(mergeInterval(spans, [from, to])) - before;
    const allowed = played + RECORD_SLACK_SECONDS;
    spans = mergeInterval(spans, claimed > allowed ? clipToNewSeconds(spans, [from, to], allowed) : [from, to]);
  }
  return { watchedSeconds: Math.min(watchedSeconds(spans), durationSeconds), playSeconds };
}

/** The server's completion rule: `share` of the part credited, and at least that much time played. */
export function isCompletedBy(credit: { watchedSeconds: number; playSeconds: number }, durationSeconds: number | null, share = VIDEO_COMPLETION_SHARE): boolean {
  if (durationSeconds === null || durationSeconds <= 0) return false;
  const needed = durationSeconds * share;
  return credit.watchedSeconds >= needed && credit.playSeconds >= needed;
}

/**
 * Each part as the device may show it: completed when the server said so or when this device's
 * records (in their order; refused ones left out by the caller) complete it, and locked as online.
 */
export function localCredit(parts: readonly TCreditPart[], records: readonly TCreditRecord[]): TLocalPartCredit[] {
  const credits = parts.map((part) => {
    const own = records.filter((record) => record.videoId === part.id);
    const credit = part.durationSeconds ? creditOfRecords(own, part.durationSeconds) : { watchedSeconds: 0, playSeconds: 0 };
    return { ...credit, completed: part.completed || isCompletedBy(credit, part.durationSeconds) };
  });
  const locks = lockedParts(credits.map((credit) => credit.completed));
  return credits.map((credit, index) => ({ ...credit, locked: locks[index] ?? false }));
}
