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
import {
  ZOfflinePackage,
  ZOfflinePackageRequest,
  ZOfflineResumeRequest,
  ZOfflineStatus,
  ZOfflineStatusRequest,
  ZOfflineSyncRequest,
  ZOfflineSyncResult,
} from '../../../shared/schemas/offline.ts';
import { authedProcedure, createRouter, staffProcedure } from '../../trpc/init.ts';
import {
  deleteTrainingVideo,
  getPlayer,
  listTrainingSets,
  reorderVideos,
  retryVideo,
  submitTraining,
} from './training.service.ts';
import { recordHeartbeat } from './heartbeat.service.ts';
import { createOfflinePackage, offlineStatus, resumeOfflinePackage, syncOffline } from './offline.service.ts';
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
  sets: staffProcedure('courses.read').output(z.array(ZAdminTrainingSet)).query(async ({ ctx }) => renewStreamPass(ctx, await listTrainingSets(ctx.deps, ctx.user))),

  reorder: staffProcedure('courses.edit')
    .input(ZReorderRequest)
    .output(ZAdminTrainingSet.extend({ message: z.string() }))
    .mutation(({ ctx, input }) => reorderVideos(ctx.deps, ctx.user, ctx.actor, input)),

  deleteVideo: staffProcedure('courses.edit')
    .input(ZVideoRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => deleteTrainingVideo(ctx.deps, ctx.actor, input.videoId)),

  retry: staffProcedure('courses.edit')
    .input(ZVideoRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => retryVideo(ctx.deps, ctx.actor, input.videoId)),

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

  /** A course downloaded to the learner's device (decision 050): a new download with its record key, and every ready part's media link. */
  offlinePackage: authedProcedure
    .input(ZOfflinePackageRequest)
    .output(ZOfflinePackage)
    .mutation(async ({ ctx, input }) => renewStreamPass(ctx, await createOfflinePackage(ctx.deps, ctx.user, input))),

  /** The same download with fresh media links for this session (a download resumed on its device). */
  offlineResume: authedProcedure
    .input(ZOfflineResumeRequest)
    .output(ZOfflinePackage)
    .query(async ({ ctx, input }) => renewStreamPass(ctx, await resumeOfflinePackage(ctx.deps, ctx.user, input.downloadId))),

  /** Which of the device's downloads still work; the device removes the others' files. */
  offlineStatus: authedProcedure
    .input(ZOfflineStatusRequest)
    .output(ZOfflineStatus)
    .query(async ({ ctx, input }) => renewStreamPass(ctx, await offlineStatus(ctx.deps, ctx.user, input.downloadIds))),

  /** The watching a device recorded offline, taken in once each, in order (also POST /api/trainingVideo/offline/sync). */
  syncOffline: authedProcedure
    .input(ZOfflineSyncRequest)
    .output(ZOfflineSyncResult)
    .mutation(async ({ ctx, input }) => renewStreamPass(ctx, await syncOffline(ctx.deps, input, ctx.user))),

  submit: authedProcedure
    .input(ZTrainingSubmitRequest)
    .output(ZTrainingSubmitResult)
    .mutation(({ ctx, input }) => submitTraining(ctx.deps, ctx.user, input.setId)),
});
