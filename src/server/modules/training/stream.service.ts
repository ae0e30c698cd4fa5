import type { IncomingHttpHeaders } from 'node:http';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TRendition } from '../../db/schema/training.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TFileToServe } from '../../lib/files/file-urls.ts';
import { isStreamLinkSignature, readStreamPass } from './stream-pass.ts';
import { findStreamAccess } from './training.repository.ts';

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db' | 'jwtSecret'>;

/**
 * Checks a stream request: the link's signature for the viewer and session its pass names (the
 * pass comes in the request's cookie; a link without it, or with another's, is refused), the
 * session still live, and the viewer's access now: an administrator, or a learner with an approved
 * enrolment whose earlier parts are completed. Answers the rendition to send.
 */
export async function authorizeStream(
  deps: Deps,
  input: { videoId: string; height: string; viewer?: string; signature?: string; headers: IncomingHttpHeaders },
): Promise<TFileToServe> {
  const refused = () => new AppError('FORBIDDEN', T.streamRefused);
  const height = Number(input.height);
  if (!/^\d{2,4}$/.test(input.height)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  const pass = readStreamPass(deps, input.headers);
  if (pass === 'expired') throw new AppError('FORBIDDEN', MESSAGES.files.linkExpired);
  if (typeof pass === 'string' || pass.userId !== input.viewer) throw refused();
  if (!isStreamLinkSignature(deps, pass, input.videoId, height, input.signature)) throw refused();

  // One round trip: every Range request of a playing video comes through here.
  const access = await findStreamAccess(deps.db, pass.userId, pass.sessionId, input.videoId);
  if (access && !access.sessionLive) throw refused();
  const rendition: TRendition | undefined = access?.renditions.find((candidate) => candidate.height === height);
  if (!access || access.status !== 'ready' || !rendition) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  if (access.role !== 'admin') {
    if (access.enrolmentStatus !== 'approved') throw new AppError('FORBIDDEN', T.notEnrolled);
    if (access.openEarlier > 0) throw new AppError('FORBIDDEN', T.locked);
  }
  return { area: 'trainingVideo', name: rendition.file, mime: 'video/mp4', downloadName: `training-${access.serial}-${height}p.mp4`, image: false };
}
