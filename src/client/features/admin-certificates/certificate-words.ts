import type { TCertificateState, TRegulatorHolderField } from '../../../shared/schemas/certificate.ts';

/*
 * The words and limits the certificate screens show, kept here rather than imported as values
 * from shared/schemas (which would bring zod onto a screen that only shows data, decision 035).
 * The records are keyed by the contract's types, so a state or field added there fails the build here.
 */

/** A state as the server decided it, in words; the screens never decide one. */
export const STATE_LABELS: Record<TCertificateState, string> = {
  valid: 'Valid',
  expiring: 'Expiring',
  expired: 'Expired',
  revoked: 'Revoked',
  superseded: 'Superseded',
};

/** The states in the order the filter offers them. */
export const STATE_ORDER = Object.keys(STATE_LABELS) as TCertificateState[];

export function isCertificateState(value: string | null): value is TCertificateState {
  return value !== null && value in STATE_LABELS;
}

/** The holder's fields a regulator's row needs, as the administrator knows them. */
export const HOLDER_FIELD_LABELS: Record<TRegulatorHolderField, string> = {
  indosNo: 'INDoS number',
  nameAsInPassport: 'name as in passport',
  dateOfBirth: 'date of birth',
  passportNumber: 'passport number',
  cdcNumber: 'CDC number',
};

/** What the course itself may lack for a batch. */
export const COURSE_FIELD_LABELS: Record<'courseCode' | 'approvalNumber', string> = {
  courseCode: 'course code',
  approvalNumber: 'approval number',
};

/** "a, b and c" (or "a, b or c"). */
export function listInWords(words: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The server's bound on "expiring within N days" (EXPIRING_WITHIN_MAX_DAYS). */
export const EXPIRING_WITHIN_MAX_DAYS = 3650;
/** The server's bound on the search (certificateListFilters.search). */
export const CERTIFICATE_SEARCH_MAX_LENGTH = 100;

/** Reminder stages are named by the days before expiry they go out. */
export function reminderStage(daysBefore: number): string {
  return daysBefore === 1 ? '1 day before' : `${daysBefore} days before`;
}
