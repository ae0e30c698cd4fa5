import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';

/** How long a stopping server tells clients to wait before trying again (another instance, or this one restarted). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Lets the server stop without cutting anyone off: once draining starts, every new request is
 * answered 503 with Retry-After (a load balancer moves on, a client retries), while the requests
 * already in flight (an upload half sent, a test being submitted) run to their end.
 */
export function drainOnStop(app: FastifyInstance): TDrain {
  let draining = false;
  let inFlight = 0;
  let whenIdle: (() => void) | undefined;

  app.addHook('onRequest', (_request, reply, done) => {
    if (draining) {
      reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .header('connection', 'close')
        .send({ message: MESSAGES.common.shuttingDown });
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

  const handle: TDrain = {
    get inFlight() {
      return inFlight;
    },
    /** Refuses new requests from now on; resolves once those in flight have finished, or after `timeoutMs`. */
    async drain(timeoutMs: number): Promise<{ unfinished: number }> {
      draining = true;
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          timer.unref();
          whenIdle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return { unfinished: inFlight };
    },
  };
  app.decorate('draining', handle);
  return handle;
}

export type TDrain = {
  readonly inFlight: number;
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops taking requests while those in flight finish (see drainOnStop). */
    draining: TDrain;
  }
}
