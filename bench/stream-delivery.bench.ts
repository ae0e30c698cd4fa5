import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { openFileStorage } from '../src/server/lib/files/open-storage.ts';
import { sendStoredFile } from '../src/server/lib/files/send-file.ts';
import { makeClip } from '../src/testing/media.ts';
import { inTheForeground, NGINX, productionNginxConfig, withChildren } from '../src/testing/nginx.ts';
import { form, PNG } from '../src/testing/multipart.ts';
import { createTestBucket, startS3Server } from '../src/testing/storage.ts';
import { freePort, ms, startProcess, stopProcess, waitForOk, type TBenchmark, type TBenchRow } from './support.ts';
import { staffSignIn } from '../src/testing/staff-sign-in.ts';

/*
 * 256 KiB Range requests of one training video's rendition, same file, same connections, same run:
 * a bare Node file server (createReadStream), the portal sending the bytes itself
 * (STREAM_DELIVERY=node), nginx alone sending the file by sendfile, and the portal behind nginx
 * with STREAM_DELIVERY=x-accel (deploy/nginx.conf: the portal checks, nginx sends). Then the memory
 * of sending a large part from a bucket, piped. Decision 054.
 */
const OWNER = { email: 'bench-delivery@academy.example', password: 'Harbour-Pilot-2026' };
const RANGE = 'bytes=0-262143';
const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 6);
const ROUNDS = 2;
const MB = 1024 * 1024;
const BUCKET_PART_MB = Number(process.env.BENCH_DELIVERY_PART_MB ?? 512);

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function call(base: string, method: string, url: string, token?: string, body?: { payload: Buffer; headers: Record<string, string> }) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body?.headers ?? {}) },
    body: body ? new Uint8Array(body.payload) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return { json: JSON.parse(text) as Record<string, unknown>, cookies: res.headers.getSetCookie() };
}

async function startPortal(dataDir: string, delivery: 'node' | 'x-accel') {
  const port = await freePort();
  const child = startProcess('dist/server/index.js', {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    STREAM_DELIVERY: delivery,
    TRUST_PROXY: 'loopback',
  });
  // PGlite's migrations take tens of seconds on a busy machine.
  await waitForOk(`http://127.0.0.1:${port}/healthz`, performance.now(), 240_000);
  return { port, pid: child.pid!, base: `http://127.0.0.1:${port}`, stop: () => stopProcess(child) };
}

/** A course with one training part, transcoded; its largest rendition's link and the stream pass. */
async function preparePart(base: string, clipDir: string) {
  let token = '';
  for (let i = 0; i < 100 && !token; i += 1) {
    token = await staffSignIn(base, OWNER)
      .then((answer) => String(answer.accessToken))
      .catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return '';
      });
  }
  const course = await call(base, 'POST', '/api/courses', token, form([
    { name: 'title', value: 'Delivery bench course' },
    { name: 'description', value: 'A course for measuring how streams are sent.' },
    { name: 'duration', value: '2 days' },
    { name: 'price', value: '100' },
    { name: 'category', value: 'Safety' },
    { name: 'subject', value: '["Fire"]' },
    { name: 'courseImg', file: PNG, filename: 'course.png', type: 'image/png' },
  ]));
  const clip = readFileSync(await makeClip(clipDir, 'lesson.mp4', { width: 640, height: 360, seconds: 6, audio: true, grain: 30 }));
  await call(base, 'POST', '/api/trainingVideo', token, form([
    { name: 'courseId', value: (course.json.data as { _id: string })._id },
    { name: 'title', value: 'Delivery bench training' },
    { name: 'trainingVideo', file: clip, filename: 'lesson.mp4', type: 'video/mp4' },
  ]));
  const started = performance.now();
  for (;;) {
    const list = await call(base, 'GET', '/api/trainingVideo', token);
    const video = (list.json.data as Array<{ trainingVideo: Array<{ status: string; url: string | null }> }>).flatMap((set) => set.trainingVideo)[0];
    if (video?.status === 'failed') throw new Error('the bench clip failed to transcode');
    if (video?.status === 'ready' && video.url) {
      const pass = list.cookies.find((cookie) => cookie.startsWith('stream_pass='))!.split(';')[0]!;
      return { url: video.url, pass };
    }
    if (performance.now() - started > 300_000) throw new Error('the bench clip was not ready in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The yardstick: a bare Node Range file server for the same file (createReadStream, no checks), in
 * a process of its own as the others are, not beside autocannon in this one.
 */
const BARE_SERVER = `
const { createReadStream, statSync } = require('node:fs');
const file = process.argv[1];
const size = statSync(file).size;
const server = require('node:http').createServer((req, res) => {
  const match = /bytes=(\\d+)-(\\d+)/.exec(req.headers.range || '');
  const start = match ? Number(match[1]) : 0;
  const end = match ? Math.min(Number(match[2]), size - 1) : size - 1;
  res.writeHead(match ? 206 : 200, { 'content-type': 'video/mp4', 'content-length': end - start + 1, 'accept-ranges': 'bytes', 'content-range': 'bytes ' + start + '-' + end + '/' + size });
  createReadStream(file, { start, end }).pipe(res);
});
server.listen(Number(process.argv[2]), '127.0.0.1');
`;

async function bareNodeServer(file: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, file, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForOk(`http://127.0.0.1:${port}/`, performance.now(), 30_000);
  return { port, pid: child.pid!, stop: () => stopProcess(child) };
}

/** CPU milliseconds (user + system) the processes have used so far, from /proc. */
function cpuMs(pids: number[]): number {
  const tick = 1000 / 100;
  return pids.reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      return sum;
    }
  }, 0);
}

function startNginx(config: string, workDir: string, name: string): ChildProcess {
  const file = path.join(workDir, `${name}.conf`);
  writeFileSync(file, config);
  return spawn(NGINX!, ['-c', file, '-p', workDir], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** nginx alone: the same file by sendfile, as deploy/nginx.conf's internal location sends it. */
function nginxAloneConfig(file: string, port: number, workDir: string): string {
  return inTheForeground(`worker_processes auto;
pid ${workDir}/alone.pid;
error_log ${workDir}/alone-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${workDir}/alone-body; proxy_temp_path ${workDir}/alone-proxy; fastcgi_temp_path ${workDir}/alone-fastcgi; uwsgi_temp_path ${workDir}/alone-uwsgi; scgi_temp_path ${workDir}/alone-scgi;
  server {
    listen 127.0.0.1:${port};
    location = /video { alias ${file}; default_type video/mp4; max_ranges 1; }
  }
}
`);
}

type TServerFigure = { rps: number[]; p99: number[]; loads: string[]; cpuUs: number[]; errors: number };

async function rangeLoad(url: string, headers: Record<string, string>, pids: () => number[], figure: TServerFigure) {
  const loadBefore = load();
  const cpuBefore = cpuMs(pids());
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { range: RANGE, ...headers } });
  figure.cpuUs.push(((cpuMs(pids()) - cpuBefore) * 1000) / Math.max(1, result.requests.total));
  figure.rps.push(result.requests.average);
  figure.p99.push(result.latency.p99);
  figure.loads.push(loadBefore);
  figure.errors += result.errors + result.non2xx;
}

/** Checks once that a server answers the range with the file's very bytes. */
async function checkBytes(url: string, headers: Record<string, string>, file: Buffer, label: string) {
  const res = await fetch(url, { headers: { range: RANGE, ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 206 || !body.equals(file.subarray(0, 262144))) throw new Error(`${label}: ${res.status}, not the file's first 256 KiB`);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Peak growth of this process's resident memory while `work` runs (MiB). */
async function peakGrowth(work: () => Promise<void>): Promise<number> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return (peak - base) / MB;
}

/** A large part in a bucket sent by sendStoredFile: whole and ranged, to a fast and to a stalled reader. */
async function bucketMemory(): Promise<TBenchRow[]> {
  const s3 = await startS3Server();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-delivery-s3-'));
  const files = await openFileStorage({ storageUrl: await createTestBucket(s3.endpoint), dataDir });
  const app = Fastify();
  try {
    const head = readFileSync(await makeClip(dataDir, 'head.mp4', { width: 64, height: 64, seconds: 1 })).subarray(0, 4096);
    const filler = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const stored = await files.save(
      'trainingVideo',
      new Readable({
        read() {
          if (sent >= BUCKET_PART_MB * MB) return this.push(null);
          this.push(sent === 0 ? Buffer.concat([head, filler.subarray(head.length)]) : filler);
          sent += MB;
        },
      }),
      { maxBytes: (BUCKET_PART_MB + 1) * MB, kinds: ['mp4'] },
    );
    app.get('/part', (request, reply) =>
      sendStoredFile(files, request, reply, { area: 'trainingVideo', name: stored.name, mime: 'video/mp4', downloadName: 'part.mp4', image: false }, 'private, max-age=600'),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/part`;
    const drain = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

    global.gc?.();
    let wholeMs = 0;
    const whole = await peakGrowth(async () => {
      const started = performance.now();
      const res = await fetch(url);
      await pipeline(Readable.fromWeb(res.body as never), drain());
      wholeMs = performance.now() - started;
    });
    const ranged = await peakGrowth(async () => {
      const res = await fetch(url, { headers: { range: `bytes=${64 * MB}-${128 * MB - 1}` } });
      await pipeline(Readable.fromWeb(res.body as never), drain());
    });
    // A reader that takes the first bytes and then stalls for 3 s: the bucket's answer must wait
    // with it, not be read into memory.
    const stalled = await peakGrowth(async () => {
      const res = await fetch(url);
      const reader = res.body!.getReader();
      await reader.read();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await reader.cancel();
    });
    return [
      {
        figure: `Bucket part of ${BUCKET_PART_MB} MiB sent whole by the portal (piped ranged GET)`,
        value: `+${whole.toFixed(0)} MiB RSS at most`,
        note: `${Math.round((BUCKET_PART_MB / wholeMs) * 1000)} MiB/s from s3rver on this machine; the bench process holds s3rver, the SDK and the server`,
      },
      { figure: 'Bucket part: a 64 MiB Range', value: `+${ranged.toFixed(0)} MiB RSS at most`, note: 'piped as it comes' },
      { figure: 'Bucket part: a reader that stalls for 3 s', value: `+${stalled.toFixed(0)} MiB RSS at most`, note: 'backpressure holds the bucket\'s answer; nothing of the part is buffered whole' },
    ];
  } finally {
    await app.close();
    await files.close();
    await s3.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const streamDeliveryBenchmark: TBenchmark = {
  name: 'Stream delivery by sendfile',
  async run(): Promise<TBenchRow[]> {
    const rows: TBenchRow[] = [];
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-delivery-'));
    const workDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-nginx-'));
    const stops: Array<() => unknown> = [];
    try {
      if (!NGINX) throw new Error('nginx is not installed: scripts/ensure-test-tools.sh installs it');
      // The part is made once; the x-accel portal runs on a copy of the data folder (the same
      // database, secret, session and files: PGlite's folder is one process's), both at once.
      const maker = await startPortal(dataDir, 'node');
      const { url, pass } = await preparePart(maker.base, workDir);
      await maker.stop();
      const accelDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-delivery-accel-'));
      stops.push(() => rmSync(accelDir, { recursive: true, force: true }));
      const copied = spawnSync('cp', ['-a', `${dataDir}/.`, accelDir], { encoding: 'utf8' });
      if (copied.status !== 0) throw new Error(`copying the data folder failed: ${copied.stderr}`);
      const nodePortal = await startPortal(dataDir, 'node');
      stops.push(nodePortal.stop);
      const accelPortal = await startPortal(accelDir, 'x-accel');
      stops.push(accelPortal.stop);

      const accel = await fetch(`${accelPortal.base}${url}`, { headers: { range: RANGE, cookie: pass } });
      await accel.arrayBuffer();
      const internal = accel.headers.get('x-accel-redirect');
      if (!internal) throw new Error(`the portal in x-accel mode named no file (${accel.status})`);
      const filePath = path.join(accelDir, 'files', internal.replace(/^\/internal\/files\//, ''));
      const file = readFileSync(filePath);
      if (file.length < 262144) throw new Error(`the rendition is only ${file.length} bytes`);

      const bare = await bareNodeServer(filePath);
      stops.push(bare.stop);
      const alonePort = await freePort();
      const alone = startNginx(nginxAloneConfig(filePath, alonePort, workDir), workDir, 'alone');
      stops.push(() => stopProcess(alone));
      const frontPort = await freePort();
      const front = startNginx(productionNginxConfig({ portalPort: accelPortal.port, port: frontPort, dataDir: accelDir, runDir: workDir, name: 'front' }), workDir, 'front');
      stops.push(() => stopProcess(front));
      await waitForOk(`http://127.0.0.1:${frontPort}/healthz`, performance.now(), 30_000);

      await waitForOk(`http://127.0.0.1:${alonePort}/video`, performance.now(), 30_000);
      const servers: Array<{ label: string; url: string; headers: Record<string, string>; pids: () => number[] }> = [
        { label: 'bare Node file server (createReadStream)', url: `http://127.0.0.1:${bare.port}/`, headers: {}, pids: () => [bare.pid] },
        { label: 'portal, STREAM_DELIVERY=node', url: `${nodePortal.base}${url}`, headers: { cookie: pass }, pids: () => [nodePortal.pid] },
        { label: 'nginx alone, sendfile', url: `http://127.0.0.1:${alonePort}/video`, headers: {}, pids: () => withChildren(alone.pid!) },
        { label: 'portal behind nginx, STREAM_DELIVERY=x-accel', url: `http://127.0.0.1:${frontPort}${url}`, headers: { cookie: pass }, pids: () => [accelPortal.pid, ...withChildren(front.pid!)] },
      ];
      for (const server of servers) await checkBytes(server.url, server.headers, file, server.label);
      const figures = servers.map((): TServerFigure => ({ rps: [], p99: [], loads: [], cpuUs: [], errors: 0 }));
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [i, server] of servers.entries()) await rangeLoad(server.url, server.headers, server.pids, figures[i]!);
      }
      const bareRps = mean(figures[0]!.rps);
      const aloneRps = mean(figures[2]!.rps);
      for (const [i, server] of servers.entries()) {
        const figure = figures[i]!;
        rows.push({
          figure: `256 KiB Range requests/s: ${server.label}`,
          value: `${Math.round(mean(figure.rps))} req/s`,
          note: `${(mean(figure.rps) / bareRps).toFixed(2)} × bare Node, ${(mean(figure.rps) / aloneRps).toFixed(2)} × nginx alone; server CPU per answer ${figure.cpuUs.map((us) => `${Math.round(us)} µs`).join(' / ')} (bare Node ${Math.round(mean(figures[0]!.cpuUs))} µs); rounds ${figure.rps.map((rps) => Math.round(rps)).join(' / ')}; p99 ${figure.p99.map((p99) => ms(p99)).join(' / ')}; errors ${figure.errors}; load before each ${figure.loads.join(' | ')}`,
        });
      }
      rows.push({
        figure: 'Range measurement',
        value: `${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds each, alternating`,
        note: `the same ${(file.length / MB).toFixed(1)} MiB rendition file, ${RANGE}; autocannon on the same 2 cores as the servers; nginx with worker_processes auto`,
      });
    } finally {
      for (const stop of stops.reverse()) await stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    }
    rows.push(...(await bucketMemory()));
    return rows;
  },
};
