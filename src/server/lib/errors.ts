import { MESSAGES } from '../../shared/messages.ts';

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
