import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { makeClip } from '../src/testing/media.ts';
import { form, PNG } from '../src/testing/multipart.ts';
import { freePort, ms, startProcess, stopProcess, waitForOk, type TBenchmark, type TBenchRow } from './support.ts';
import { staffSignIn } from '../src/testing/staff-sign-in.ts';

const OWNER = { email: 'bench-trainer@academy.example', password: 'Harbour-Pilot-2026' };
const MB = 1024 * 1024;

/** The stream pass the last answer set (a cookie the stream links need), as `name=value`. */
let streamPass = '';

async function json(port: number, method: string, url: string, token?: string, body?: { payload: Buffer; headers: Record<string, string> }) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body?.headers ?? {}) },
    body: body ? new Uint8Array(body.payload) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  const pass = res.headers.getSetCookie().find((cookie) => cookie.startsWith('stream_pass='));
  if (pass) streamPass = pass.split(';')[0]!;
  return JSON.parse(text) as Record<string, never>;
}

async function startPortal(dataDir: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const child = startProcess('dist/server/index.js', {
    ...extraEnv,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  });
  await waitForOk(`http://127.0.0.1:${port}/healthz`, performance.now());
  let token = '';
  for (let i = 0; i < 100 && !token; i += 1) {
    token = await staffSignIn(`http://127.0.0.1:${port}`, OWNER)
      .then((answer) => String(answer.accessToken))
      .catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return '';
      });
  }
  return { port, pid: child.pid!, token, stop: () => stopProcess(child) };
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The server's resident memory now (kB), from /proc. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

async function p99(url: string, seconds: number) {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  return { p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function waitForStatus(port: number, token: string, wanted: string, timeoutMs = 300_000) {
  const started = performance.now();
  for (;;) {
    const answer = (await json(port, 'GET', '/api/trainingVideo', token)) as unknown as { data: Array<{ trainingVideo: Array<{ status: string; url: string | null }> }> };
    const videos = answer.data.flatMap((set) => set.trainingVideo);
    if (videos.length > 0 && videos.every((video) => video.status === wanted || video.status === 'failed')) return { videos, ms: performance.now() - started };
    if (performance.now() - started > timeoutMs) throw new Error(`videos not ${wanted} in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A plain Range file server for the same file: the yardstick for the portal's streams. */
function plainRangeServer(file: string): Promise<{ server: Server; port: number }> {
  const size = statSync(file).size;
  const server = createServer((req, res) => {
    const match = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match ? Math.min(Number(match[2]), size - 1) : size - 1;
    res.writeHead(match ? 206 : 200, { 'content-type': 'video/mp4', 'content-length': end - start + 1, 'accept-ranges': 'bytes' });
    createReadStream(file, { start, end }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

/** Sends `bytes` of a video upload (a real MP4 header, then filler) without holding it in memory. */
function uploadLarge(port: number, token: string, courseId: string, head: Buffer, bytes: number) {
  const boundary = '----bench-boundary';
  const prefix = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="courseId"\r\n\r\n${courseId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nLarge upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="trainingVideo"; filename="large.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB, 0x20);
  async function* body() {
    yield prefix;
    yield head;
    let sent = head.length;
    while (sent < bytes) {
      const next = Math.min(MB, bytes - sent);
      yield next === MB ? chunk : chunk.subarray(0, next);
      sent += next;
    }
    yield suffix;
  }
  return new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/trainingVideo',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': prefix.length + bytes + suffix.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}

export const trainingBenchmark: TBenchmark = {
  name: 'Training videos',
  async run(): Promise<TBenchRow[]> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-training-'));
    const clipDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-clips-'));
    let portal = await startPortal(dataDir);
    const rows: TBenchRow[] = [];
    try {
      const { port, token } = portal;
      const course = (await json(port, 'POST', '/api/courses', token, form([
        { name: 'title', value: 'Bench course' },
        { name: 'description', value: 'A course for measuring training videos.' },
        { name: 'duration', value: '2 days' },
        { name: 'price', value: '100' },
        { name: 'category', value: 'Safety' },
        { name: 'subject', value: '["Fire"]' },
        { name: 'courseImg', file: PNG, filename: 'course.png', type: 'image/png' },
      ]))) as unknown as { data: { _id: string } };
      const courseId = course.data._id;

      // API latency idle, then while a 20 s 720p clip transcodes.
      const clip = readFileSync(await makeClip(clipDir, 'lesson.mp4', { width: 1280, height: 720, seconds: 20, audio: true }));
      const apiUrl = `http://127.0.0.1:${port}/api/courses/active`;
      const idle = await p99(apiUrl, 6);
      const started = performance.now();
      await json(port, 'POST', '/api/trainingVideo', token, form([
        { name: 'courseId', value: courseId },
        { name: 'title', value: 'Bench training' },
        { name: 'trainingVideo', file: clip, filename: 'lesson.mp4', type: 'video/mp4' },
      ]));
      const busy = await p99(apiUrl, 6);
      const ready = await waitForStatus(port, token, 'ready');
      const transcodeMs = performance.now() - started;
      rows.push(
        { figure: 'API p99 idle', value: ms(idle.p99), note: 'GET /api/courses/active, 10 connections, 6 s' },
        { figure: 'API p99 while a transcode runs', value: ms(busy.p99), note: `${(busy.p99 / idle.p99).toFixed(2)} × idle (aim ≤ 2); errors ${busy.errors}` },
        { figure: 'Upload to ready, 20 s 1280×720 clip', value: ms(transcodeMs), note: `${(20_000 / transcodeMs).toFixed(2)} × real time, upload included` },
      );

      // Range serving against a plain Node file server on the same rendition.
      const streamUrl = ready.videos[0]!.url!;
      // Both serve the first 256 KiB of a video file; which file does not change the cost.
      const plain = await plainRangeServer(path.join(clipDir, 'lesson.mp4'));
      try {
        const range = { range: 'bytes=0-262143' };
        const portalRange = await autocannon({ url: `http://127.0.0.1:${port}${streamUrl}`, connections: 20, duration: 6, headers: { ...range, cookie: streamPass } });
        const plainRange = await autocannon({ url: `http://127.0.0.1:${plain.port}/`, connections: 20, duration: 6, headers: range });
        rows.push({
          figure: 'Range requests of 256 KiB, portal vs plain file server',
          value: `${Math.round(portalRange.requests.average)} vs ${Math.round(plainRange.requests.average)} req/s`,
          note: `${(portalRange.requests.average / plainRange.requests.average).toFixed(2)} × plain; p99 ${ms(portalRange.latency.p99)} per Range request (plain ${ms(plainRange.latency.p99)}); the portal checks the viewer's stream pass, the link's signature, the session, enrolment and order per request; errors ${portalRange.errors + portalRange.non2xx}`,
        });
        const withoutPass = await autocannon({ url: `http://127.0.0.1:${port}${streamUrl}`, connections: 1, amount: 20, headers: range });
        rows.push({
          figure: 'The same link without the viewer\'s stream pass',
          value: `${withoutPass['4xx']} of ${withoutPass.requests.total} refused`,
          note: 'a copied link, as curl or another browser sends it',
        });
      } finally {
        plain.server.close();
      }

      // 200 concurrent streams of the smallest rendition.
      const sets = (await json(port, 'GET', '/trpc/training.sets', token)) as unknown as {
        result: { data: Array<{ videos: Array<{ sources: Array<{ height: number; url: string }> }> }> };
      };
      const smallest = sets.result.data[0]!.videos[0]!.sources.find((source) => source.height === 360)!.url;
      const streams = await autocannon({ url: `http://127.0.0.1:${port}${smallest}`, connections: 200, duration: 8, headers: { range: 'bytes=0-524287', cookie: streamPass } });
      rows.push({
        figure: '200 concurrent 360p streams (512 KiB ranges)',
        value: `${streams.errors + streams.non2xx} errors`,
        note: `${Math.round(streams.requests.average)} req/s, ${(streams.throughput.average / MB).toFixed(0)} MiB/s, p99 ${ms(streams.latency.p99)}`,
      });

      // Server memory while 1 GiB streams in.
      const baseline = rssKb(portal.pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssKb(portal.pid))), 50);
      const uploadStarted = performance.now();
      const status = await uploadLarge(port, token, courseId, clip.subarray(0, 4096), 1024 * MB);
      clearInterval(sampler);
      rows.push({
        figure: 'Server memory during a 1 GiB upload',
        value: `+${Math.round((peak - baseline) / 1024)} MiB RSS`,
        note: `baseline ${Math.round(baseline / 1024)} MiB; answered ${status} in ${ms(performance.now() - uploadStarted)}`,
      });

      // The stream check with its grants kept (decision 055) against asking the database on every
      // Range request (STREAM_GRANT_SECONDS=0, as before it): the same data, link and pass, the
      // portal restarted between rounds, two alternating rounds.
      const range = { range: 'bytes=0-262143', cookie: streamPass };
      const rounds: Record<'kept' | 'asked', Array<{ rps: number; p99: number; errors: number }>> = { kept: [], asked: [] };
      for (const round of [1, 2]) {
        for (const mode of ['asked', 'kept'] as const) {
          await portal.stop();
          portal = await startPortal(dataDir, mode === 'asked' ? { STREAM_GRANT_SECONDS: '0' } : {});
          const url = `http://127.0.0.1:${portal.port}${streamUrl}`;
          await autocannon({ url, connections: 20, duration: 2, headers: range });
          const measured = await autocannon({ url, connections: 20, duration: 6, headers: range });
          rounds[mode].push({ rps: measured.requests.average, p99: measured.latency.p99, errors: measured.errors + measured.non2xx });
          process.stdout.write(`  round ${round}, grants ${mode}: ${Math.round(measured.requests.average)} req/s, p99 ${ms(measured.latency.p99)}, load ${loadAverage()}\n`);
        }
      }
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      const kept = { rps: mean(rounds.kept.map((r) => r.rps)), p99: mean(rounds.kept.map((r) => r.p99)) };
      const asked = { rps: mean(rounds.asked.map((r) => r.rps)), p99: mean(rounds.asked.map((r) => r.p99)) };
      rows.push({
        figure: 'Range requests of 256 KiB, stream grants kept vs the database asked each time',
        value: `${Math.round(kept.rps)} vs ${Math.round(asked.rps)} req/s`,
        note: `${(kept.rps / asked.rps).toFixed(2)} ×; p99 ${ms(kept.p99)} vs ${ms(asked.p99)}; queries per Range request: 1 per part a minute vs 1; rounds ${rounds.asked.map((r, i) => `${Math.round(r.rps)}/${Math.round(rounds.kept[i]!.rps)}`).join(', ')} req/s; errors ${[...rounds.kept, ...rounds.asked].reduce((sum, r) => sum + r.errors, 0)}; load ${loadAverage()}`,
      });
    } finally {
      await portal.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(clipDir, { recursive: true, force: true });
    }
    return rows;
  },
};
