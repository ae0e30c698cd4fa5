/*
 * The text a device signs for each offline watch record (HMAC-SHA256 with its download's record
 * key, base64url): the same function on the device and on the server, so a record edited after it
 * was signed, moved to another download or put in another place of the sequence no longer matches.
 */

export type TSignedRecordFields = {
  id: string;
  seq: number;
  videoId: string;
  from: number;
  to: number;
  startedAt: number;
  endedAt: number;
  playedMs: number;
  prev: string | null;
};

export function offlineRecordText(downloadId: string, record: TSignedRecordFields): string {
  return [
    'offline-watch-v1',
    downloadId,
    record.seq,
    record.id,
    record.videoId,
    record.from,
    record.to,
    record.startedAt,
    record.endedAt,
    record.playedMs,
    record.prev ?? '',
  ].join('|');
}
