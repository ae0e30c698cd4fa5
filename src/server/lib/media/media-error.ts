/**
 * Why a video could not be probed or transcoded. `reason` is written for the administrator who
 * uploaded the video (it ends up beside the failed video on the admin pages); `detail` holds what
 * ffmpeg said, for the logs only.
 */
export const MEDIA_ERROR_CODES = {
  /** Not a video the tools can read: an image, random bytes, an unknown format or codec. */
  UNPLAYABLE: { permanent: true },
  /** A readable container with sound or pictures attached, but no moving picture. */
  NO_VIDEO_STREAM: { permanent: true },
  /** Longer than the configured limit. */
  TOO_LONG: { permanent: true },
  /** Readable at first, but the picture stops early: a cut-off upload or damaged data. */
  INCOMPLETE: { permanent: true },
  /** The file to read is not there (removed meanwhile, or a wrong path). */
  SOURCE_MISSING: { permanent: true },
  /** ffmpeg or ffprobe is not installed where the options say. */
  TOOL_MISSING: { permanent: false },
  /** The time limit ran out and ffmpeg was stopped. */
  TIMED_OUT: { permanent: false },
  /** The caller's AbortSignal fired and ffmpeg was stopped. */
  ABORTED: { permanent: false },
  /** Anything else ffmpeg failed on (a full disk, a crash); trying again may work. */
  FAILED: { permanent: false },
} as const;
export type TMediaErrorCode = keyof typeof MEDIA_ERROR_CODES;

export class MediaError extends Error {
  override name = 'MediaError';
  readonly code: TMediaErrorCode;
  /** The administrator's words: 'not a playable video', 'no video stream', … */
  readonly reason: string;
  /** The tools' own output (the end of stderr), for the logs. */
  readonly detail: string | undefined;

  constructor(code: TMediaErrorCode, reason: string, options: { detail?: string; cause?: unknown } = {}) {
    super(options.detail ? `${reason}: ${options.detail}` : reason, { cause: options.cause });
    this.code = code;
    this.reason = reason;
    this.detail = options.detail;
  }

  /** True when trying the same file again cannot succeed, so a job should not be retried. */
  get permanent(): boolean {
    return MEDIA_ERROR_CODES[this.code].permanent;
  }
}

export function isMediaError(error: unknown): error is MediaError {
  return error instanceof MediaError;
}

/** '45 s', '12 min', '2 h 5 min': how long a video or a limit is, for a reason. */
export function describeSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
