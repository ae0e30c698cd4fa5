import { describe, expect, it } from 'vitest';
import { bytesPerHourAtCap, OFFLINE_BYTES_PER_HOUR, planRenditions, transcodeArguments } from './renditions.ts';

const sizes = (picture: { width: number; height: number }, heights?: number[]) =>
  planRenditions(picture, heights).map((plan) => `${plan.height}p ${plan.frame.width}x${plan.frame.height}`);

describe('planRenditions', () => {
  it('makes 720p and 360p from an HD source and from a larger one', () => {
    expect(sizes({ width: 1280, height: 720 })).toEqual(['720p 1280x720', '360p 640x360']);
    expect(sizes({ width: 1920, height: 1080 })).toEqual(['720p 1280x720', '360p 640x360']);
  });

  it('never enlarges: a 480p source gets 360p only, a 360p source one rendition', () => {
    expect(sizes({ width: 854, height: 480 })).toEqual(['360p 640x360']);
    expect(sizes({ width: 640, height: 360 })).toEqual(['360p 640x360']);
  });

  it('gives a source below 360p one rendition at its own size, made even', () => {
    expect(sizes({ width: 320, height: 240 })).toEqual(['240p 320x240']);
    expect(sizes({ width: 321, height: 241 })).toEqual(['240p 320x240']);
    expect(sizes({ width: 3, height: 3 })).toEqual(['2p 2x2']);
  });

  it('names a portrait video by its short side, as players do', () => {
    expect(sizes({ width: 720, height: 1280 })).toEqual(['720p 720x1280', '360p 360x640']);
    expect(sizes({ width: 1080, height: 1920 })).toEqual(['720p 720x1280', '360p 360x640']);
  });

  it('keeps the shape of a 4:3 or ultra-wide picture', () => {
    expect(sizes({ width: 960, height: 720 })).toEqual(['720p 960x720', '360p 480x360']);
    expect(sizes({ width: 2560, height: 1080 })).toEqual(['720p 1706x720', '360p 854x360']);
  });

  it('takes other heights, in any order, once each', () => {
    expect(sizes({ width: 1920, height: 1080 }, [360, 1080, 360])).toEqual(['1080p 1920x1080', '360p 640x360']);
  });

  it('refuses odd or empty heights', () => {
    expect(() => planRenditions({ width: 1280, height: 720 }, [])).toThrow(TypeError);
    expect(() => planRenditions({ width: 1280, height: 720 }, [719])).toThrow(TypeError);
  });

  it('caps the bitrate by size', () => {
    const [hd, sd] = planRenditions({ width: 1280, height: 720 });
    expect(hd).toMatchObject({ videoMaxKbps: 2800, audioKbps: 128, audioChannels: 2 });
    expect(sd).toMatchObject({ videoMaxKbps: 320, audioKbps: 64, audioChannels: 1 });
    const capOf = (height: number) => planRenditions({ width: 3840, height: 2160 }, [height])[0]!.videoMaxKbps;
    expect([240, 360, 480, 720, 1080].map(capOf)).toEqual([170, 320, 790, 2800, 5360]);
  });

  it('keeps an hour at 360p, or any smaller download, within the offline budget with a margin', () => {
    // Wide, portrait and below-360p sources too: the download is the smallest rendition.
    for (const picture of [{ width: 1280, height: 720 }, { width: 2560, height: 1080 }, { width: 720, height: 1280 }, { width: 320, height: 240 }]) {
      const smallest = planRenditions(picture).at(-1)!;
      // Room for the encoder's two-second buffer and the MP4's index (under 1 % measured).
      expect(bytesPerHourAtCap(smallest) * 1.02 + (smallest.videoMaxKbps * 2 * 1000) / 8).toBeLessThanOrEqual(OFFLINE_BYTES_PER_HOUR * 0.9);
    }
    expect(OFFLINE_BYTES_PER_HOUR).toBe(200_000_000);
  });
});

describe('transcodeArguments', () => {
  const outputs = planRenditions({ width: 1280, height: 720 }).map((plan) => ({ plan, file: `/out/.${plan.height}.part` }));
  const command = (audio: boolean) =>
    transcodeArguments({
      sourceFile: '/in/-video.mp4',
      source: { videoStream: 1, audioStream: audio ? { index: 0, channels: 6 } : undefined },
      outputs,
      poster: { file: '/out/.poster.part', atSeconds: 1.25 },
      preset: 'veryfast',
    });

  it('decodes once and writes each rendition and the poster from one filter graph', () => {
    const args = command(true);
    expect(args.filter((arg) => arg === '-i')).toHaveLength(1);
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[0:1]split=3[r0][r1][p]');
    expect(graph).toContain('[r0]scale=1280:720,setsar=1,format=yuv420p[v0]');
    expect(graph).toContain('[r1]scale=640:360,setsar=1,format=yuv420p[v1]');
    expect(graph).toContain("select='gte(t,1.250)',trim=end_frame=1,scale=1280:720");
    expect(args.filter((arg) => arg === '+faststart')).toHaveLength(2);
    // Stereo at 720p; speech in mono at 360p, where 64 kb/s keeps it clear.
    expect(args.join(' ')).toMatch(/-b:a 128k -ac 2 .*-b:a 64k -ac 1 /);
  });

  it('reads only local files in the accepted containers, never a name as an option', () => {
    const args = command(true);
    expect(args.slice(args.indexOf('-i') - 4, args.indexOf('-i') + 2)).toEqual([
      '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska', '-i', 'file:/in/-video.mp4',
    ]);
    expect(args).toContain('file:/out/.720.part');
  });

  it('writes no sound track when the source has none', () => {
    const args = command(false);
    expect(args).not.toContain('-c:a');
    expect(args.filter((arg) => arg === '-map')).toHaveLength(3);
  });
});
