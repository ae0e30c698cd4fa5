import { execFile } from 'node:child_process';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type TClip = {
  width: number;
  height: number;
  seconds: number;
  /** A 440 Hz tone beside the picture, as long as it unless `audioSeconds` says otherwise. */
  audio?: boolean;
  audioSeconds?: number;
  container?: 'mp4' | 'mov' | 'webm' | 'm4a';
  /** A phone's portrait video: stored landscape, with a quarter turn in its metadata. */
  rotate?: 90;
  rate?: number;
  /** Written as a stream, as a browser's recorder does: a WebM then states no duration. */
  streamed?: boolean;
  /**
   * Grain changing every frame (ffmpeg's noise filter, 0–100), as a camera's in poor light: the
   * picture an encoder cannot make small, so its bitrate reaches the cap.
   */
  grain?: number;
};

/**
 * Makes a small video with ffmpeg's own test picture and tone, so no media file is committed.
 * Encoded as fast as ffmpeg can (the quality is irrelevant); WebM gets VP8 and Opus.
 */
export async function makeClip(dir: string, name: string, clip: TClip): Promise<string> {
  const file = path.join(dir, name);
  const container = clip.container ?? 'mp4';
  const rate = clip.rate ?? 25;
  const inputs: string[] = [];
  if (container !== 'm4a') {
    inputs.push('-f', 'lavfi', '-i', `testsrc2=size=${clip.width}x${clip.height}:rate=${rate}:duration=${clip.seconds}`);
  }
  if (clip.audio || container === 'm4a') {
    inputs.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${clip.audioSeconds ?? clip.seconds}`);
  }
  const codecs =
    container === 'webm'
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k', '-c:a', 'libopus']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  const filters = clip.grain && container !== 'm4a' ? ['-vf', `noise=alls=${clip.grain}:allf=t+u`] : [];
  const target = clip.rotate ? `${file}.upright.${container}` : file;
  const output = clip.streamed ? ['-f', formatOf(container), 'pipe:1'] : ['-f', formatOf(container), target];
  const made = await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...inputs, ...filters, ...codecs, ...output], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (clip.streamed) await writeFile(target, made.stdout);
  if (clip.rotate) {
    // ffmpeg 5 writes the turn only when copying streams.
    await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', target, '-c', 'copy', '-metadata:s:v:0', `rotate=${clip.rotate}`, file]);
  }
  return file;
}

const formatOf = (container: NonNullable<TClip['container']>) =>
  ({ mp4: 'mp4', mov: 'mov', webm: 'webm', m4a: 'ipod' })[container];

/** Writes the first `fraction` of `source` to `name`, as an upload cut off in transit. */
export async function truncatedCopy(source: string, name: string, fraction: number): Promise<string> {
  const bytes = await readFile(source);
  const file = path.join(path.dirname(source), name);
  await writeFile(file, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return file;
}

/** Rewrites an MP4 with its index (moov) in front, as a fast-start file. */
export async function withIndexFirst(source: string, name: string): Promise<string> {
  const file = path.join(path.dirname(source), name);
  await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', source, '-c', 'copy', '-movflags', '+faststart', file]);
  return file;
}

type TProbedStream = {
  codec_type: string;
  codec_name: string;
  channels?: number;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  side_data_list?: Array<{ rotation?: number }>;
};

/** ffprobe's own account of a file, to check what the media library made. */
export async function ffprobeJson(file: string): Promise<{ streams: TProbedStream[]; format: { duration: string; format_name: string } }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  return JSON.parse(stdout) as never;
}

/** Decodes the whole file; answers what ffmpeg complained about (nothing for a sound file). */
export async function decodeErrors(file: string): Promise<string> {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, '-f', 'null', '-']);
  return stderr.trim();
}

/** The types of an ISO-BMFF file's top-level boxes in order (`ftyp`, `moov`, `mdat`, …). */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const types: string[] = [];
    const header = Buffer.alloc(16);
    let offset = 0;
    while (offset + 8 <= size) {
      await handle.read(header, 0, 16, offset);
      const small = header.readUInt32BE(0);
      types.push(header.toString('latin1', 4, 8));
      // 1: a 64-bit size follows the type; 0: the box runs to the end of the file.
      const length = small === 1 ? Number(header.readBigUInt64BE(8)) : small === 0 ? size - offset : small;
      if (length < 8) throw new Error(`${file}: box of ${length} bytes at ${offset}`);
      offset += length;
    }
    return types;
  } finally {
    await handle.close();
  }
}
