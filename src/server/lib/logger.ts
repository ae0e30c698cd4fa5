import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Signed file links, any `sig`/`signature`/`token`/`code` parameter (a certificate's verification
 * code among them) and the input of a certificate check are credentials: never logged.
 */
const SECRET_PARAMS = /([?&](?:sig|signature|token|code)=)[^&#]*/gi;
const SECRET_QUERIES = /^\/(?:api\/)?files\/|^\/trpc\/(?:[\w.]+,)*certificates\.verify/;

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const path = url.slice(0, query);
  if (SECRET_QUERIES.test(path)) return `${path}?[redacted]`;
  return path + url.slice(query).replace(SECRET_PARAMS, '$1[redacted]');
}

type TLoggedRequest = IncomingMessage & { ip?: string; host?: string };

/**
 * Lines go to stdout as they are written (pino's synchronous destination). pino's default
 * hands each write to a thread of libuv's pool, which cost the cached catalogue about 2.5 µs of
 * CPU a request more than writing on the spot (decision 062); and a synchronous line is never
 * lost to a crash that follows it.
 */
export function createLogger(level: string, name = 'portal', destination: DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          // At the top of a line and one level down ('*.' alone skips the top).
          'password',
          'newPassword',
          'otp',
          'refreshToken',
          'accessToken',
          '*.password',
          '*.newPassword',
          '*.otp',
          '*.refreshToken',
          '*.accessToken',
        ],
        censor: '[redacted]',
      },
      serializers: {
        // Fastify's request fields, with the URL's credentials taken out.
        req: (req: TLoggedRequest) => ({
          method: req.method,
          url: redactUrl(req.url ?? ''),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    destination,
  );
}

/** What the request log says of an answered request: the URL with its credentials taken out. */
function answered(request: FastifyRequest, reply: FastifyReply) {
  return { method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, ip: request.ip };
}

/**
 * One line per request, written as its answer finishes: the method, the URL without its
 * credentials, the status, the time taken and the caller's address, beside the request id every
 * line of the request carries; at error level with the error when the answer could not be sent.
 * Fastify's own controller writes two at info ("incoming request", then "request completed"):
 * the first is kept for debug, and at the default level the pair cost the cached catalogue more
 * CPU than the rest of its answer (decision 061). Fastify's other request lines are kept.
 */
export class OneLinePerRequest extends LogController {
  /** The line's fields are the ones above, never a caller's input: it needs no redaction, which costs more than the line. */
  readonly #lines: Logger;

  constructor(logger: Logger) {
    super();
    this.#lines = logger.child({}, { redact: [] });
  }

  /** At debug only: the line that shows a request which never finished. */
  override incomingRequest(request: FastifyRequest) {
    if (this.#lines.isLevelEnabled('debug')) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ ...answered(request, reply), err: error }, 'request errored');
    else if (this.#lines.isLevelEnabled('info')) this.#lines.info({ reqId: request.id, ...answered(request, reply) }, 'answered');
  }
}

/**
 * Fastify's options for the request log: its one line per request. Each request's own logger
 * (`request.log`) is Fastify's pino child, bound to the request's id, with the redaction above.
 */
export function requestLogOptions(logger: Logger) {
  return { logController: new OneLinePerRequest(logger) };
}
