import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, truncatedCopy } from '../../../testing/media.ts';
import { PNG } from '../../../testing/multipart.ts';
import { createMediaAdapter } from './media-adapter.ts';
import { MediaError } from './media-error.ts';
import { readProbeReport } from './probe.ts';

let dir: string;
const clips: Record<string, string> = {};
const media = createMediaAdapter();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'media-probe-'));
  const made = await Promise.all([
    makeClip(dir, 'lecture.mp4', { width: 640, height: 360, seconds: 2, audio: true }),
    makeClip(dir, 'silent.mp4', { width: 320, height: 240, seconds: 1 }),
    makeClip(dir, 'phone.mov', { width: 320, height: 180, seconds: 1, audio: true, rotate: 90 }),
    makeClip(dir, 'deck.webm', { width: 320, height: 180, seconds: 1, audio: true, container: 'webm' }),
    makeClip(dir, 'briefing.m4a', { width: 0, height: 0, seconds: 1, container: 'm4a' }),
    makeClip(dir, 'recording.webm', { width: 320, height: 180, seconds: 1.5, audio: true, container: 'webm', streamed: true }),
  ]);
  [clips.lecture, clips.silent, clips.phone, clips.webm, clips.audioOnly, clips.recording] = made;
  clips.cutOff = await truncatedCopy(clips.lecture!, 'cut-off.mp4', 0.5);
  clips.png = path.join(dir, 'picture.mp4');
  await writeFile(clips.png, PNG);
  clips.random = path.join(dir, 'random.mp4');
  await writeFile(clips.random, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)));
  clips.empty = path.join(dir, 'empty.mp4');
  await writeFile(clips.empty, '');
  // A playlist posing as a video would make ffmpeg read the files it lists.
  clips.playlist = path.join(dir, 'playlist.mp4');
  await writeFile(clips.playlist, '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n');
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function reasonFor(file: string, adapter = media) {
  const error = await adapter.probe(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return { code: (error as MediaError).code, reason: (error as MediaError).reason };
}

describe('probe', () => {
  it('reads duration, size, sound and codec', async () => {
    const probe = await media.probe(clips.lecture!);
    expect(probe).toEqual({ durationSeconds: expect.closeTo(2, 1), width: 640, height: 360, hasAudio: true, videoCodec: 'h264' });
  });

  it('says when there is no sound', async () => {
    expect(await media.probe(clips.silent!)).toMatchObject({ width: 320, height: 240, hasAudio: false });
  });

  it("turns a phone's portrait video upright", async () => {
    expect(await media.probe(clips.phone!)).toMatchObject({ width: 180, height: 320, hasAudio: true });
  });

  it('reads WebM', async () => {
    expect(await media.probe(clips.webm!)).toMatchObject({ width: 320, height: 180, hasAudio: true, videoCodec: 'vp8' });
  });

  it("measures a browser recording's duration, which its header does not state", async () => {
    expect(await media.probe(clips.recording!)).toMatchObject({ durationSeconds: expect.closeTo(1.5, 1), width: 320, height: 180 });
  });

  it('refuses what is not a video with a reason the administrator can read', async () => {
    for (const file of [clips.png!, clips.random!, clips.empty!, clips.cutOff!, clips.playlist!]) {
      expect(await reasonFor(file), path.basename(file)).toEqual({ code: 'UNPLAYABLE', reason: 'not a playable video' });
    }
  });

  it('refuses sound without pictures', async () => {
    expect(await reasonFor(clips.audioOnly!)).toEqual({ code: 'NO_VIDEO_STREAM', reason: 'no video stream' });
  });

  it('refuses a video over the length limit', async () => {
    const short = createMediaAdapter({ maxDurationSeconds: 1 });
    expect(await reasonFor(clips.lecture!, short)).toEqual({ code: 'TOO_LONG', reason: 'too long: 2 s, the limit is 1 s' });
  });

  it('says when the file or the tool is missing', async () => {
    expect(await reasonFor(path.join(dir, 'gone.mp4'))).toMatchObject({ code: 'SOURCE_MISSING' });
    const noTool = createMediaAdapter({ ffprobePath: path.join(dir, 'ffprobe') });
    expect(await reasonFor(clips.lecture!, noTool)).toEqual({ code: 'TOOL_MISSING', reason: 'ffprobe is not installed on the server' });
  });
});

describe('readProbeReport', () => {
  const video = { index: 0, codec_type: 'video', codec_name: 'h264', width: 1280, height: 720 };
  const audio = { index: 1, codec_type: 'audio', codec_name: 'aac', channels: 1 };
  const format = { duration: '12.5', bit_rate: '2500000' };

  it('reads the streams ffmpeg will map', () => {
    expect(readProbeReport({ streams: [audio, { ...video, index: 1 }], format })).toMatchObject({
      durationSeconds: 12.5,
      videoStream: 1,
      audioStream: { index: 1, channels: 1 },
      bitrateKbps: 2500,
    });
  });

  it('applies a quarter turn from side data or the older rotate tag, either way round', () => {
    const turned = (extra: object) => readProbeReport({ streams: [{ ...video, ...extra }], format });
    expect(turned({ side_data_list: [{ rotation: -90 }] })).toMatchObject({ width: 720, height: 1280 });
    expect(turned({ tags: { rotate: '270' } })).toMatchObject({ width: 720, height: 1280 });
    expect(turned({ tags: { rotate: '180' } })).toMatchObject({ width: 1280, height: 720 });
  });

  it('stretches non-square pixels to the shape they are shown in', () => {
    expect(readProbeReport({ streams: [{ ...video, width: 720, height: 576, sample_aspect_ratio: '16:15' }], format })).toMatchObject({
      width: 768,
      height: 576,
    });
  });

  it('takes the stream duration when the container has none', () => {
    expect(readProbeReport({ streams: [{ ...video, duration: '3.2' }], format: {} }).durationSeconds).toBe(3.2);
  });

  it('does not take cover art for a video', () => {
    const cover = { ...video, codec_name: 'mjpeg', disposition: { attached_pic: 1 } };
    expect(() => readProbeReport({ streams: [audio, cover], format })).toThrow(expect.objectContaining({ code: 'NO_VIDEO_STREAM' }));
  });

  it('leaves the duration to be measured when the file states none', () => {
    expect(readProbeReport({ streams: [video], format: { duration: 'N/A' } }).durationSeconds).toBeUndefined();
  });

  it('refuses an answer of the wrong shape', () => {
    expect(() => readProbeReport({ streams: 'none' })).toThrow(expect.objectContaining({ code: 'UNPLAYABLE' }));
  });
});
