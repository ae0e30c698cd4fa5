import { z } from 'zod';
import { ZMessageResult } from '../../../shared/schemas/common.ts';
import {
  ZAdminTrainingSet,
  ZHeartbeat,
  ZHeartbeatResult,
  ZReorderRequest,
  ZTrainingPlayer,
  ZTrainingPlayerRequest,
  ZTrainingSubmitRequest,
  ZTrainingSubmitResult,
  ZVideoRequest,
} from '../../../shared/schemas/training.ts';
import { adminProcedure, authedProcedure, createRouter } from '../../trpc/init.ts';
import {
  deleteTrainingVideo,
  getPlayer,
  listTrainingSets,
  recordHeartbeat,
  reorderVideos,
  retryVideo,
  submitTraining,
} from './training.service.ts';

/** Training videos. Uploads are multipart: POST /api/trainingVideo (training.rest.ts). */
export const trainingRouter = createRouter({
  /** All Uploaded Training Videos: every course's parts with their status and transcode progress. */
  sets: adminProcedure.output(z.array(ZAdminTrainingSet)).query(({ ctx }) => listTrainingSets(ctx.deps, ctx.user)),

  reorder: adminProcedure
    .input(ZReorderRequest)
    .output(ZAdminTrainingSet.extend({ message: z.string() }))
    .mutation(({ ctx, input }) => reorderVideos(ctx.deps, ctx.user, input)),

  deleteVideo: adminProcedure
    .input(ZVideoRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => deleteTrainingVideo(ctx.deps, ctx.user, input.videoId)),

  retry: adminProcedure
    .input(ZVideoRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => retryVideo(ctx.deps, ctx.user, input.videoId)),

  /** /training/{courseId}: the parts, their locks and the learner's progress, from the server's record. */
  player: authedProcedure
    .input(ZTrainingPlayerRequest)
    .output(ZTrainingPlayer)
    .query(({ ctx, input }) => getPlayer(ctx.deps, ctx.user, input.courseId)),

  heartbeat: authedProcedure
    .input(ZHeartbeat)
    .output(ZHeartbeatResult)
    .mutation(({ ctx, input }) => recordHeartbeat(ctx.deps, ctx.user, input)),

  submit: authedProcedure
    .input(ZTrainingSubmitRequest)
    .output(ZTrainingSubmitResult)
    .mutation(({ ctx, input }) => submitTraining(ctx.deps, ctx.user, input.setId)),
});
