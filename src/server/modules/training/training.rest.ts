import type { FastifyPluginAsync } from 'fastify';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import type { TAdminTrainingSet, TTrainingPlayer } from '../../../shared/schemas/training.ts';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { ZTrainingUploadFields } from '../../../shared/schemas/training.ts';
import { withUpload } from '../../lib/files/multipart.ts';
import { sendStoredFile } from '../../lib/files/send-file.ts';
import { requireAdmin, requireUser } from '../../lib/rest-auth.ts';
import { parseInput } from '../../lib/validation.ts';
import {
  authorizeStream,
  getPlayer,
  listTrainingSets,
  submitTraining,
  trainingUploadRules,
  uploadVideos,
  VIDEO_URL_TTL_SECONDS,
  VIDEOS_PER_UPLOAD,
} from './training.service.ts';

const ZCourseParams = requestObject({ courseId: ZId });
const ZSetParams = requestObject({ id: ZId });

/** The spec's training video set (section 3): `_id`, `courseId`, `title`, `trainingVideo` [{_id, serial, url}]. */
function toRestSet(set: { id: string; title: string; courseId: string; videos: Array<{ id: string; serial: number; url: string | null; status?: string }> }) {
  return {
    _id: set.id,
    courseId: set.courseId,
    title: set.title,
    trainingVideo: set.videos.map((video) => ({ _id: video.id, serial: video.serial, url: video.url, ...(video.status ? { status: video.status } : {}) })),
  };
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

/** The spec's training calls (section 7), and the video streams the players' links point to. */
export const trainingRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/trainingVideo', doc({ summary: 'Upload a course’s training videos (added as its next parts; prepared in the background).', access: 'admin', tag: 'Training', created: true, form: { fields: ZTrainingUploadFields, files: { trainingVideo: 'A video (MP4, MOV, WebM…); several allowed.' } }, answers: { 404: 'No such course.', 413: 'A video is too large.', 415: 'A file is not a video.' } }), async (request, reply) => {
    const admin = requireAdmin(request);
    const result = await withUpload(request, deps.files, trainingUploadRules(deps.env), (form) => uploadVideos(deps, admin, form), {
      maxFiles: VIDEOS_PER_UPLOAD,
    });
    return reply.status(201).send({ message: result.message, data: fromAdminSet(result.set) });
  });

  api.get('/trainingVideo', doc({ summary: 'Every course’s training videos with their status.', access: 'admin', tag: 'Training' }), async (request) => {
    const admin = requireAdmin(request);
    return { data: (await listTrainingSets(deps, admin)).map(fromAdminSet) };
  });

  api.get('/trainingVideo/:courseId', doc({ summary: 'A course’s training for its enrolled learner, with signed stream links.', access: 'signed-in', tag: 'Training', params: ZCourseParams, answers: { 403: 'Not enrolled (approved) in the course.', 404: 'No training for the course.' } }), async (request) => {
    const viewer = requireUser(request);
    const { courseId } = parseInput(ZCourseParams, request.params);
    return { data: fromPlayer(await getPlayer(deps, viewer, courseId)) };
  });

  api.post('/videoWatchedUser/:id', doc({ summary: 'Submit the training once every part is watched.', access: 'signed-in', tag: 'Training', params: ZSetParams, answers: { 403: 'Not enrolled (approved) in the course.', 404: 'No such training.' } }), async (request) => {
    const learner = requireUser(request);
    const { id } = parseInput(ZSetParams, request.params);
    return submitTraining(deps, learner, id);
  });

  // A <video> element cannot send a bearer header: the link is signed for one viewer and checked
  // on every request (Range requests included), so a locked part or a lost enrolment stops it.
  api.get<{ Params: { videoId: string; height: string }; Querystring: { viewer?: string; expires?: string; signature?: string } }>(
    '/trainingVideo/stream/:videoId/:height',
    doc({ summary: 'A video rendition by its signed link (Range requests).', access: 'signed link', tag: 'Training' }),
    async (request, reply) => {
      const file = await authorizeStream(deps, { ...request.params, ...request.query });
      return sendStoredFile(deps.files, request, reply, file, `private, max-age=${VIDEO_URL_TTL_SECONDS}`);
    },
  );
};
