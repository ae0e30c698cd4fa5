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
import { streamPassCookie } from './stream-pass.ts';
import type { TrpcContext } from '../../trpc/context.ts';

/** Answers that carry stream links also renew the caller's stream pass (stream-pass.ts). */
function renewStreamPass<T>(ctx: TrpcContext & { user: NonNullable<TrpcContext['user']> }, answer: T): T {
  const cookie = streamPassCookie(ctx.deps, ctx.user);
  if (cookie) ctx.setCookie(cookie);
  return answer;
}

/** Training videos. Uploads are multipart: POST /api/trainingVideo (training.rest.ts). */
export const trainingRouter = createRouter({
  /** All Uploaded Training Videos: every course's parts with their status and transcode progress. */
  sets: adminProcedure.output(z.array(ZAdminTrainingSet)).query(async ({ ctx }) => renewStreamPass(ctx, await listTrainingSets(ctx.deps, ctx.user))),

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
    .query(async ({ ctx, input }) => renewStreamPass(ctx, await getPlayer(ctx.deps, ctx.user, input.courseId))),

  /** What the player played: a start (from = to) when playback starts, then a span every HEARTBEAT_SECONDS. */
  heartbeat: authedProcedure
    .input(ZHeartbeat)
    .output(ZHeartbeatResult)
    .mutation(async ({ ctx, input }) => renewStreamPass(ctx, await recordHeartbeat(ctx.deps, ctx.user, input))),

  submit: authedProcedure
    .input(ZTrainingSubmitRequest)
    .output(ZTrainingSubmitResult)
    .mutation(({ ctx, input }) => submitTraining(ctx.deps, ctx.user, input.setId)),
});
