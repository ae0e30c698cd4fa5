/** Business constants and limits from the specification, section 9. */
export const MOBILE_DRAWER_WIDTH_PX = 200;
export const ADMIN_SIDEBAR_WIDTH_PX = 240;

export const MOBILE_NUMBER_LENGTH = 10;
export const OTP_LENGTH = 6;
/** The spec's login form still accepts the 5-character passwords chosen before the rule below. */
export const LOGIN_PASSWORD_MIN_LENGTH = 5;
/** New passwords: at least 8 characters (a deliberate step above the spec's 5, decision 012). */
export const PASSWORD_MIN_LENGTH = 8;
export const PHONE_PATTERN = /^\+?\d{7,15}$/;

/** Four options per question (spec section 9). */
export const OPTIONS_PER_QUESTION = 4;
export const TOKEN_CHECK_INTERVAL_MS = 60_000;
/** Procedures one tRPC request may carry; a larger batch is refused before any of them runs. */
export const TRPC_MAX_BATCH_SIZE = 10;

/**
 * Where the browser client renews (`/refresh`) and ends (`/logout`) its session. Its refresh
 * token lives in an HttpOnly cookie sent only to this path (decision 015).
 */
export const BROWSER_SESSION_PATH = '/api/session';
/**
 * A header every call to BROWSER_SESSION_PATH carries. A page on another site cannot send it
 * without the server's consent (a CORS preflight, which this server never grants).
 */
export const SESSION_CALL_HEADER = { name: 'X-Requested-With', value: 'portal' } as const;
/** How long a session lasts from its login, however often it is renewed (its refresh token's life). */
export const SESSION_LIFETIME_DAYS = 30;

export const DELAY_AFTER_REGISTRATION_MS = 1000;
export const DELAY_AFTER_SUCCESS_MS = 2000;
export const DELAY_AFTER_PROFILE_SUBMIT_MS = 1500;

export const TOAST_MS = 3000;
export const ADMIN_TOAST_MS = 4000;
/** Publish and unpublish successes show for 3 s (spec section 9). */
export const PUBLISH_TOAST_MS = 3000;
export const PROFILE_LIST_ERROR_TOAST_MS = 6000;

export const PROFILE_IMAGE_PX = 160;
export const VIDEO_COMPLETION_SHARE = 0.95;

export const FEATURED_COURSES = [
  'Hydrogen Sulphide',
  'Helicopter Landing Assistance',
  'Food Handling',
  'TEST COURSE',
  'Hazardous Material Transportation',
  'HAZMAT',
] as const;

export const ROLES = ['learner', 'admin'] as const;
export type TRole = (typeof ROLES)[number];

/** How a session's sign-in met the second factor (decision 067): given, or not asked for. */
export const SECOND_FACTOR_STATES = ['passed', 'waived'] as const;
export type TSecondFactorState = (typeof SECOND_FACTOR_STATES)[number];

export const ENROLMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TEnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

export const ID_TYPES = [
  { code: 'aadhaar', label: 'Aadhaar' },
  { code: 'pan', label: 'PAN' },
  { code: 'voter_id', label: 'Voter ID' },
  { code: 'passport', label: 'Passport' },
  { code: 'driving_license', label: 'Driving License' },
  { code: 'other', label: 'Other' },
] as const;
export type TIdType = (typeof ID_TYPES)[number]['code'];

export const REGISTRATION_PREFIXES = ['Mr', 'Mrs', 'Dr', 'Prof'] as const;

/** The element of the /courses page that carries the catalogue, so the cards need no request. */
export const CATALOGUE_DATA_ID = 'catalogue-data';

/**
 * The training player reports what was watched this often (seconds). Here rather than beside the
 * heartbeat's schema, so the player reads it without loading zod.
 */
export const HEARTBEAT_SECONDS = 10;

/*
 * Limits of what screens that only show data send (a list's search, a revocation's reason). They
 * live here, not beside the schemas that check them, so those screens load no zod (decision 035).
 */
export const PROFILE_SEARCH_MAX_LENGTH = 100;
export const RESULTS_SEARCH_MAX_LENGTH = 100;
export const ENROLMENT_SEARCH_MAX_LENGTH = 100;
export const CERTIFICATE_REVOKE_REASON_MAX_LENGTH = 500;
