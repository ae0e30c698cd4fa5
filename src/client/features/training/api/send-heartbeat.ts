import type { THeartbeat } from '../../../../shared/schemas/training.ts';
import { authorizationHeader } from '@/lib/session/session-link.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * training.heartbeat through the app's tRPC client (session renewal included). The vanilla
 * client's call, not a mutation hook: reports go on while the player changes part or closes.
 */
export function useSendHeartbeat() {
  const utils = trpc.useUtils();
  return (beat: THeartbeat) => utils.client.training.heartbeat.mutate(beat);
}

/**
 * The last reports of a page being closed: a keepalive request, which the browser finishes after
 * the page has gone (an ordinary call would be cut off). Nobody waits for the answer.
 */
export function sendHeartbeatOnLeave(beat: THeartbeat): void {
  try {
    void fetch('/trpc/training.heartbeat', {
      method: 'POST',
      keepalive: true,
      headers: { 'content-type': 'application/json', ...authorizationHeader() },
      body: JSON.stringify(beat),
    }).catch(() => undefined);
  } catch {
    // A browser without keepalive: what was not reported is played again next time.
  }
}
