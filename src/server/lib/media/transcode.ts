import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TRendition } from '../../db/schema/training.ts';
import { isMediaError, MediaError } from './media-error.ts';
import { probeVideo } from './probe.ts';
import { createProgressReporter, type TProgressListener } from './progress.ts';
import { planRenditions, posterArguments, transcodeArguments, type TRenditionOutput } from './renditions.ts';
import { runTool, type TToolExit } from './run-tool.ts';

/** How the tools run; `createMediaAdapter` fills it from its options. */
export type TMediaSettings = {
  ffmpeg: string;
  ffprobe: string;
  niceness: number;
  /** x264's speed against size trade-off. */
  preset: string;
  maxDurationSeconds: number;
  probeTimeoutMs: number;
  /** How long the ffmpeg run may take for a video of this length. */
  transcodeTimeoutMs: (durationSeconds: number) => number;
};

export type TTranscodeOptions = {
  /** Whole percentages, rising, at most a few a second; 100 once the files are in place. */
  onProgress?: TProgressListener | undefined;
  /** Stops ffmpeg and removes every file this call wrote. */
  signal?: AbortSignal | undefined;
  /** Rendition heights wanted (the short side); by default RENDITION_HEIGHTS. */
  heights?: readonly number[] | undefined;
  /** Overrides the settings' time limit for this call. */
  timeoutMs?: number | undefined;
};

export type TTranscodeResult = {
  durationSeconds: number;
  /** Largest first; `file` is a name in `outDir`. */
  renditions: TRendition[];
  /** A JPEG's name in `outDir`. */
  poster: string;
};

/** Where the poster is taken: past titles and fades, early enough to say what the video shows. */
const POSTER_AT = 0.1;

/** A file this call writes: ffmpeg writes the temporary name, the stored name appears only on success. */
type TPendingFile = { name: string; final: string; temporary: string };

function pendingFile(outDir: string, ext: 'mp4' | 'jpg'): TPendingFile {
  const id = randomUUID();
  // `.<uuid>.part` is the storage's temporary name, so the file sweep removes one a crash leaves.
  return { name: `${id}.${ext}`, final: path.join(outDir, `${id}.${ext}`), temporary: path.join(outDir, `.${id}.part`) };
}

async function isJpeg(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(3);
    const { bytesRead } = await handle.read(head, 0, 3, 0);
    return bytesRead === 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  } finally {
    await handle.close();
  }
}

/** What a failed ffmpeg run means for the administrator. */
function ffmpegFailure(run: TToolExit): MediaError {
  const detail = run.stderr || `ffmpeg exited with ${run.exitCode ?? run.exitSignal}`;
  if (/decoder \(codec [^)]*\) not found|could not find codec|unsupported codec/i.test(run.stderr)) {
    return new MediaError('UNPLAYABLE', 'not a playable video', { detail });
  }
  if (/invalid data found when processing input|partial file/i.test(run.stderr)) {
    return new MediaError('INCOMPLETE', 'the video file is incomplete or damaged', { detail });
  }
  return new MediaError('FAILED', 'the video could not be converted', { detail });
}

/**
 * Turns `source` into web renditions in `outDir`: H.264/AAC MP4 with the index at the front
 * (playback starts before the download ends), at each height of `heights` the source reaches
 * (never enlarged), plus a JPEG poster. One ffmpeg run, at low priority, makes them all.
 *
 * All or nothing: ffmpeg writes temporary names, each output is checked with ffprobe (H.264, about
 * as long as the source, so a cut-off upload is caught) and only then renamed to its stored name.
 * On any failure, timeout or abort every file this call wrote is removed before it throws a
 * MediaError, so a failed or retried job never leaves a half file or a second rendition.
 */
export async function transcodeVideo(
  settings: TMediaSettings,
  sourceFile: string,
  outDir: string,
  options: TTranscodeOptions = {},
): Promise<TTranscodeResult> {
  const { signal } = options;
  const probeRun = { niceness: 0, timeoutMs: settings.probeTimeoutMs, signal };
  const source = await probeVideo(settings.ffprobe, sourceFile, { ...probeRun, maxDurationSeconds: settings.maxDurationSeconds });
  const plans = planRenditions(source, options.heights);

  const directory = path.resolve(outDir);
  await mkdir(directory, { recursive: true });
  const renditionFiles = plans.map((plan) => ({ plan, file: pendingFile(directory, 'mp4') }));
  const posterFile = pendingFile(directory, 'jpg');
  const written = [...renditionFiles.map(({ file }) => file), posterFile];
  const stored: string[] = [];

  try {
    const progress = createProgressReporter(source.durationSeconds, options.onProgress);
    const outputs: TRenditionOutput[] = renditionFiles.map(({ plan, file }) => ({ plan, file: file.temporary }));
    const args = transcodeArguments({
      sourceFile,
      source,
      outputs,
      poster: { file: posterFile.temporary, atSeconds: source.durationSeconds * POSTER_AT },
      preset: settings.preset,
    });
    const run = await runTool('ffmpeg', settings.ffmpeg, args, {
      niceness: settings.niceness,
      timeoutMs: options.timeoutMs ?? settings.transcodeTimeoutMs(source.durationSeconds),
      signal,
      onLine: progress.readLine,
    });
    if (run.exitCode !== 0) throw ffmpegFailure(run);

    const renditions: TRendition[] = [];
    for (const { plan, file } of renditionFiles) {
      const made = await probeVideo(settings.ffprobe, file.temporary, probeRun).catch((error: unknown) => {
        // A timeout or an abort stays what it is; an output ffprobe cannot read is ffmpeg's failure.
        if (isMediaError(error) && !error.permanent) throw error;
        throw new MediaError('FAILED', 'the video could not be converted', { detail: `rendition ${plan.height}p unreadable`, cause: error });
      });
      // ffmpeg ends without complaint where a cut-off MP4's data ends; its index promised more.
      if (made.durationSeconds < source.durationSeconds * 0.9 - 0.5) {
        throw new MediaError('INCOMPLETE', 'the video file is incomplete or damaged', {
          detail: `${made.durationSeconds.toFixed(2)} s of video where the file announces ${source.durationSeconds.toFixed(2)} s`,
        });
      }
      if (made.videoCodec !== 'h264') throw new MediaError('FAILED', 'the video could not be converted', { detail: `rendition is ${made.videoCodec}` });
      renditions.push({ height: plan.height, file: file.name, bitrateKbps: made.bitrateKbps ?? plan.videoMaxKbps + plan.audioKbps });
    }

    // A picture that ends before a tenth of the running time (a still over a long soundtrack)
    // leaves the poster branch without a frame: take the first one of the largest rendition.
    if (!(await isJpeg(posterFile.temporary))) {
      await rm(posterFile.temporary, { force: true });
      const still = await runTool('ffmpeg', settings.ffmpeg, posterArguments(renditionFiles[0]!.file.temporary, posterFile.temporary), probeRun);
      if (still.exitCode !== 0 || !(await isJpeg(posterFile.temporary))) {
        throw new MediaError('FAILED', 'the video could not be converted', { detail: `no poster: ${still.stderr}` });
      }
    }

    if (signal?.aborted) throw new MediaError('ABORTED', 'processing was cancelled', { cause: signal.reason });
    for (const file of written) {
      // Readable by the server alone, as the file storage keeps every upload.
      await chmod(file.temporary, 0o600);
      await rename(file.temporary, file.final);
      stored.push(file.final);
    }
    progress.finish();
    return { durationSeconds: source.durationSeconds, renditions, poster: posterFile.name };
  } catch (error) {
    await Promise.all([...written.map((file) => file.temporary), ...stored].map((file) => rm(file, { force: true })));
    throw error;
  }
}
