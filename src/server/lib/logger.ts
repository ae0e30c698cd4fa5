import type { IncomingMessage } from 'node:http';
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

export function createLogger(level: string, name = 'portal', destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
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
