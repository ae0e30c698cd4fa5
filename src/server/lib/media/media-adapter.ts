import { probeVideo, type TVideoProbe } from './probe.ts';
import { transcodeVideo, type TMediaSettings, type TTranscodeOptions, type TTranscodeResult } from './transcode.ts';

export type TMediaOptions = {
  /** ffmpeg's command or path (FFMPEG_PATH); by default `ffmpeg` on PATH. */
  ffmpegPath?: string | undefined;
  /** ffprobe's command or path (FFPROBE_PATH); by default `ffprobe` on PATH. */
  ffprobePath?: string | undefined;
  /** ffmpeg runs through `nice -n <niceness>` so the API stays responsive (0: normal priority). */
  niceness?: number | undefined;
  /** x264 preset; `veryfast` encodes several times faster than real time on two cores. */
  preset?: string | undefined;
  /** Longer videos are refused (TOO_LONG); 3 hours by default. */
  maxDurationSeconds?: number | undefined;
  /** Each ffprobe run; 30 s by default. */
  probeTimeoutMs?: number | undefined;
  /** The ffmpeg run of one transcode; by default 10 minutes plus four times the video's length. */
  transcodeTimeoutMs?: number | undefined;
};

export const MEDIA_DEFAULTS = {
  niceness: 10,
  preset: 'veryfast',
  maxDurationSeconds: 3 * 60 * 60,
  probeTimeoutMs: 30_000,
} as const;

const defaultTranscodeTimeoutMs = (durationSeconds: number) => 10 * 60_000 + 4 * durationSeconds * 1000;

/**
 * The portal's video tools: ffprobe and ffmpeg behind two calls, so the transcode job can be
 * tested with a fake. Every failure is a MediaError whose `reason` the administrator can read.
 */
export function createMediaAdapter(options: TMediaOptions = {}) {
  const settings: TMediaSettings = {
    ffmpeg: options.ffmpegPath ?? 'ffmpeg',
    ffprobe: options.ffprobePath ?? 'ffprobe',
    niceness: options.niceness ?? MEDIA_DEFAULTS.niceness,
    preset: options.preset ?? MEDIA_DEFAULTS.preset,
    maxDurationSeconds: options.maxDurationSeconds ?? MEDIA_DEFAULTS.maxDurationSeconds,
    probeTimeoutMs: options.probeTimeoutMs ?? MEDIA_DEFAULTS.probeTimeoutMs,
    transcodeTimeoutMs: (durationSeconds) => options.transcodeTimeoutMs ?? defaultTranscodeTimeoutMs(durationSeconds),
  };

  /** Duration, upright picture size, sound and codec of a video, or a MediaError saying why not. */
  async function probe(file: string, call: { signal?: AbortSignal | undefined } = {}): Promise<TVideoProbe> {
    const source = await probeVideo(settings.ffprobe, file, {
      niceness: 0,
      timeoutMs: settings.probeTimeoutMs,
      signal: call.signal,
      maxDurationSeconds: settings.maxDurationSeconds,
    });
    const { durationSeconds, width, height, hasAudio, videoCodec } = source;
    return { durationSeconds, width, height, hasAudio, videoCodec };
  }

  /** See transcodeVideo: renditions and a poster in `outDir`, all or nothing. */
  function transcode(source: string, outDir: string, call: TTranscodeOptions = {}): Promise<TTranscodeResult> {
    return transcodeVideo(settings, source, outDir, call);
  }

  return { probe, transcode };
}

export type MediaAdapter = ReturnType<typeof createMediaAdapter>;
