/*
 * Changes of the device's downloads, in this tab and the others (a BroadcastChannel carries them),
 * with what the course home shows beside the stored rows: the bytes of the chunk under way and why
 * a download left the device without the learner asking.
 */

export type TDownloadChange = 'row' | 'progress';
type TListener = (key: string, kind: TDownloadChange) => void;

const listeners = new Set<TListener>();
let channel: BroadcastChannel | null = null;

/** Bytes of the chunk under way (not yet stored), for a progress bar that moves on a slow link. */
const inFlight = new Map<string, number>();
/** Why a download left the device without the learner asking (the enrolment ended), for the course home to say. */
const notices = new Map<string, string>();

function openChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel('academy-offline-downloads');
  channel.onmessage = (event: MessageEvent<{ key: string; kind: TDownloadChange; inFlight?: number; notice?: string }>) => {
    const { key, kind, inFlight: bytes, notice } = event.data;
    if (bytes !== undefined) inFlight.set(key, bytes);
    if (notice) notices.set(key, notice);
    for (const listener of listeners) listener(key, kind);
  };
  return channel;
}

export function subscribeDownloads(listener: TListener): () => void {
  openChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this tab's listeners and the other tabs that a download changed. */
export function announce(key: string, kind: TDownloadChange = 'row') {
  for (const listener of listeners) listener(key, kind);
  openChannel()?.postMessage({ key, kind, inFlight: inFlight.get(key), notice: notices.get(key) });
}

export function downloadInFlight(key: string): number {
  return inFlight.get(key) ?? 0;
}
export function setInFlight(key: string, bytes: number): void {
  inFlight.set(key, bytes);
}
export function clearInFlight(key: string): void {
  inFlight.delete(key);
}

export function downloadNotice(key: string): string | null {
  return notices.get(key) ?? null;
}
export function setDownloadNotice(key: string, message: string): void {
  notices.set(key, message);
}
/** Forgets the notice without announcing it (the caller announces the change it is part of). */
export function clearDownloadNotice(key: string): void {
  notices.delete(key);
}
export function dismissDownloadNotice(key: string): void {
  if (notices.delete(key)) announce(key);
}
