/** The browser storage keys that hold a signed-in session (the spec's client names them). */
export const SESSION_STORAGE_KEYS = ['accessToken', 'refreshToken', 'user', 'token', 'adminToken'] as const;

/** Forgets the stored session in this browser. */
export function clearStoredSession(): void {
  for (const key of SESSION_STORAGE_KEYS) localStorage.removeItem(key);
}
