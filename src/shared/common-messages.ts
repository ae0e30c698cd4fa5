/**
 * The words every screen may need, in a module of their own: the home page's first chunk imports
 * these, and a bundler puts a whole module in one chunk, so the rest of the catalogue must not
 * live in the same file (it would ride along to the first paint).
 */
export const COMMON_MESSAGES = {
  notFound: 'Not found.',
  routeNotFound: 'This address does not exist.',
  badRequest: 'The request could not be read.',
  malformedJson: 'The request body is not valid JSON.',
  payloadTooLarge: 'The request is too large.',
  unsupportedMediaType: 'This type of content is not accepted.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  unauthorized: 'Please log in to continue.',
  forbidden: 'You do not have access to this.',
  /** A member of staff whose role does not include this (decision 067). */
  notForYourRole: 'Your staff role does not include this. Ask the academy’s owner if you need it.',
  /** A staff session that has not given its second factor. */
  secondFactorNeeded: 'Sign in again with your second factor to continue.',
  internal: 'Something went wrong. Please try again.',
  shuttingDown: 'The server is restarting. Please try again in a moment.',
  unavailable: 'The service is briefly unavailable. Please try again in a moment.',
  networkError: 'Network error. Please try again.',
} as const;
