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
  const { message, fields } = describeIssues(result.error.issues);
  throw new AppError('BAD_REQUEST', message, { fields });
}

/** The first problem as the message, and each field's first problem, from a schema's issues. */
export function describeIssues(issues: ReadonlyArray<{ message: string; path: ReadonlyArray<PropertyKey> }>): {
  message: string;
  fields: Record<string, string>;
} {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return { message: issues[0]?.message ?? MESSAGES.common.badRequest, fields };
}

/** The issues of a schema failure (zod or any standard schema), or undefined for anything else. */
export function schemaIssues(error: unknown): ReadonlyArray<{ message: string; path: ReadonlyArray<PropertyKey> }> | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? issues : undefined;
}
