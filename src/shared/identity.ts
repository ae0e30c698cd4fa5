/*
 * The identity check of a learner's profile: its states, the fields it covers and their labels.
 * Kept apart from the schemas so that screens which only show a profile load no zod (decision 035).
 */

/**
 * unverified: never sent for a check (or incomplete); awaiting_check: sent, or changed since its
 * last check; verified: a member of staff checked it against the documents; returned: a member of
 * staff sent it back with a reason the learner sees.
 */
export const IDENTITY_STATES = ['unverified', 'awaiting_check', 'verified', 'returned'] as const;
export type TIdentityState = (typeof IDENTITY_STATES)[number];

export const IDENTITY_STATE_LABELS: Record<TIdentityState, string> = {
  unverified: 'Not verified',
  awaiting_check: 'Awaiting check',
  verified: 'Verified',
  returned: 'Returned',
};

/** The profile's text fields that are the holder's identity: a change to any returns the profile to "awaiting check". */
export const IDENTITY_TEXT_FIELDS = ['name', 'dateOfBirth', 'indosNo', 'passportNumber', 'passportExpiryDate', 'cdcNumber'] as const;

/** The INDoS number: two digits, two letters, four digits (05ZL1234). */
export const INDOS_PATTERN = /^\d{2}[A-Z]{2}\d{4}$/;
export const INDOS_EXAMPLE = '05ZL1234';

/** What the regulator's export writes in place of a holder's value that no member of staff verified. */
export const NOT_VERIFIED_MARKER = 'NOT VERIFIED';

export const IDENTITY_RETURN_REASON_MAX_LENGTH = 500;
