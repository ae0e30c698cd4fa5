import type { z } from 'zod';
import { MESSAGES } from '../../shared/messages.ts';
import { AppError } from './errors.ts';

/**
 * Parses untrusted input with a schema; a failure becomes a 400 whose message is the first
 * problem and whose `fields` name each field's first problem.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = result.error.issues[0]?.message ?? MESSAGES.common.badRequest;
  throw new AppError('BAD_REQUEST', first, { fields });
}
