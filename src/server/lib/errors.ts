import { MESSAGES } from '../../shared/messages.ts';
import { HASHING_UNAVAILABLE } from './hashing-threads.ts';

export const APP_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
} as const;
export type TAppErrorCode = keyof typeof APP_ERROR_STATUS;

/**
 * The one error type services and workers throw. Routers and REST adapters never build their own
 * errors: one mapping turns an AppError into an HTTP status or a tRPC code.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: TAppErrorCode;
  /** Per-field messages for forms, keyed by the field's name in the request. */
  readonly fields: Record<string, string> | undefined;
  /** Seconds after which a refused request may be tried again (429). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: TAppErrorCode,
    message: string,
    options: { fields?: Record<string, string>; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return APP_ERROR_STATUS[this.code];
  }
}

export const notFound = (message: string = MESSAGES.common.notFound) =>
  new AppError('NOT_FOUND', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * Error codes of a service that cannot be reached or is restarting: sockets refused or cut,
 * postgres.js losing its connection, PostgreSQL shutting down or starting up (SQLSTATE 57P0x),
 * connection failures (SQLSTATE class 08), password hashing whose threads keep failing.
 */
const UNAVAILABLE_CODES = new Set([
  HASHING_UNAVAILABLE,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Whether the error, or one it wraps, says a service the request needs is unreachable for now. */
export function isServiceUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  }
  return false;
}

/** Seconds a client is told to wait when a service is briefly unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Runs `work`; a field-named AppError it throws comes out with its `fields` passed through
 * `rename`, so an edge names fields as its clients spell them (a REST adapter: the spec's names).
 */
export async function renamingFields<T>(
  rename: (fields: Record<string, string>) => Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isAppError(error) || !error.fields) throw error;
    throw new AppError(error.code, error.message, {
      fields: rename(error.fields),
      retryAfterSeconds: error.retryAfterSeconds,
      cause: error,
    });
  }
}
