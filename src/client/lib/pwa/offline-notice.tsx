import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { serverAnswered } from '@/lib/api-errors.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useOnline } from '@/lib/offline/use-online.ts';
import { deviceCopyShown, subscribeDeviceCopy } from '@/lib/pwa/device-copy.ts';

/**
 * What the screen shows of the cache, as one comparable value: whether a query of the screen could
 * not reach the server (no answer at all, or waiting for a network), and when the oldest data the
 * screen shows was fetched ('' when it shows none).
 */
function shownData(client: QueryClient): string {
  let unreachable = false;
  let oldest = Number.POSITIVE_INFINITY;
  for (const query of client.getQueryCache().getAll()) {
    if (query.getObserversCount() === 0) continue;
    const { data, dataUpdatedAt, status, error, fetchStatus } = query.state;
    if (fetchStatus === 'paused' || (status === 'error' && !serverAnswered(error))) unreachable = true;
    if (data !== undefined) oldest = Math.min(oldest, dataUpdatedAt);
  }
  return `${unreachable ? 'unreachable' : 'reached'}:${Number.isFinite(oldest) ? oldest : ''}`;
}

/**
 * The learner pages' line "Offline: last updated 27 Nov 2026, 9:15 am" while the browser has no
 * network or the server did not answer, with the time the data on the screen was fetched (kept on
 * the device since, see query-persistence.ts). A screen with nothing kept that shows the course
 * downloaded on the device (the player) says so instead (device-copy.ts). A live region, present
 * while online too, so the change is read out.
 */
export function OfflineNotice() {
  const online = useOnline();
  const client = useQueryClient();
  const subscribe = useCallback((onChange: () => void) => client.getQueryCache().subscribe(() => onChange()), [client]);
  const snapshot = useSyncExternalStore(subscribe, () => shownData(client), () => 'reached:');
  const fromDevice = useSyncExternalStore(subscribeDeviceCopy, deviceCopyShown, () => false);
  const [reach, oldest] = snapshot.split(':');
  const offline = !online || reach === 'unreachable';
  const C = MESSAGES.connection;
  const text = !offline
    ? ''
    : oldest
      ? C.offlineLastUpdated(formatDateTime(new Date(Number(oldest)).toISOString()))
      : fromDevice
        ? C.offlinePlayingFromDevice
        : C.offlineNothingKept;
  return (
    <div role="status" className={text ? 'border-b border-navy-100 bg-navy-50 px-4 py-2 text-center text-sm text-navy-900' : undefined}>
      {text}
    </div>
  );
}
