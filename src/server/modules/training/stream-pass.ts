import type { AppDeps } from '../../deps.ts';
import { strictCookie, type TCookie } from '../../lib/cookies.ts';
import { fileUrlKey } from '../../lib/files/file-urls.ts';
import { isSignatureOf, signSubject, signText, verifySubject } from '../../lib/files/signed-url.ts';
import type { TSessionUser } from '../../lib/session-user.ts';

/**
 * A stream link alone plays for nobody: the player's requests must also carry the viewer's stream
 * pass, an HttpOnly, SameSite=Strict cookie scoped to the streams' path, bound to the viewer and to
 * the session that fetched the link. The pass lives minutes; each report from the player and each
 * fetch of the player renews it, and the session's end (logout, password reset) ends it at once.
 * Decision 041.
 */
export const STREAM_PATH = '/api/trainingVideo/stream';
export const STREAM_PASS_COOKIE = 'stream_pass';
/** How long a pass lasts without renewal: past a long pause, the player fetches its part again. */
export const STREAM_PASS_TTL_SECONDS = 10 * 60;

type Deps = Pick<AppDeps, 'env' | 'jwtSecret'>;

const passSubject = (userId: string, sessionId: string) => `stream-pass:${userId}/${sessionId}`;
const linkText = (viewer: TStreamViewer, videoId: string, height: number) => `stream:${viewer.userId}/${viewer.sessionId}/${videoId}/${height}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type TStreamViewer = { userId: string; sessionId: string };

/** The cookie of a fresh pass for the caller's session, or null for a caller without one. */
export function streamPassCookie(deps: Deps, viewer: TSessionUser, now = new Date()): TCookie | null {
  if (!viewer.sessionId) return null;
  const expires = Math.floor(now.getTime() / 1000) + STREAM_PASS_TTL_SECONDS;
  // '_' parts: UUIDs and digits carry none, so the signature (base64url, which may) is the rest.
  const value = `${viewer.id}_${viewer.sessionId}_${expires}_${signSubject(fileUrlKey(deps.jwtSecret), passSubject(viewer.id, viewer.sessionId), expires)}`;
  return strictCookie(STREAM_PASS_COOKIE, value, STREAM_PATH, STREAM_PASS_TTL_SECONDS, deps.env);
}

/** The viewer and session a request's pass names, when it is genuine and current; otherwise why not. */
export function readStreamPass(
  deps: Pick<AppDeps, 'jwtSecret'>,
  cookies: Partial<Record<string, string>>,
  now = new Date(),
): TStreamViewer | 'missing' | 'expired' | 'invalid' {
  const raw = cookies[STREAM_PASS_COOKIE];
  if (!raw) return 'missing';
  const [userId, sessionId, expires, ...signature] = raw.split('_');
  const given = signature.join('_');
  if (!userId || !sessionId || !UUID.test(userId) || !UUID.test(sessionId)) return 'invalid';
  const verdict = verifySubject(fileUrlKey(deps.jwtSecret), passSubject(userId, sessionId), expires, given, now);
  return verdict === 'valid' ? { userId, sessionId } : verdict;
}

/** The signature of a stream link: one rendition of one part, for one viewer in one session. */
export function streamLinkSignature(deps: Pick<AppDeps, 'jwtSecret'>, viewer: TStreamViewer, videoId: string, height: number): string {
  return signText(fileUrlKey(deps.jwtSecret), linkText(viewer, videoId, height));
}

export function isStreamLinkSignature(deps: Pick<AppDeps, 'jwtSecret'>, viewer: TStreamViewer, videoId: string, height: number, given: string | undefined): boolean {
  return isSignatureOf(fileUrlKey(deps.jwtSecret), linkText(viewer, videoId, height), given);
}

/** The media of one part of an offline download (decision 050): bound to its viewer, session, download, part and rendition. */
const offlineLinkText = (viewer: TStreamViewer, downloadId: string, videoId: string, height: number) =>
  `offline-stream:${viewer.userId}/${viewer.sessionId}/${downloadId}/${videoId}/${height}`;

export function offlineLinkSignature(deps: Pick<AppDeps, 'jwtSecret'>, viewer: TStreamViewer, downloadId: string, videoId: string, height: number): string {
  return signText(fileUrlKey(deps.jwtSecret), offlineLinkText(viewer, downloadId, videoId, height));
}

export function isOfflineLinkSignature(
  deps: Pick<AppDeps, 'jwtSecret'>,
  viewer: TStreamViewer,
  downloadId: string,
  videoId: string,
  height: number,
  given: string | undefined,
): boolean {
  return isSignatureOf(fileUrlKey(deps.jwtSecret), offlineLinkText(viewer, downloadId, videoId, height), given);
}
