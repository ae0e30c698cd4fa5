import { TRPCClientError } from '@trpc/client';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { COMMON_MESSAGES } from '../../shared/common-messages.ts';

type TErrorData = { httpStatus?: number; fields?: Record<string, string> | null };

function errorData(error: unknown): TErrorData | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data: unknown = error.data;
  return data && typeof data === 'object' ? (data as TErrorData) : undefined;
}

/** The HTTP status the server answered with, or undefined when no answer came (network failure). */
export function httpStatusOf(error: unknown): number | undefined {
  return errorData(error)?.httpStatus;
}

/** Whether the server answered at all (a tRPC error shape or any HTTP response). */
export function serverAnswered(error: unknown): boolean {
  if (httpStatusOf(error) !== undefined) return true;
  if (error instanceof TRPCClientError) {
    const meta: unknown = error.meta;
    return Boolean(meta && typeof meta === 'object' && 'response' in meta && meta.response);
  }
  return false;
}

type TFallbacks = {
  /** The server answered without a message of its own. */
  fallback: string;
  /** No answer at all. */
  network?: string;
};

/**
 * The words to show for a failed call, as the spec's catalogue orders them: the server's message,
 * else the screen's fallback, else (no answer) the network message.
 */
export function errorMessage(error: unknown, { fallback, network = COMMON_MESSAGES.networkError }: TFallbacks): string {
  if (httpStatusOf(error) !== undefined) {
    return error instanceof Error && error.message ? error.message : fallback;
  }
  return serverAnswered(error) ? fallback : network;
}

/**
 * The server's own reason for a refusal, when it answered with one that adds to `headline` (a
 * toast's title): for the toast's description.
 */
export function refusalReason(error: unknown, headline: string): string | undefined {
  if (httpStatusOf(error) === undefined) return undefined;
  const reason = errorMessage(error, { fallback: '' });
  return reason && reason !== headline ? reason : undefined;
}

/**
 * Puts the server's per-field messages on the form's fields. Returns true when at least one field
 * took a message, so the screen can skip repeating it above the form.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
): boolean {
  const fields = errorData(error)?.fields;
  if (!fields) return false;
  let applied = false;
  for (const name of fieldNames) {
    const message = fields[name];
    if (message) {
      setError(name, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}
