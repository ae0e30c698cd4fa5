import { MESSAGES } from '../../shared/messages.ts';
import { AppError } from './errors.ts';

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

/** Deeper than any form or query the portal reads; nothing is looked for below it. */
const MAX_SCAN_DEPTH = 32;

/** The path of the first string (or key) holding a NUL, or undefined when there is none. */
function pathToNul(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (path.length >= MAX_SCAN_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = pathToNul(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL's text cannot hold U+0000, so a NUL anywhere in a request's strings (a search box
 * included) is refused with a 400 at the edge, before any rule or query sees it; `fields` names
 * where it was, so a form shows the message on that field. Both edges (the tRPC procedures and
 * the REST scope, multipart fields included) call this one rule.
 */
export function refuseNulCharacters(input: unknown): void {
  const path = pathToNul(input, []);
  if (!path) return;
  const message = MESSAGES.validation.nulCharacter;
  throw new AppError('BAD_REQUEST', message, { fields: { [path.join('.') || '_']: message } });
}
