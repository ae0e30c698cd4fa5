import { MESSAGES } from '../../../shared/messages.ts';
import type { TJobPayload } from '../../../shared/jobs.ts';
import type { JobContext, TJobAttempt } from '../../lib/jobs/runner.ts';
import { isMediaError } from '../../lib/media/media-error.ts';
import { claimForProcessing, markFailed, returnToWaiting, storeTranscode, updateVideo } from './training.repository.ts';

/** The admin pages show the job's progress; a write every few percent is live enough. */
const PROGRESS_STEP = 5;

/** 'not a playable video' → 'Not a playable video.', as the admin page shows it. */
function asSentence(reason: string): string {
  const text = reason.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/**
 * Turns an uploaded training video into its web renditions and poster (lib/media), all or nothing.
 * A video already ready, or deleted, is left alone, so a job delivered twice does its work once. A
 * file that cannot be a video fails at once with the reason; other failures are retried, and the
 * last one marks the video failed. The original upload is kept. When the worker stops
 * (`attempt.signal`), ffmpeg is stopped, its files removed and the video waits again, not failed.
 */
export async function transcodeTrainingVideo(
  payload: TJobPayload<'transcodeVideo'>,
  ctx: JobContext,
  attempt: TJobAttempt,
): Promise<void> {
  const video = await claimForProcessing(ctx.db, payload.videoId);
  if (!video) return;
  const area = 'trainingVideo';
  let written = 0;
  const onProgress = async (percent: number) => {
    if (percent - written < PROGRESS_STEP || attempt.signal?.aborted) return;
    written = percent;
    await updateVideo(ctx.db, video.id, { progressPercent: percent });
  };

  // ffmpeg works on files: with the files in a bucket, the source is streamed to a scratch copy and
  // the outputs are uploaded from a scratch folder once all of them are done.
  let result;
  let source;
  let output;
  try {
    source = await ctx.files.localCopy(area, video.sourceFile);
    output = await ctx.files.outputFolder(area);
    result = await ctx.media.transcode(source.path, output.dir, { onProgress, signal: attempt.signal });
    await output.keep([...result.renditions.map((rendition) => rendition.file), result.poster]);
  } catch (error) {
    if (attempt.signal?.aborted) {
      await returnToWaiting(ctx.db, video.id);
      throw error;
    }
    if (isMediaError(error) && error.permanent) {
      await markFailed(ctx.db, video.id, asSentence(error.reason));
      ctx.logger.warn({ videoId: video.id, reason: error.reason, detail: error.detail }, 'training video cannot be prepared');
      return;
    }
    if (attempt.isLast) await markFailed(ctx.db, video.id, MESSAGES.training.processingFailed);
    throw error;
  } finally {
    await output?.release();
    await source?.release();
  }

  const stored = await storeTranscode(ctx.db, video.id, {
    renditions: result.renditions,
    posterFile: result.poster,
    durationSeconds: result.durationSeconds,
  });
  const leftOver = stored ? video.renditions.map((rendition) => rendition.file).concat(video.posterFile ?? []) : [];
  const unwanted = stored ? leftOver : [...result.renditions.map((rendition) => rendition.file), result.poster];
  // A retry's earlier files, or this run's files when the video went meanwhile.
  await Promise.all(unwanted.map((name) => ctx.files.remove(area, name)));
  ctx.logger.info({ videoId: video.id, stored, renditions: result.renditions.map((r) => r.height) }, 'training video prepared');
}
