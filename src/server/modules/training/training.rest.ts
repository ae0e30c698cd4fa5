import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import { toSpecFields, TRAINING_SET_SPEC_NAMES, withSpecId } from '../../../shared/spec-fields.ts';
import { ZHeartbeat, type TAdminTrainingSet, type TTrainingPlayer } from '../../../shared/schemas/training.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, multipartForm, refusals } from '../../lib/rest-schema.ts';
import { ZTrainingUploadFields } from '../../../shared/schemas/training.ts';
import { withUpload } from '../../lib/files/multipart.ts';
import { sendStoredFile } from '../../lib/files/send-file.ts';
import { staffActor, type TSessionUser } from '../../lib/session-user.ts';
import {
  getPlayer,
  listTrainingSets,
  submitTraining,
  trainingUploadRules,
  uploadVideos,
  VIDEO_FIELD,
  VIDEOS_PER_UPLOAD,
} from './training.service.ts';
import { STREAM_PASS_TTL_SECONDS, streamPassCookie } from './stream-pass.ts';
import { authorizeOfflineStream, syncOffline } from './offline.service.ts';
import { authorizeStream } from './stream.service.ts';
import { recordHeartbeat } from './heartbeat.service.ts';
import { ZOfflineSyncRequest } from '../../../shared/schemas/offline.ts';

const ZCourseParams = requestObject({ courseId: ZId });
const ZSetParams = requestObject({ id: ZId });

/** The spec's training video set (section 3): `_id`, `courseId`, `title`, `trainingVideo` [{_id, serial, url}]. */
function toRestSet(set: { id: string; title: string; courseId: string; videos: Array<{ id: string; serial: number; url: string | null; status?: string }> }) {
  return toSpecFields(TRAINING_SET_SPEC_NAMES, {
    id: set.id,
    courseId: set.courseId,
    title: set.title,
    videos: set.videos.map((video) => withSpecId({ id: video.id, serial: video.serial, url: video.url, ...(video.status ? { status: video.status } : {}) })),
  });
}

/** The largest rendition is the one a spec client plays. */
const bestUrl = (sources: Array<{ url: string }>) => sources[0]?.url ?? null;

const fromAdminSet = (set: TAdminTrainingSet) =>
  toRestSet({
    id: set.id,
    title: set.title,
    courseId: set.course.id,
    videos: set.videos.map((video) => ({ id: video.id, serial: video.serial, url: bestUrl(video.sources), status: video.status })),
  });

const fromPlayer = (player: TTrainingPlayer) =>
  toRestSet({
    id: player.setId,
    title: player.title,
    courseId: player.course.id,
    videos: player.videos.map((video) => ({ id: video.id, serial: video.serial, url: bestUrl(video.sources) })),
  });

/** Answers that carry stream links also renew the caller's stream pass (a cookie the links need). */
function renewStreamPass(deps: AppDeps, reply: FastifyReply, viewer: TSessionUser): void {
  const cookie = streamPassCookie(deps, viewer);
  if (cookie) void reply.setCookie(cookie.name, cookie.value, cookie.options);
}

/** The spec's training calls (section 7), and the video streams the players' links point to. */
export const trainingRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/trainingVideo', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Upload a course’s training videos (added as its next parts; prepared in the background).', tags: ['Training'], consumes: ['multipart/form-data'], body: multipartForm(ZTrainingUploadFields, { [VIDEO_FIELD]: 'A video (MP4, MOV, WebM…); several allowed.' }), response: { 201: DONE, ...refusals({ 404: 'No such course.', 413: 'A video is too large.', 415: 'A file is not a video.' }) } } }, async (request, reply) => {
    const result = await withUpload(request, deps.files, trainingUploadRules(deps.env), (form) => uploadVideos(deps, request.caller, staffActor(request.caller, request.ip), form), {
      maxFiles: VIDEOS_PER_UPLOAD,
    });
    return reply.status(201).send({ message: result.message, data: fromAdminSet(result.set) });
  });

  api.get('/trainingVideo', { config: { access: 'admin', permission: 'courses.read' }, schema: { summary: 'Every course’s training videos with their status, and the stream pass their links need (a cookie).', tags: ['Training'] } }, async (request, reply) => {
    const admin = request.caller;
    const data = (await listTrainingSets(deps, admin)).map(fromAdminSet);
    renewStreamPass(deps, reply, admin);
    return { data };
  });

  api.get('/trainingVideo/:courseId', { config: { access: 'signed-in' }, schema: { summary: `A course’s training for its enrolled learner, with stream links. The links play only with the stream pass this answer sets (an HttpOnly cookie for the stream path, valid ${STREAM_PASS_TTL_SECONDS / 60} minutes, renewed by each watch report), for the session of the bearer token.`, tags: ['Training'], params: ZCourseParams, response: { ...refusals({ 403: 'Not enrolled (approved) in the course.', 404: 'No training for the course.' }) } } }, async (request, reply) => {
    const viewer = request.caller;
    const { courseId } = request.params;
    const data = fromPlayer(await getPlayer(deps, viewer, courseId));
    renewStreamPass(deps, reply, viewer);
    return { data };
  });

  // Another player reports watching under the same rules as the portal's own (decision 041).
  api.post('/trainingVideo/watched', { config: { access: 'signed-in' }, schema: { summary: 'Report watching a part: send from = to = the position when playback starts, then every 10 seconds while playing (and on pause, seek and end) the span played since the last report. Credit never runs ahead of the server’s clock; a part completes at 95 % of it watched and timed. Renews the stream pass.', tags: ['Training'], body: ZHeartbeat, response: { ...refusals({ 403: 'Not enrolled, or the part is still locked.', 404: 'No such part.', 409: 'The part is still being prepared.' }) } } }, async (request, reply) => {
    const viewer = request.caller;
    const result = await recordHeartbeat(deps, viewer, request.body);
    renewStreamPass(deps, reply, viewer);
    return result;
  });

  api.post('/videoWatchedUser/:id', { config: { access: 'signed-in' }, schema: { summary: 'Submit the training once every part is watched.', tags: ['Training'], params: ZSetParams, response: { ...refusals({ 403: 'Not enrolled (approved) in the course.', 404: 'No such training.' }) } } }, async (request) => {
    const { id } = request.params;
    return submitTraining(deps, request.caller, id);
  });

  // A <video> element cannot send a bearer header: the link is signed for one viewer's session and
  // plays only with that session's stream pass (a cookie), checked on every request (Range
  // requests included), so a copied link, a logout, a locked part or a lost enrolment stops it.
  api.get<{ Params: { videoId: string; height: string }; Querystring: { viewer?: string; signature?: string } }>(
    '/trainingVideo/stream/:videoId/:height',
    {
      config: { access: 'signed link' },
      schema: {
        summary: 'A video rendition by its signed link, with the viewer’s stream pass cookie (Range requests).',
        tags: ['Training'],
        response: { ...refusals({ 403: 'No stream pass, another viewer’s, or the session has ended.' }) },
      },
    },
    async (request, reply) => {
      const file = await authorizeStream(deps, { ...request.params, ...request.query, cookies: request.cookies });
      return sendStoredFile(deps.files, request, reply, file, `private, max-age=${STREAM_PASS_TTL_SECONDS}`);
    },
  );

  // A part of a course downloaded for offline study (decision 050): the device fetches it once, in
  // Range requests, and keeps it in the site's storage; no second copy in the HTTP cache.
  api.get<{ Params: { downloadId: string; videoId: string }; Querystring: { signature?: string } }>(
    '/trainingVideo/stream/offline/:downloadId/:videoId',
    {
      config: { access: 'signed link' },
      schema: {
        summary: 'A part of a course downloaded for offline study, by the link its package gave, with the downloader’s stream pass cookie (Range requests). Served while the enrolment is approved, whatever the part’s lock; the download’s rendition, or the nearest the part has.',
        tags: ['Training'],
        response: { ...refusals({ 403: 'No stream pass, another learner’s, the session has ended, the enrolment has ended, or the video is not a part of the course.' }) },
      },
    },
    async (request, reply) => {
      const file = await authorizeOfflineStream(deps, { ...request.params, signature: request.query.signature, cookies: request.cookies });
      return sendStoredFile(deps.files, request, reply, file, 'private, no-store');
    },
  );

  // The device's background sync replays this without a bearer token: the records' signatures
  // (HMAC-SHA256 with the download's record key) are what authenticate them.
  api.post('/trainingVideo/offline/sync', { config: { access: 'signed link' }, schema: { summary: 'Send the watching a device recorded offline: the download’s records, in order, each signed with its record key (HMAC-SHA256 keyed with the key’s text, base64url without padding) over `offline-watch-v1|downloadId|seq|id|videoId|from|to|startedAt|endedAt|playedMs|prev` (numbers as JavaScript writes them, prev empty for the first record). Records come in order: seq 1, 2, … and prev the signature of the record before; startedAt and endedAt are the device’s clock in milliseconds, playedMs what its monotonic clock ran. Each record is taken in once: the answer says per record whether it was credited (and how many seconds), refused (and why) or a duplicate of one taken in before.', tags: ['Training'], body: ZOfflineSyncRequest, response: { ...refusals({ 403: 'The enrolment in the course has ended: nothing was taken in.', 404: 'No such download.' }) } } }, async (request) =>
    syncOffline(deps, request.body),
  );
};
