/*
 * What the profile screens show besides the profile itself: its fields' names and when a document
 * counts as expiring. Kept apart from the profile's schemas (schemas/profile.ts) so that screens
 * which only show a profile do not load zod and build its schemas (decision 035).
 */

/**
 * The profile's text fields (spec section 3), with the labels forms and messages use. The REST
 * multipart bodies spell some of them otherwise (src/shared/spec-fields.ts).
 */
export const PROFILE_FIELD_LABELS = {
  name: 'Name',
  gradeNumber: 'Grade Number',
  phone: 'Phone Number',
  dateOfBirth: 'Date of Birth',
  passportNumber: 'Passport Number',
  passportExpiryDate: 'Passport Expiry Date',
  indosNo: 'INDOS Number',
  cdcNumber: 'CDC Number',
  cdcExpiryDate: 'CDC Expiry Date',
  idType: 'ID Type',
  streetAddress: 'Street Address',
  city: 'City',
  state: 'State',
  country: 'Country',
  zipCode: 'Zip Code',
} as const;
export type TProfileTextField = keyof typeof PROFILE_FIELD_LABELS;

/** Passport or CDC expiring within this many months (or expired) is flagged. */
export const EXPIRY_WARNING_MONTHS = 6;
