import { RENDITION_HEIGHTS } from '../../../shared/rendition-heights.ts';
import { inputArguments, type TVideoSource } from './probe.ts';

export type TRenditionPlan = {
  /**
   * The rendition's name in the player's 720p / 360p choice: the short side of the picture, as
   * players name a portrait phone video (a 720 × 1280 one is "720p").
   */
  height: number;
  frame: { width: number; height: number };
  /** The cap on the video's bitrate; quality is set by CRF below it. */
  videoMaxKbps: number;
  audioKbps: number;
  /** Sound channels at most: 360p and below carry speech in mono, which AAC keeps clear at 64 kb/s. */
  audioChannels: 1 | 2;
};

/** Quality target for x264: visually clean at the caps below for lectures, slides and deck footage. */
const CRF = 23;
/** A keyframe every two seconds, so the player can start anywhere after a seek within that. */
const KEYFRAME_SECONDS = 2;
/** 2 800 kb/s for 720p, the picture for watching online on a good link. */
const MAX_KBPS_AT_720 = 2800;
/**
 * 320 kb/s for 360p, the rendition a course is downloaded in for study at sea: with its 64 kb/s of
 * sound an hour is at most (320 + 64) kb/s × 3 600 s = 172.8 MB plus the MP4's index (about 1 %),
 * inside the offline budget below; slides' 24 px text stays legible at it (decision 050).
 */
const MAX_KBPS_AT_360 = 320;
/** Bytes an hour of a course may take to download at 360p (decision 050: at most 200 MB). */
export const OFFLINE_BYTES_PER_HOUR = 200_000_000;

/**
 * The cap for a height: the anchors above, a power of the size between them, and the same 1.6 power
 * of the size as before beyond them (1080p 5 360 kb/s; a 240p source 170 kb/s).
 */
function videoMaxKbps(height: number): number {
  const kbps =
    height >= 720
      ? MAX_KBPS_AT_720 * (height / 720) ** 1.6
      : height >= 360
        ? MAX_KBPS_AT_360 * (MAX_KBPS_AT_720 / MAX_KBPS_AT_360) ** Math.log2(height / 360)
        : MAX_KBPS_AT_360 * (height / 360) ** 1.6;
  return Math.max(100, Math.round(kbps / 10) * 10);
}

/**
 * The most bytes an hour of a rendition takes: its caps over 3 600 s. The encoder's buffer (two
 * seconds of the cap) and the MP4's index come on top, a few megabytes an hour.
 */
export function bytesPerHourAtCap(plan: Pick<TRenditionPlan, 'videoMaxKbps' | 'audioKbps'>): number {
  return ((plan.videoMaxKbps + plan.audioKbps) * 1000 * 3600) / 8;
}

const even = (value: number) => Math.max(2, Math.floor(value / 2) * 2);

/**
 * The renditions of a picture of the given (upright) size: every requested height up to the
 * picture's short side, never enlarged; a picture smaller than all of them gets one rendition at
 * its own size. Sizes are even, as H.264 in 4:2:0 requires.
 */
export function planRenditions(
  picture: { width: number; height: number },
  heights: readonly number[] = RENDITION_HEIGHTS,
): TRenditionPlan[] {
  if (heights.length === 0 || heights.some((height) => !Number.isInteger(height) || height < 2 || height % 2 !== 0)) {
    throw new TypeError(`rendition heights must be even whole numbers of pixels, not ${heights.join(', ')}`);
  }
  const shortSide = Math.min(picture.width, picture.height);
  const longSide = Math.max(picture.width, picture.height);
  const portrait = picture.height > picture.width;
  const wanted = [...new Set(heights)].filter((height) => height <= shortSide).sort((a, b) => b - a);
  const chosen = wanted.length > 0 ? wanted : [even(shortSide)];
  return chosen.map((height) => {
    const long = even(Math.round((height * longSide) / shortSide / 2) * 2);
    return {
      height,
      frame: portrait ? { width: height, height: long } : { width: long, height },
      videoMaxKbps: videoMaxKbps(height),
      audioKbps: height >= 480 ? 128 : 64,
      audioChannels: height >= 480 ? 2 : 1,
    };
  });
}

export type TRenditionOutput = { plan: TRenditionPlan; file: string };

/**
 * The one ffmpeg run that makes every rendition and the poster: the source is decoded once and
 * split, each branch scaled and encoded (H.264 in yuv420p, high profile; AAC), and a still taken
 * at `posterAtSeconds` at the size of the largest rendition. Outputs go to the files named, with
 * their formats given, so the names may be temporary ones. Progress goes to stdout.
 */
export function transcodeArguments(command: {
  sourceFile: string;
  source: Pick<TVideoSource, 'videoStream' | 'audioStream'>;
  outputs: readonly TRenditionOutput[];
  poster: { file: string; atSeconds: number };
  preset: string;
}): string[] {
  const { source, outputs, poster } = command;
  const largest = outputs[0];
  if (!largest) throw new TypeError('at least one rendition is needed');
  const branches = outputs.map((_, i) => `[r${i}]`).join('');
  const scale = ({ width, height }: { width: number; height: number }) => `scale=${width}:${height},setsar=1`;
  const filters = [
    `[0:${source.videoStream}]split=${outputs.length + 1}${branches}[p]`,
    ...outputs.map((output, i) => `[r${i}]${scale(output.plan.frame)},format=yuv420p[v${i}]`),
    `[p]select='gte(t,${poster.atSeconds.toFixed(3)})',trim=end_frame=1,${scale(largest.plan.frame)}[poster]`,
  ];

  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-n', '-progress', 'pipe:1', '-nostats'];
  args.push(...inputArguments(command.sourceFile), '-filter_complex', filters.join(';'));
  outputs.forEach((output, i) => {
    const { videoMaxKbps: max, audioKbps, audioChannels } = output.plan;
    args.push('-map', `[v${i}]`);
    args.push('-c:v', 'libx264', '-preset', command.preset, '-profile:v', 'high', '-crf', String(CRF));
    args.push('-maxrate', `${max}k`, '-bufsize', `${max * 2}k`);
    args.push('-force_key_frames', `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`);
    // No sound in, no sound track out: a silent track would cost bytes and tell the player nothing.
    if (source.audioStream) {
      args.push('-map', `0:${source.audioStream.index}`);
      args.push('-c:a', 'aac', '-b:a', `${audioKbps}k`, '-ac', String(Math.min(audioChannels, source.audioStream.channels)));
    }
    // Phones write where a video was taken; it is nobody's business on a training portal.
    args.push('-map_metadata', '-1', '-map_chapters', '-1');
    args.push('-movflags', '+faststart', '-max_muxing_queue_size', '4096', '-f', 'mp4', `file:${output.file}`);
  });
  args.push('-map', '[poster]', '-frames:v', '1', '-q:v', '3', '-map_metadata', '-1');
  args.push('-f', 'image2', '-update', '1', `file:${poster.file}`);
  return args;
}

/** A poster from the first picture of a finished rendition, when the source's picture ends early. */
export function posterArguments(renditionFile: string, posterFile: string): string[] {
  return [
    '-hide_banner', '-nostdin', '-v', 'error', '-n',
    ...inputArguments(renditionFile),
    '-map', '0:v:0', '-frames:v', '1', '-q:v', '3', '-map_metadata', '-1',
    '-f', 'image2', '-update', '1', `file:${posterFile}`,
  ];
}
