import { MESSAGES } from '../../../shared/messages.ts';
import type { TRendition } from '../../db/schema/training.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TFileToServe } from '../../lib/files/file-urls.ts';
import type { TGrantScope } from '../../lib/access-grants.ts';
import { isStreamLinkSignature, readStreamPass } from './stream-pass.ts';
import { findStreamAccess } from './training.repository.ts';

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db' | 'jwtSecret' | 'accessGrants'>;

/** What a stream check allowed, kept for a moment (decision 055): the part's renditions and number. */
type TStreamGrant = { renditions: TRendition[]; serial: number };

/**
 * Checks a stream request: the link's signature for the viewer and session its pass names (the
 * pass comes in the request's cookie; a link without it, or with another's, is refused), the
 * session still live, and the viewer's access now: an administrator, or a learner with an approved
 * enrolment whose earlier parts are completed. Answers the rendition to send.
 *
 * The signatures are checked on every request; the access, once allowed, is kept a moment
 * (accessGrants), so the Range requests of a playing part ask the database once. Every change that
 * can take the access away revokes it at once (revokeStreamAccess).
 */
export async function authorizeStream(
  deps: Deps,
  input: { videoId: string; height: string; viewer?: string; signature?: string; cookies: Partial<Record<string, string>> },
): Promise<TFileToServe> {
  const refused = () => new AppError('FORBIDDEN', T.streamRefused);
  const height = Number(input.height);
  if (!/^\d{2,4}$/.test(input.height)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  const pass = readStreamPass(deps, input.cookies);
  if (pass === 'expired') throw new AppError('FORBIDDEN', MESSAGES.files.linkExpired);
  if (typeof pass === 'string' || pass.userId !== input.viewer) throw refused();
  if (!isStreamLinkSignature(deps, pass, input.videoId, height, input.signature)) throw refused();

  const grant = await deps.accessGrants.remember<TStreamGrant>(`stream/${pass.userId}/${pass.sessionId}/${input.videoId}`, async () => {
    // One round trip, for the first request of a part in a while.
    const access = await findStreamAccess(deps.db, pass.userId, pass.sessionId, input.videoId);
    if (access && !access.sessionLive) throw refused();
    if (!access || access.status !== 'ready') throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
    if (access.role !== 'admin') {
      if (access.enrolmentStatus !== 'approved') throw new AppError('FORBIDDEN', T.notEnrolled);
      if (access.openEarlier > 0) throw new AppError('FORBIDDEN', T.locked);
    }
    return {
      grant: { renditions: access.renditions, serial: access.serial },
      tags: { userId: pass.userId, sessionId: pass.sessionId, setId: access.setId },
      endsAt: access.sessionEndsAt ?? undefined,
    };
  });
  const rendition = grant.renditions.find((candidate) => candidate.height === height);
  if (!rendition) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  return { area: 'trainingVideo', name: rendition.file, mime: 'video/mp4', downloadName: `training-${grant.serial}-${height}p.mp4`, image: false };
}

/**
 * Ends at once the stream access kept for the scope, in every process: called after a change that
 * can take access away has committed (a session ended, an enrolment no longer approved, watching
 * reset, parts deleted or reordered). By learner, session or course's training; `all` only for
 * a change that touches everyone.
 */
export function revokeStreamAccess(deps: Pick<AppDeps, 'accessGrants'>, scope: TGrantScope): Promise<void> {
  return deps.accessGrants.revoke(scope);
}
