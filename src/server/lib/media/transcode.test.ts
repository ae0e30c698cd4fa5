import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, ffprobeJson, makeClip, topLevelBoxes, truncatedCopy, withIndexFirst } from '../../../testing/media.ts';
import { PNG } from '../../../testing/multipart.ts';
import { createMediaAdapter } from './media-adapter.ts';
import { MediaError } from './media-error.ts';
import { OFFLINE_BYTES_PER_HOUR } from './renditions.ts';
import type { TTranscodeResult } from './transcode.ts';

let dir: string;
const clips: Record<string, string> = {};
// At normal priority: on a busy test machine a niced ffmpeg waits its turn for the whole run
// (run-tool.test.ts checks the niceness itself).
const media = createMediaAdapter({ niceness: 0 });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'media-transcode-'));
  const made = await Promise.all([
    makeClip(dir, 'lecture.mp4', { width: 1280, height: 720, seconds: 2, audio: true }),
    makeClip(dir, 'drill.mp4', { width: 640, height: 360, seconds: 2, audio: true }),
    makeClip(dir, 'silent.mp4', { width: 854, height: 480, seconds: 1.5 }),
    makeClip(dir, 'portrait.mp4', { width: 720, height: 1280, seconds: 1, audio: true }),
    makeClip(dir, 'phone.mov', { width: 640, height: 360, seconds: 1, audio: true, rotate: 90 }),
    makeClip(dir, 'deck.webm', { width: 480, height: 270, seconds: 1.5, audio: true, container: 'webm', streamed: true }),
    makeClip(dir, 'still.mp4', { width: 640, height: 360, seconds: 0.12, audio: true, audioSeconds: 2 }),
    makeClip(dir, 'grainy.mp4', { width: 640, height: 360, seconds: 12, audio: true, grain: 20 }),
  ]);
  [clips.lecture, clips.drill, clips.silent, clips.portrait, clips.phone, clips.webm, clips.still, clips.grainy] = made;
  clips.cutOff = await truncatedCopy(await withIndexFirst(clips.drill!, 'drill-fast-start.mp4'), 'cut-off.mp4', 0.5);
  clips.png = path.join(dir, 'picture.mp4');
  await writeFile(clips.png, PNG);
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let outputs = 0;
/** A fresh, empty output folder per transcode, so each test sees only its own files. */
async function outDir() {
  outputs += 1;
  return mkdtemp(path.join(dir, `out-${outputs}-`));
}

async function transcodeWatched(source: string, options: { heights?: number[] } = {}) {
  const out = await outDir();
  const progress: Array<{ percent: number; at: number }> = [];
  const started = performance.now();
  const result = await media.transcode(source, out, {
    ...options,
    onProgress: (percent) => void progress.push({ percent, at: performance.now() - started }),
  });
  return { out, result, progress, ms: performance.now() - started };
}

/** Each rendition's picture size, streams and profile, as ffprobe reads the file. */
async function describeRendition(out: string, file: string) {
  const { streams, format } = await ffprobeJson(path.join(out, file));
  const video = streams.find((stream) => stream.codec_type === 'video')!;
  return {
    size: `${video.width}x${video.height}`,
    codecs: streams.map((stream) => stream.codec_name).join('+'),
    profile: video.profile,
    pixelFormat: video.pix_fmt,
    rotation: video.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? 0,
    durationSeconds: Number(format.duration),
  };
}

async function expectOnlyTheResultsFiles(out: string, result: TTranscodeResult) {
  const names = [...result.renditions.map((rendition) => rendition.file), result.poster].sort();
  expect((await readdir(out)).sort()).toEqual(names);
  for (const name of names) expect(name).toMatch(/^[0-9a-f-]{36}\.(mp4|jpg)$/);
}

async function expectFailure(work: Promise<unknown>) {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
}

describe('transcode', { timeout: 30_000 }, () => {
  it('makes 720p and 360p H.264/AAC fast-start MP4s and a poster from an HD video', async () => {
    const { out, result, progress, ms } = await transcodeWatched(clips.lecture!);

    expect(result.durationSeconds).toBeCloseTo(2, 1);
    expect(result.renditions.map((rendition) => rendition.height)).toEqual([720, 360]);
    for (const rendition of result.renditions) expect(rendition.bitrateKbps).toBeGreaterThan(20);
    const [hd, sd] = await Promise.all(result.renditions.map((rendition) => describeRendition(out, rendition.file)));
    expect(hd).toMatchObject({ size: '1280x720', codecs: 'h264+aac', profile: 'High', pixelFormat: 'yuv420p' });
    expect(sd).toMatchObject({ size: '640x360', codecs: 'h264+aac', profile: 'High', pixelFormat: 'yuv420p' });
    for (const rendition of [hd!, sd!]) expect(Math.abs(rendition.durationSeconds - result.durationSeconds)).toBeLessThan(0.15);

    // Fast start: the index (moov) comes before the media data, so playback starts at once.
    for (const rendition of result.renditions) {
      const boxes = await topLevelBoxes(path.join(out, rendition.file));
      expect(boxes.indexOf('moov'), boxes.join(' ')).toBeLessThan(boxes.indexOf('mdat'));
    }

    const poster = await readFile(path.join(out, result.poster));
    expect([...poster.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect((await ffprobeJson(path.join(out, result.poster))).streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 720 });

    const percents = progress.map((report) => report.percent);
    expect(percents.at(-1)).toBe(100);
    expect(percents.filter((percent) => percent === 100)).toHaveLength(1);
    for (let i = 1; i < percents.length; i += 1) expect(percents[i]).toBeGreaterThan(percents[i - 1]!);
    // A few reports a second at most (the final 100 may follow the last one at once).
    expect(progress.length).toBeLessThanOrEqual(2 + ms / 250);

    await expectOnlyTheResultsFiles(out, result);
  });

  it('keeps 360p within the offline budget even for grainy footage: an hour of it under 200 MB', async () => {
    // Grain changing every frame keeps the encoder at its cap (the old 900 kb/s cap made 460 MB an hour of it).
    const { out, result } = await transcodeWatched(clips.grainy!);
    const [sd] = result.renditions;
    expect(sd!.height).toBe(360);
    const bytes = (await stat(path.join(out, sd!.file))).size;
    const bytesPerHour = (bytes / result.durationSeconds) * 3600;
    expect(bytesPerHour).toBeLessThanOrEqual(OFFLINE_BYTES_PER_HOUR);
    expect(sd!.bitrateKbps).toBeLessThanOrEqual((OFFLINE_BYTES_PER_HOUR * 8) / 3600 / 1000);
    // Speech in mono at 360p.
    const { streams } = await ffprobeJson(path.join(out, sd!.file));
    expect(streams.find((stream) => stream.codec_type === 'audio')).toMatchObject({ codec_name: 'aac', channels: 1 });
  });

  it('never enlarges: a 360p video gets one 360p rendition', async () => {
    const { out, result } = await transcodeWatched(clips.drill!);
    expect(result.renditions.map((rendition) => rendition.height)).toEqual([360]);
    expect(await describeRendition(out, result.renditions[0]!.file)).toMatchObject({ size: '640x360', codecs: 'h264+aac' });
    expect((await ffprobeJson(path.join(out, result.poster))).streams[0]).toMatchObject({ width: 640, height: 360 });
  });

  it('writes a video without sound as a picture-only MP4 that plays cleanly', async () => {
    const { out, result } = await transcodeWatched(clips.silent!);
    expect(result.renditions.map((rendition) => rendition.height)).toEqual([360]);
    const file = path.join(out, result.renditions[0]!.file);
    expect(await describeRendition(out, result.renditions[0]!.file)).toMatchObject({ size: '640x360', codecs: 'h264' });
    expect(await decodeErrors(file)).toBe('');
  });

  it('keeps a portrait video portrait, named by its short side', async () => {
    const { out, result } = await transcodeWatched(clips.portrait!);
    expect(result.renditions.map((rendition) => rendition.height)).toEqual([720, 360]);
    const sizes = await Promise.all(result.renditions.map(async (rendition) => (await describeRendition(out, rendition.file)).size));
    expect(sizes).toEqual(['720x1280', '360x640']);
  });

  it("turns a phone's QuickTime video upright and drops the turn from the output", async () => {
    const { out, result } = await transcodeWatched(clips.phone!);
    expect(await describeRendition(out, result.renditions[0]!.file)).toMatchObject({ size: '360x640', rotation: 0, codecs: 'h264+aac' });
    expect((await ffprobeJson(path.join(out, result.poster))).streams[0]).toMatchObject({ width: 360, height: 640 });
  });

  it("turns a browser's WebM recording (no stated duration) below 360p into one MP4 at its own size", async () => {
    const { out, result, progress } = await transcodeWatched(clips.webm!);
    expect(result.durationSeconds).toBeCloseTo(1.5, 1);
    expect(result.renditions.map((rendition) => rendition.height)).toEqual([270]);
    const rendition = await describeRendition(out, result.renditions[0]!.file);
    expect(rendition).toMatchObject({ size: '480x270', codecs: 'h264+aac' });
    expect(rendition.durationSeconds).toBeCloseTo(1.5, 1);
    expect(progress.at(-1)?.percent).toBe(100);
  });

  it('still makes a poster when the picture ends before a tenth of the running time', async () => {
    const { out, result } = await transcodeWatched(clips.still!);
    expect(result.durationSeconds).toBeGreaterThan(1.5);
    expect((await ffprobeJson(path.join(out, result.poster))).streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 640 });
    await expectOnlyTheResultsFiles(out, result);
  });

  it('gives the reason for a file that is not a video, and writes nothing', async () => {
    const out = await outDir();
    const error = await expectFailure(media.transcode(clips.png!, out));
    expect(error).toMatchObject({ code: 'UNPLAYABLE', reason: 'not a playable video', permanent: true });
    expect(await readdir(out)).toEqual([]);
  });

  it('refuses a cut-off upload whose index promised more, and leaves no half file', async () => {
    const out = await outDir();
    const error = await expectFailure(media.transcode(clips.cutOff!, out));
    expect(error).toMatchObject({ code: 'INCOMPLETE', reason: 'the video file is incomplete or damaged' });
    expect(await readdir(out)).toEqual([]);
  });

  it('stops ffmpeg on abort and removes every file it began', async () => {
    const out = await outDir();
    const controller = new AbortController();
    const work = media.transcode(clips.lecture!, out, { signal: controller.signal });
    // Abort once ffmpeg has begun writing its outputs.
    let settled = false;
    void work.catch(() => {}).finally(() => (settled = true));
    let begun: string[] = [];
    while (begun.length === 0 && !settled) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      begun = await readdir(out);
    }
    controller.abort();
    expect(await expectFailure(work)).toMatchObject({ code: 'ABORTED', permanent: false });
    expect(begun.every((name) => /^\.[0-9a-f-]{36}\.part$/.test(name))).toBe(true);
    expect(await readdir(out)).toEqual([]);

    await expect(media.transcode(clips.lecture!, out, { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await readdir(out)).toEqual([]);
  });

  it('stops ffmpeg at the time limit and removes every file it began', async () => {
    const out = await outDir();
    const error = await expectFailure(media.transcode(clips.lecture!, out, { timeoutMs: 300 }));
    expect(error).toMatchObject({ code: 'TIMED_OUT', permanent: false });
    expect(await readdir(out)).toEqual([]);
  });

  it('says when ffmpeg is not installed', async () => {
    const out = await outDir();
    const noTool = createMediaAdapter({ ffmpegPath: path.join(dir, 'bin', 'ffmpeg'), niceness: 0 });
    const error = await expectFailure(noTool.transcode(clips.drill!, out));
    expect(error).toMatchObject({ code: 'TOOL_MISSING', reason: 'ffmpeg is not installed on the server' });
    expect(await readdir(out)).toEqual([]);
  });
});
