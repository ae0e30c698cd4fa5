import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { createMediaAdapter } from '../src/server/lib/media/media-adapter.ts';
import { planRenditions } from '../src/server/lib/media/renditions.ts';
import { TEST_PASSWORD, TEST_PASSWORD_HASH } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { processStat } from '../src/testing/proc-stat.ts';
import { seedCatalogue } from './courses.bench.ts';
import { startNginxFront } from './nginx-front.ts';
import { loopTo } from './offline.bench.ts';
import { BENCH_DATABASE_URL, freePort, percentile, startBareFastify, startProcess, stopProcess, waitForOk, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';
import type { TViewersConfig, TViewersProgress, TViewersResult, TViewerSpec } from './viewer-clients.ts';

/*
 * A fleet watching at once: BENCH_VIEWERS learners (1 000 unless told), each signed in with a
 * session and stream pass of its own and enrolled (approved) in a course whose part is a real 360p
 * rendition at the caps of decision 050, play the whole part together, as browsers' media elements
 * do, from a process of their own on this machine's loopback. Meanwhile /healthz and the catalogue
 * are timed every 100 ms, against the same figures timed idle just before; with nginx in front,
 * /healthz straight to the portal too (which of the two a tail comes from); and, as a control, a
 * bare Fastify hello-world that serves nothing else (what the machine does to any server's tail).
 *
 *   BENCH_VIEWERS=1000                viewers
 *   BENCH_VIEWERS_PART_SECONDS=180    the part's length (a 30 s transcode looped)
 *   BENCH_VIEWERS_RAMP_SECONDS=30     the viewers press play spread over this long
 *   BENCH_VIEWERS_HEARTBEATS=1        0: no watch reports (the media alone)
 *   BENCH_VIEWERS_RANGES=chunked      or 'open': one `bytes=a-` request per viewer, paused when the buffer is full
 *   BENCH_VIEWERS_CLIENT_NICE=0       the viewers' process's nice value
 *   BENCH_VIEWERS_DELIVERY=node       or 'x-accel': nginx (deploy/nginx.conf) in front sends the files by sendfile
 */
const env = process.env;
const VIEWERS = Number(env.BENCH_VIEWERS ?? 1000);
const PART_SECONDS = Number(env.BENCH_VIEWERS_PART_SECONDS ?? 180);
const RAMP_SECONDS = Number(env.BENCH_VIEWERS_RAMP_SECONDS ?? 30);
const HEARTBEATS = env.BENCH_VIEWERS_HEARTBEATS !== '0';
const MODE: TViewersConfig['mode'] = env.BENCH_VIEWERS_RANGES === 'open' ? 'open' : 'chunked';
const CLIENT_NICE = Number(env.BENCH_VIEWERS_CLIENT_NICE ?? 0);
const X_ACCEL = env.BENCH_VIEWERS_DELIVERY === 'x-accel';
/** The player's buffer: Chromium reads a progressive MP4 ahead by about this much, then holds the connection. */
const BUFFER_SECONDS = 30;
const CHUNK_BYTES = 1024 * 1024;
/** Chromium plays (and plays again after a stall) once a couple of seconds are buffered ahead. */
const RESUME_SECONDS = 2;
const PROBE_EVERY_MS = 100;
/** 600 idle probes: the idle p99 of 300 swung from 2.3 to 10 ms between two quiet runs, and with it the ratio. */
const IDLE_SECONDS = 60;
/** Source addresses on loopback: a ship's crew comes from many, and sign-ins are limited per address. */
const ADDRESSES = 100;
const LOGINS_AT_ONCE = 8;

const addressOf = (index: number) => `127.0.0.${2 + (index % ADDRESSES)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const f = (value: number) => value.toFixed(value < 10 ? 1 : 0);
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');

/** A 360p part at the caps: camera-like footage (grain every frame) transcoded as the portal does, looped to PART_SECONDS. */
async function makePart(dir: string, videoDir: string) {
  const camera = await makeClip(dir, 'camera.mp4', { width: 640, height: 360, seconds: 30, audio: true, grain: 16 });
  const made = await createMediaAdapter().transcode(camera, path.join(dir, 'out'), { heights: [360] });
  const file = `${randomUUID()}.mp4`;
  await mkdir(videoDir, { recursive: true });
  await loopTo(path.join(dir, 'out', made.renditions[0]!.file), path.join(videoDir, file), PART_SECONDS);
  await chmod(path.join(videoDir, file), 0o600);
  const poster = `${randomUUID()}.jpg`;
  await copyFile(path.join(dir, 'out', made.poster), path.join(videoDir, poster));
  await chmod(path.join(videoDir, poster), 0o600);
  const bytes = (await stat(path.join(videoDir, file))).size;
  return { file, poster, bytes, path: path.join(videoDir, file) };
}

/** The catalogue, the course with its one part, and the viewers: learners with approved enrolments. */
async function seed(sql: postgres.Sql, part: { file: string; poster: string; bytes: number }) {
  await seedCatalogue(sql);
  const [course] = await sql<{ id: string }[]>`
    insert into courses (title, description, duration, price, category, subjects, is_active)
    values ('Fleet drill', 'The course a whole fleet watches.', '1 day', 100, 'Safety', '["Fire"]'::jsonb, true) returning id`;
  const [set] = await sql<{ id: string }[]>`insert into training_video_sets (course_id, title) values (${course!.id}, 'Fleet drill') returning id`;
  const renditions = [{ height: 360, file: part.file, bitrateKbps: Math.round((part.bytes * 8) / PART_SECONDS / 1000) }];
  const [video] = await sql<{ id: string }[]>`
    insert into training_videos (set_id, serial, original_name, source_file, status, duration_seconds, renditions, poster_file)
    values (${set!.id}, 1, 'Part 1', ${`${randomUUID()}.mp4`}, 'ready', ${PART_SECONDS}, ${sql.json(renditions)}, ${part.poster}) returning id`;
  const users = await sql<{ id: string; email: string }[]>`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
    select 'Mr', 'Fleet', 'Viewer ' || i, '9876543210', 'viewer-' || i || '@fleet.example', ${TEST_PASSWORD_HASH}, 'learner', now(), now()
    from generate_series(1, ${VIEWERS}) i returning id, email`;
  await sql`
    insert into enrolments (user_id, course_id, status, decided_at)
    select u.id, ${course!.id}, 'approved', now() from unnest(${users.map((user) => user.id)}::uuid[]) as u(id)`;
  return { courseId: course!.id, videoId: video!.id, emails: users.map((user) => user.email) };
}

const agents = new Map<string, Agent>();
function agentFor(from: string) {
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new Agent({ localAddress: from, connections: 4 })));
  return agent;
}

/** Each viewer signs in (argon2, as a person does) from its address and fetches its player: the stream link and pass. */
async function signIn(base: string, email: string, index: number, courseId: string): Promise<Omit<TViewerSpec, 'startAfterMs'>> {
  const from = addressOf(index);
  const dispatcher = agentFor(from);
  const login = await request(`${base}/api/user/login`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  const session = (await login.body.json()) as { accessToken?: string };
  if (login.statusCode !== 200 || !session.accessToken) throw new Error(`login of ${email} answered ${login.statusCode}`);
  const player = await request(`${base}/api/trainingVideo/${courseId}`, { dispatcher, headers: { authorization: `Bearer ${session.accessToken}` } });
  const answer = (await player.body.json()) as { data: { trainingVideo: Array<{ _id: string; url: string | null }> } };
  const setCookie = player.headers['set-cookie'];
  const pass = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).find((cookie) => cookie.startsWith('stream_pass='));
  const video = answer.data.trainingVideo[0];
  if (player.statusCode !== 200 || !pass || !video?.url) throw new Error(`the player of ${email} answered ${player.statusCode} without a link and pass`);
  return { from, url: video.url, cookie: pass.split(';')[0]!, token: session.accessToken, videoId: video._id };
}

async function pool<T>(count: number, width: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

/** Times GET `url` every PROBE_EVERY_MS, one at a time, until stopped: what an administrator's screen waits for. */
function probe(url: string) {
  const dispatcher = new Agent({ connections: 1 });
  const times: number[] = [];
  let errors = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const answer = await request(url, { dispatcher });
        await answer.body.dump();
        if (answer.statusCode !== 200) errors += 1;
        times.push(performance.now() - started);
      } catch {
        errors += 1;
      }
      await sleep(Math.max(0, PROBE_EVERY_MS - (performance.now() - started)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await dispatcher.close();
      return { times, errors };
    },
  };
}

function cpuSeconds(pid: number | undefined) {
  try {
    return pid ? processStat(pid).cpuSeconds : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds of each PostgreSQL process on the machine (other databases' work included), by pid. */
function postgresCpu() {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), processStat(Number(entry)).cpuSeconds);
    } catch {
      // Gone meanwhile.
    }
  }
  return byPid;
}

/** What PostgreSQL's processes used between two readings: those started since count whole, those ended since are not seen. */
function postgresCpuSince(before: Map<number, number>) {
  let total = 0;
  for (const [pid, seconds] of postgresCpu()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/**
 * The machine's CPU seconds from /proc/stat (Linux; ticks of 1/100 s): busy, idle, and stolen (time
 * this virtual machine's cores were ready to run but its host ran something else).
 */
function machineCpu() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) as number[];
    return { busy: (user! + nice! + system! + irq! + softirq!) / 100, idle: (idle! + iowait!) / 100, steal: (steal ?? 0) / 100 };
  } catch {
    const cores = os.cpus();
    const sum = (pick: (times: os.CpuInfo['times']) => number) => cores.reduce((total, core) => total + pick(core.times), 0) / 1000;
    return { busy: sum((t) => t.user + t.nice + t.sys + t.irq), idle: sum((t) => t.idle), steal: 0 };
  }
}

/** The viewers' own process: the configuration in, progress and the result out. */
function runClients(config: TViewersConfig) {
  const child = fork(path.join(import.meta.dirname, 'viewer-clients.ts'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (CLIENT_NICE) os.setPriority(child.pid!, CLIENT_NICE);
  const done = new Promise<TViewersResult>((resolve, reject) => {
    child.on('message', (message: { progress?: TViewersProgress; result?: TViewersResult }) => {
      if (message.progress) {
        const p = message.progress;
        process.stderr.write(`  ${p.at} s: ${p.started} started, ${p.playing} playing, ${p.stalled} stalled, ${p.done} done, ${(p.bytes / 1e6).toFixed(0)} MB, ${p.errors} errors · load ${load()}\n`);
      }
      if (message.result) resolve(message.result);
    });
    child.once('exit', (code) => reject(new Error(`the viewers' process exited ${code} without a result`)));
  });
  child.send(config);
  return { pid: child.pid!, done };
}

export const viewersBenchmark: TBenchmark = {
  name: 'A fleet watching at once',
  async run(): Promise<TBenchRow[]> {
    if (!BENCH_DATABASE_URL) return [{ figure: `${VIEWERS} concurrent 360p viewers`, value: 'not run', note: 'needs BENCH_DATABASE_URL or TEST_DATABASE_URL' }];
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-bench-viewers-'));
    try {
      const dataDir = path.join(dir, 'data');
      const part = await makePart(dir, path.join(dataDir, 'files', 'trainingVideo'));
      const kbps = (part.bytes * 8) / PART_SECONDS / 1000;
      const plan = planRenditions({ width: 640, height: 360 }).find((rendition) => rendition.height === 360)!;
      return await withFreshPostgres(BENCH_DATABASE_URL!, async (databaseUrl) => {
        const bare = await startBareFastify();
        const port = await freePort();
        const portal = startProcess('dist/server/index.js', {
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          ...(X_ACCEL ? { STREAM_DELIVERY: 'x-accel', TRUST_PROXY: '1' } : {}),
        });
        const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
        let front: Awaited<ReturnType<typeof startNginxFront>> | undefined;
        try {
          await waitForOk(`http://127.0.0.1:${port}/readyz`, performance.now(), 120_000);
          front = X_ACCEL ? await startNginxFront({ portalPort: port, dataDir, workDir: path.join(dir, 'nginx') }) : undefined;
          const base = `http://127.0.0.1:${front?.port ?? port}`;
          const seeded = await seed(sql, part);

          // Sign-ins: every viewer a session of its own.
          const signInStarted = performance.now();
          const specs = await pool(VIEWERS, LOGINS_AT_ONCE, (index) => signIn(base, seeded.emails[index]!, index, seeded.courseId));
          const signInSeconds = (performance.now() - signInStarted) / 1000;
          await Promise.all([...agents.values()].map((agent) => agent.close()));
          agents.clear();

          // Idle figures.
          await sleep(2000);
          const loadIdle = load();
          // With nginx in front, /healthz is also asked of the portal straight: which of the two a tail comes from.
          const straight = front ? `http://127.0.0.1:${port}/healthz` : undefined;
          // The control: a bare Fastify hello-world on the same cores, doing nothing else. What its p99
          // does during the run, the machine does to any server.
          const controlUrl = `${bare.base}/api/site-config`;
          const idleProbes = [probe(`${base}/healthz`), probe(`${base}/api/courses/active`), probe(controlUrl), ...(straight ? [probe(straight)] : [])];
          await sleep(IDLE_SECONDS * 1000);
          const [idleHealth, idleCatalogue, idleControl, idleStraight] = await Promise.all(idleProbes.map((one) => one.stop()));

          // The fleet plays.
          const config: TViewersConfig = {
            base,
            file: part.path,
            durationSeconds: PART_SECONDS,
            mode: MODE,
            chunkBytes: CHUNK_BYTES,
            bufferSeconds: BUFFER_SECONDS,
            resumeSeconds: RESUME_SECONDS,
            heartbeatSeconds: HEARTBEATS ? 10 : 0,
            giveUpMs: (RAMP_SECONDS + PART_SECONDS * 2 + 60) * 1000,
            viewers: specs.map((spec, index) => ({ ...spec, startAfterMs: (index / VIEWERS) * RAMP_SECONDS * 1000 })),
          };
          const busyProbes = [probe(`${base}/healthz`), probe(`${base}/api/courses/active`), probe(controlUrl), ...(straight ? [probe(straight)] : [])];
          const machineBefore = machineCpu();
          const portalBefore = cpuSeconds(portal.pid);
          const nginxCpu = () => (front ? front.pids().reduce((total, pid) => total + cpuSeconds(pid), 0) : 0);
          const nginxBefore = nginxCpu();
          const postgresBefore = postgresCpu();
          const benchBefore = process.cpuUsage();
          const clients = runClients(config);
          const clientsBefore = cpuSeconds(clients.pid);
          let peakLoad = 0;
          let clientsCpu = clientsBefore;
          const sampler = setInterval(() => {
            peakLoad = Math.max(peakLoad, os.loadavg()[0]!);
            clientsCpu = Math.max(clientsCpu, cpuSeconds(clients.pid));
          }, 1000);
          const started = performance.now();
          const result = await clients.done.finally(() => clearInterval(sampler));
          const seconds = (performance.now() - started) / 1000;
          const [busyHealth, busyCatalogue, busyControl, busyStraight] = await Promise.all(busyProbes.map((one) => one.stop()));
          const machineAfter = machineCpu();
          const portalCpu = cpuSeconds(portal.pid) - portalBefore;
          const frontCpu = nginxCpu() - nginxBefore;
          const databaseCpu = postgresCpuSince(postgresBefore);
          const benchCpu = process.cpuUsage(benchBefore);
          const clientCpu = clientsCpu - clientsBefore;
          const machineBusy = machineAfter.busy - machineBefore.busy;
          const machineShare = machineBusy / (machineBusy + machineAfter.idle - machineBefore.idle);
          const loadAfter = load();

          const errors = Object.entries(result.errors);
          const longestStall = result.stallsMs.length ? Math.max(...result.stallsMs) : 0;
          const apiRow = (name: string, idle: { times: number[]; errors: number }, busy: { times: number[]; errors: number }): TBenchRow => {
            const ratio = percentile(busy.times, 99) / percentile(idle.times, 99);
            return {
              figure: `${name} p99 while the fleet watches, against idle`,
              value: `${f(percentile(busy.times, 99))} ms vs ${f(percentile(idle.times, 99))} ms (${ratio.toFixed(2)} ×)`,
              note: `aim ≤ 2 ×; p50 ${f(percentile(busy.times, 50))} vs ${f(percentile(idle.times, 50))} ms; ${busy.times.length} probes during, ${idle.times.length} idle (${IDLE_SECONDS} s, load ${loadIdle}), one every ${PROBE_EVERY_MS} ms; errors ${busy.errors + idle.errors}`,
            };
          };
          const mode = `${MODE === 'chunked' ? `Range requests of ${CHUNK_BYTES / 1024} KiB whenever less than ${BUFFER_SECONDS} s is buffered` : `one bytes=a- request each, read while less than ${BUFFER_SECONDS} s + a chunk is buffered, paused above`}; ${HEARTBEATS ? 'a watch report every 10 s of play (POST /api/trainingVideo/watched)' : 'no watch reports'}`;
          return [
            {
              figure: `${VIEWERS} concurrent 360p viewers: stalls`,
              value: `${result.stallsMs.length} stalls in ${result.viewersWithStalls} viewers; longest ${f(longestStall)} ms`,
              note: `aim: none longer than the player's ${BUFFER_SECONDS} s buffer; stalls p99 ${result.stallsMs.length ? f(percentile(result.stallsMs, 99)) : 0} ms; ${result.finished} of ${VIEWERS} played to the end in ${f(seconds)} s; start-up p50 ${f(percentile(result.startupMs, 50))} ms, p99 ${f(percentile(result.startupMs, 99))} ms`,
            },
            {
              figure: `${VIEWERS} concurrent 360p viewers: bytes`,
              value: `${result.bytesReceived.toLocaleString('en')} of ${result.bytesExpected.toLocaleString('en')} (${result.complete} viewers whole)`,
              note: `each byte compared with the file: ${result.mismatchedChunks} pieces differed; ${result.mediaRequests} media requests, headers p50 ${f(percentile(result.mediaHeadersMs, 50))} ms p99 ${f(percentile(result.mediaHeadersMs, 99))} ms, whole ${MODE === 'chunked' ? 'chunk' : 'request'} p99 ${f(percentile(result.mediaWholeMs, 99))} ms; errors ${errors.length ? errors.map(([kind, count]) => `${count}× ${kind}`).join(', ') : 0}`,
            },
            {
              figure: 'The part the fleet watches',
              value: `${PART_SECONDS} s, ${(part.bytes / 1e6).toFixed(1)} MB, ${f(kbps)} kb/s`,
              note: `camera-like footage transcoded to 360p as the portal does (caps ${plan.videoMaxKbps} + ${plan.audioKbps} kb/s), looped; ${(((VIEWERS * part.bytes * 8) / PART_SECONDS) / 1e6).toFixed(0)} Mb/s for the fleet at play speed`,
            },
            { figure: 'How the viewers behave', value: `${MODE}, files sent by ${X_ACCEL ? 'nginx (sendfile, STREAM_DELIVERY=x-accel)' : 'the portal'}`, note: `${mode}; play starts and resumes with ${RESUME_SECONDS} s ahead; started over ${RAMP_SECONDS} s; each with its own session, stream pass, connection and one of ${ADDRESSES} loopback addresses` },
            apiRow('/healthz', idleHealth!, busyHealth!),
            apiRow('Catalogue (GET /api/courses/active, 50 courses)', idleCatalogue!, busyCatalogue!),
            ...(idleStraight && busyStraight ? [apiRow('/healthz straight to the portal (not through nginx)', idleStraight, busyStraight)] : []),
            apiRow('Control: a bare Fastify hello-world on the same cores, serving nothing else', idleControl!, busyControl!),
            ...(HEARTBEATS
              ? [{ figure: 'Watch reports during the run', value: `${result.heartbeatMs.length} sent, p50 ${f(percentile(result.heartbeatMs, 50))} ms, p95 ${f(percentile(result.heartbeatMs, 95))} ms, p99 ${f(percentile(result.heartbeatMs, 99))} ms`, note: `${(result.heartbeatMs.length / seconds).toFixed(0)} a second; errors counted with the bytes' above` }]
              : []),
            {
              figure: 'CPU while the fleet watches',
              value: `portal ${f((portalCpu / seconds) * 100)} % of a core${front ? `, nginx ${f((frontCpu / seconds) * 100)} %` : ''}, viewers ${f((clientCpu / seconds) * 100)} %`,
              note: `over ${f(seconds)} s: machine ${f(machineShare * 100)} % of ${os.cpus().length} cores busy; portal ${f(portalCpu)} core-s, viewers' process ${f(clientCpu)} core-s (on the same cores, forked${CLIENT_NICE ? ` at nice ${CLIENT_NICE}` : ''}), probes ${f((benchCpu.user + benchCpu.system) / 1e6)} core-s, ${front ? `nginx ${f(frontCpu)} core-s, ` : ''}PostgreSQL (all its databases, other work's included) ${f(databaseCpu)} core-s, the rest of the machine ${f(machineBusy - portalCpu - frontCpu - clientCpu - databaseCpu - (benchCpu.user + benchCpu.system) / 1e6)}; stolen by the host ${f(machineAfter.steal - machineBefore.steal)} core-s; load idle ${loadIdle}, after ${loadAfter}, peak 1-min ${peakLoad.toFixed(2)}`,
            },
            { figure: `${VIEWERS} sign-ins (argon2)`, value: `${f(signInSeconds)} s`, note: `${(VIEWERS / signInSeconds).toFixed(1)} a second, ${LOGINS_AT_ONCE} at once, each then fetching its player (link and stream pass)` },
          ];
        } finally {
          await sql.end();
          await front?.stop();
          await stopProcess(portal);
          await stopProcess(bare.process);
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
