import { STAFF_ROLE_LABELS, type TStaffRole } from '../../../shared/staff-roles.ts';

/** A role as staff read it ('Registrar'); a learner's or an unknown role as written. */
export function roleLabel(role: string | null): string {
  if (!role) return '';
  return (STAFF_ROLE_LABELS as Record<string, { label: string } | undefined>)[role as TStaffRole]?.label ?? role.charAt(0).toUpperCase() + role.slice(1);
}

const MAX_VALUE = 80;

/** One value as a short line of text. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** A field's value; a staff role in the words the Staff screen uses ('Registrar'). */
function fieldValueText(key: string, value: unknown): string {
  return key === 'staffRole' && typeof value === 'string' ? roleLabel(value) : valueText(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field name as words: 'certificateValidityMonths' → 'certificate validity months'. */
export function fieldLabel(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

export type TChange = { field: string; before: string; after: string };

/**
 * What an entry changed, field by field: the fields whose values differ (a created thing lists its
 * values from "—", a removed one to "—"); unchanged fields are left out.
 */
export function changesOf(before: unknown, after: unknown): TChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    return before === null && after === null ? [] : [{ field: '', before: valueText(before), after: valueText(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((key) => JSON.stringify(b[key] ?? null) !== JSON.stringify(a[key] ?? null))
    .map((key) => ({ field: fieldLabel(key), before: key in b ? fieldValueText(key, b[key]) : '—', after: key in a ? fieldValueText(key, a[key]) : '—' }));
}
