import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { describeSeconds, MediaError } from './media-error.ts';
import { runTool, type TToolRun } from './run-tool.ts';

/**
 * The containers ffmpeg may open: MP4/MOV and Matroska/WebM, the upload's video kinds. Anything
 * else is refused before it is parsed, so a playlist or an image sequence posing as a video can
 * never make ffmpeg read other files or addresses.
 */
export const CONTAINER_FORMATS = 'mov,matroska';

/** What the portal needs to know about an uploaded video. */
export type TVideoProbe = {
  durationSeconds: number;
  /** The picture as it is shown: turned upright and with its pixel aspect applied. */
  width: number;
  height: number;
  hasAudio: boolean;
  videoCodec: string;
};

/** A probe plus the stream numbers and details ffmpeg's command line needs. */
export type TVideoSource = TVideoProbe & {
  videoStream: number;
  audioStream: { index: number; channels: number } | undefined;
  bitrateKbps: number | undefined;
};

/** The input options and file of every ffmpeg and ffprobe run. */
export function inputArguments(file: string): string[] {
  // `file:` keeps a name such as `-x` or `http:…` from being read as an option or an address.
  return ['-protocol_whitelist', 'file', '-format_whitelist', CONTAINER_FORMATS, '-i', `file:${path.resolve(file)}`];
}

const ZProbeStream = z.object({
  index: z.number().int(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  sample_aspect_ratio: z.string().optional(),
  channels: z.number().optional(),
  duration: z.string().optional(),
  disposition: z.object({ default: z.number().optional(), attached_pic: z.number().optional() }).optional(),
  tags: z.record(z.string(), z.unknown()).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() })).optional(),
});
type TProbeStream = z.infer<typeof ZProbeStream>;

const ZProbeReport = z.object({
  streams: z.array(ZProbeStream).default([]),
  format: z.object({ duration: z.string().optional(), bit_rate: z.string().optional() }).optional(),
});

const NOT_PLAYABLE = 'not a playable video';
/** ffprobe's JSON for a real video is a few kilobytes; this much means something is wrong. */
const MAX_REPORT_BYTES = 1024 * 1024;

const positive = (value: string | undefined) => {
  const number = Number.parseFloat(value ?? '');
  return Number.isFinite(number) && number > 0 ? number : undefined;
};

/** Quarter turns the player applies: phones store a portrait video as a landscape one plus a rotation. */
function isQuarterTurned(stream: TProbeStream): boolean {
  const tagged = Number.parseFloat(String(stream.tags?.rotate ?? ''));
  const rotation =
    stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? (Number.isFinite(tagged) ? tagged : 0);
  return Math.abs(Math.round(rotation / 90)) % 2 === 1;
}

/** The stored width stretched by the pixel aspect ratio (`4:3` on some camcorder and DVD material). */
function displayWidth(stream: TProbeStream, width: number): number {
  const [num, den] = (stream.sample_aspect_ratio ?? '').split(':').map(Number);
  if (!num || !den || num === den) return width;
  return Math.round((width * num) / den);
}

/**
 * Reads ffprobe's `-print_format json -show_format -show_streams` answer. The duration is
 * undefined when the file does not state one (a WebM recorded in a browser).
 */
export function readProbeReport(report: unknown): Omit<TVideoSource, 'durationSeconds'> & { durationSeconds: number | undefined } {
  const parsed = ZProbeReport.safeParse(report);
  if (!parsed.success) throw new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: 'ffprobe answered in an unexpected shape' });
  const { streams, format } = parsed.data;
  // A cover picture in a music file is a video stream too, but not a video.
  const videos = streams.filter((stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1);
  const video = videos.find((stream) => stream.disposition?.default === 1) ?? videos[0];
  if (!video) {
    const readable = streams.some((stream) => stream.codec_type === 'audio' || stream.codec_type === 'video');
    throw readable
      ? new MediaError('NO_VIDEO_STREAM', 'no video stream')
      : new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: 'no audio or video streams' });
  }
  if (!video.codec_name || !video.width || !video.height || Math.min(video.width, video.height) < 2) {
    throw new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: 'the video stream has no codec or picture size' });
  }
  const durationSeconds = positive(format?.duration) ?? positive(video.duration);

  const width = displayWidth(video, video.width);
  const upright = isQuarterTurned(video) ? { width: video.height, height: width } : { width, height: video.height };
  const audios = streams.filter((stream) => stream.codec_type === 'audio');
  const audio = audios.find((stream) => stream.disposition?.default === 1) ?? audios[0];
  const bitrate = positive(format?.bit_rate);
  return {
    durationSeconds,
    ...upright,
    hasAudio: audio !== undefined,
    videoCodec: video.codec_name,
    videoStream: video.index,
    audioStream: audio ? { index: audio.index, channels: audio.channels ?? 2 } : undefined,
    bitrateKbps: bitrate === undefined ? undefined : Math.round(bitrate / 1000),
  };
}

/**
 * Runs ffprobe on `file`. Throws MediaError: SOURCE_MISSING, UNPLAYABLE (not a video ffmpeg can
 * read: an image, random bytes, a cut-off MP4 without its index), NO_VIDEO_STREAM, TOO_LONG (over
 * `maxDurationSeconds`), or the run's own TOOL_MISSING, TIMED_OUT, ABORTED.
 */
export async function probeVideo(
  ffprobe: string,
  file: string,
  options: Omit<TToolRun, 'onLine' | 'keepStdoutBytes'> & { maxDurationSeconds?: number | undefined },
): Promise<TVideoSource> {
  const info = await stat(file).catch((error: unknown) => {
    throw new MediaError('SOURCE_MISSING', 'the uploaded file is missing', { detail: String(error), cause: error });
  });
  if (!info.isFile()) throw new MediaError('SOURCE_MISSING', 'the uploaded file is missing', { detail: `${file} is not a file` });

  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArguments(file)];
  const run = await runTool('ffprobe', ffprobe, args, { ...options, keepStdoutBytes: MAX_REPORT_BYTES });
  if (run.exitCode !== 0) throw new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: run.stderr || `ffprobe exited with ${run.exitCode ?? run.exitSignal}` });
  let report: unknown;
  try {
    report = JSON.parse(run.stdout);
  } catch (error) {
    throw new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: 'ffprobe answered no JSON', cause: error });
  }
  const reading = readProbeReport(report);
  const durationSeconds = reading.durationSeconds ?? (await measureDuration(ffprobe, file, reading.videoStream, options));
  if (durationSeconds === undefined) throw new MediaError('UNPLAYABLE', NOT_PLAYABLE, { detail: 'no duration' });
  const source = { ...reading, durationSeconds };
  if (options.maxDurationSeconds !== undefined && source.durationSeconds > options.maxDurationSeconds) {
    throw new MediaError(
      'TOO_LONG',
      `too long: ${describeSeconds(source.durationSeconds)}, the limit is ${describeSeconds(options.maxDurationSeconds)}`,
    );
  }
  return source;
}

/**
 * The end of the last picture, read from the packets' timestamps (no decoding): for a file whose
 * header states no duration, as browsers' recorders write WebM.
 */
async function measureDuration(
  ffprobe: string,
  file: string,
  videoStream: number,
  options: Omit<TToolRun, 'onLine' | 'keepStdoutBytes'>,
): Promise<number | undefined> {
  let end = 0;
  const args = ['-v', 'error', '-select_streams', String(videoStream), '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0'];
  const run = await runTool('ffprobe', ffprobe, [...args, ...inputArguments(file)], {
    ...options,
    onLine: (line) => {
      const [pts, duration] = line.split(',').map((field) => Number.parseFloat(field));
      if (pts !== undefined && Number.isFinite(pts)) end = Math.max(end, pts + (duration !== undefined && Number.isFinite(duration) ? duration : 0));
    },
  });
  return run.exitCode === 0 && end > 0 ? end : undefined;
}
