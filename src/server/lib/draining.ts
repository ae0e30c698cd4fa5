import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';

/** How long a stopping server tells clients to wait before trying again (another instance, or this one restarted). */
const RETRY_AFTER_SECONDS = 5;
/** Requests in flight get this long to finish once the portal is asked to stop (an upload on a slow link). */
export const DRAIN_LIMIT_MS = 20_000;

/**
 * Lets `app.close()` stop the server without cutting anyone off. Its preClose hook runs while the
 * server still listens: every new request is answered 503 with Retry-After (a load balancer moves
 * on, a client retries; Fastify's own 503, return503OnClosing, cannot say when to come back), and
 * the requests in flight (an upload half sent, a test being submitted) run to their end. Then
 * Fastify stops listening, cuts what still runs (forceCloseConnections) and runs its onClose hooks.
 */
export function drainOnClose(app: FastifyInstance, limitMs = DRAIN_LIMIT_MS): void {
  let draining = false;
  let inFlight = 0;
  let whenIdle: (() => void) | undefined;

  app.addHook('onRequest', (_request, reply, done) => {
    if (draining) {
      reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ message: MESSAGES.common.shuttingDown });
      return;
    }
    inFlight += 1;
    // 'close' comes once per response, sent in full or cut off by the client.
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) whenIdle?.();
    });
    done();
  });

  app.addHook('preClose', async () => {
    draining = true;
    app.log.info({ inFlight }, 'shutting down: finishing requests in flight, new ones get 503');
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        whenIdle = resolve;
        setTimeout(resolve, limitMs).unref();
      });
    }
    if (inFlight > 0) app.log.warn({ unfinished: inFlight }, 'requests still running at the shutdown limit are cut off');
  });
}
