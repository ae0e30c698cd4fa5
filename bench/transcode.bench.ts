import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { createMediaAdapter, MEDIA_DEFAULTS } from '../src/server/lib/media/media-adapter.ts';
import { probeVideo } from '../src/server/lib/media/probe.ts';
import { planRenditions, transcodeArguments, type TRenditionPlan } from '../src/server/lib/media/renditions.ts';
import { makeClip } from '../src/testing/media.ts';
import { ms, percentile, type TBenchmark, type TBenchRow } from './support.ts';

const CLIP_SECONDS = 20;
const ROUNDS = 3;

/**
 * ffmpeg with the given arguments, at the job's niceness, nothing else around it; answers its wall
 * time and the CPU time it used (bash's `times`), which other work on the machine does not inflate.
 */
function bareFfmpeg(args: string[]): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const script = '"$@" >/dev/null || exit $?; times';
  const child = spawn('bash', ['-c', script, 'bare', 'nice', '-n', String(MEDIA_DEFAULTS.niceness), 'ffmpeg', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let times = '';
  child.stdout.on('data', (chunk: Buffer) => (times += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg exited with ${code}`));
      // The second line holds the children's user and system time, as "1m2.345s 0m0.120s".
      const seconds = (times.trim().split('\n')[1] ?? '').split(' ').map((field) => {
        const [, minutes, rest] = /^(\d+)m([\d.]+)s$/.exec(field) ?? [];
        return Number(minutes) * 60 + Number(rest);
      });
      resolve({ wallMs: performance.now() - started, cpuMs: (seconds[0]! + seconds[1]!) * 1000 });
    });
  });
}

async function emptied(dir: string) {
  for (const name of await readdir(dir)) await rm(path.join(dir, name), { force: true });
}

/**
 * The transcode's wall time against the bare ffmpeg command it runs (the same
 * arguments, so the ratio is what probing, progress, checking and renaming add), its speed as a
 * multiple of real time, and the single run against one run per rendition. Rounds alternate so
 * a change in the machine's load touches both sides alike.
 */
export const transcodeBenchmark: TBenchmark = {
  name: 'Training video transcode',
  async run(): Promise<TBenchRow[]> {
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-bench-transcode-'));
    const out = path.join(dir, 'out');
    try {
      const clip = await makeClip(dir, 'lecture.mp4', { width: 1280, height: 720, seconds: CLIP_SECONDS, audio: true });
      const media = createMediaAdapter();
      const source = await probeVideo('ffprobe', clip, { niceness: 0, timeoutMs: 30_000 });
      const plans = planRenditions(source);
      const argumentsFor = (chosen: TRenditionPlan[], round: number) =>
        transcodeArguments({
          sourceFile: clip,
          source,
          outputs: chosen.map((plan) => ({ plan, file: path.join(out, `bare-${round}-${plan.height}.mp4`) })),
          poster: { file: path.join(out, `bare-${round}-${chosen[0]!.height}.jpg`), atSeconds: source.durationSeconds / 10 },
          preset: MEDIA_DEFAULTS.preset,
        });
      await media.transcode(clip, out); // warm the page cache and the libraries
      await emptied(out);

      const library: number[] = [];
      const bare: number[] = [];
      const bareCpu: number[] = [];
      const perRendition: number[] = [];
      const perRenditionCpu: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const single = await bareFfmpeg(argumentsFor(plans, round));
        bare.push(single.wallMs);
        bareCpu.push(single.cpuMs);
        await emptied(out);
        const started = performance.now();
        await media.transcode(clip, out);
        library.push(performance.now() - started);
        await emptied(out);
        const passes = [];
        for (const plan of plans) passes.push(await bareFfmpeg(argumentsFor([plan], round)));
        perRendition.push(passes.reduce((sum, pass) => sum + pass.wallMs, 0));
        perRenditionCpu.push(passes.reduce((sum, pass) => sum + pass.cpuMs, 0));
        await emptied(out);
      }

      const median = (values: number[]) => percentile(values, 50);
      const ratio = median(library) / median(bare);
      return [
        { figure: 'clip', value: `${CLIP_SECONDS} s, 1280×720 at 25 fps with AAC sound`, note: `renditions ${plans.map((plan) => `${plan.height}p`).join(' + ')} and a poster, x264 ${MEDIA_DEFAULTS.preset}` },
        { figure: 'transcode (media adapter), wall time', value: ms(median(library)), note: `median of ${ROUNDS}: ${library.map(ms).join(', ')}` },
        { figure: 'bare ffmpeg, same arguments, wall time', value: ms(median(bare)), note: `median of ${ROUNDS}: ${bare.map(ms).join(', ')}; both at nice ${MEDIA_DEFAULTS.niceness}` },
        { figure: 'transcode / bare ffmpeg', value: ratio.toFixed(3), note: 'aim ≤ 1.15' },
        { figure: 'speed', value: `${(CLIP_SECONDS / (median(library) / 1000)).toFixed(2)}× real time`, note: `${os.cpus().length} cores` },
        {
          figure: 'speed with the cores to itself',
          value: `${(CLIP_SECONDS / (median(bareCpu) / 1000 / os.cpus().length)).toFixed(2)}× real time`,
          note: 'estimated from the CPU time, for a machine busy with other work',
        },
        {
          figure: 'one ffmpeg run per rendition instead, wall time',
          value: ms(median(perRendition)),
          note: `${(median(perRendition) / median(bare)).toFixed(2)}× the single run`,
        },
        {
          figure: 'CPU time, single run / one run per rendition',
          value: `${ms(median(bareCpu))} / ${ms(median(perRenditionCpu))}`,
          note: `${(median(perRenditionCpu) / median(bareCpu)).toFixed(2)}× for separate runs`,
        },
        { figure: 'load average during the run', value: os.loadavg().map((load) => load.toFixed(1)).join(' / '), note: '1 / 5 / 15 min; other work on the machine slows both sides' },
      ];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
