import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import postgres from 'postgres';
import type { Page } from 'playwright-core';
import { signInAs } from '../e2e/support/session.ts';
import { CHUNK_BYTES } from '../src/client/lib/offline/offline-db.ts';
import { createMediaAdapter } from '../src/server/lib/media/media-adapter.ts';
import { bytesPerHourAtCap, OFFLINE_BYTES_PER_HOUR, planRenditions } from '../src/server/lib/media/renditions.ts';
import { offlineRecordText, type TSignedRecordFields } from '../src/shared/offline-record.ts';
import type { TOfflinePackage, TOfflineSyncResult, TOfflineWatchRecord } from '../src/shared/schemas/offline.ts';
import { TEST_PASSWORD_HASH } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { makeLecture, SLIDE_SECONDS } from './lecture.ts';
import { launchChromium } from './page-load.ts';
import { BENCH_DATABASE_URL, freePort, startProcess, stopProcess, waitForOk, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';

const run = promisify(execFile);

/** The lecture sample transcoded: long enough for its rate to settle, short enough for a bench. */
const SAMPLE_SECONDS = 120;
/** The camera footage sample: its rate is the cap's, so a minute shows it. */
const CAMERA_SECONDS = 60;
/** Each part of the two-part course. */
const PART_SECONDS = 300;
/** The hour-long course whose offline watching is synced: this many parts of PART_SECONDS. */
const HOUR_PARTS = 3600 / PART_SECONDS;
/** The player keeps a record about this often while playing offline. */
const RECORD_SECONDS = 30;
/** At 400 kbit/s the whole course takes longer than a bench should: this many chunks are timed, the rest extrapolated. */
const SLOW_SAMPLE_CHUNKS = 4;

/** Two ship's links: a VSAT share, and a thinner one. */
const LINKS = [
  { name: '2 Mbit/s, 600 ms', latency: 600, bitsPerSecond: 2_000_000 },
  { name: '400 kbit/s, 400 ms', latency: 400, bitsPerSecond: 400_000 },
] as const;

const MB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** Loops `source` (an MP4) to `seconds` without re-encoding: a long part at the sample's rate. */
export async function loopTo(source: string, target: string, seconds: number) {
  await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-stream_loop', '-1', '-i', source, '-t', String(seconds), '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', target]);
}

type TPartFile = { file: string; poster: string; bytes: number; seconds: number };
type TSeeded = { email: string; twoPartCourseId: string; hourCourseId: string };

/**
 * A learner with approved enrolments in a two-part course and an hour-long one, whose parts are
 * ready with the 360p file given (as the transcode job leaves them).
 */
async function seed(databaseUrl: string, parts: TPartFile[]): Promise<TSeeded> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const course = async (title: string, videos: typeof parts) => {
      const [row] = await sql<{ id: string }[]>`
        insert into courses (title, description, duration, price, category, subjects, is_active)
        values (${title}, 'A course studied at sea.', '2 days', 100, 'Safety', '["Fire"]'::jsonb, true) returning id`;
      const [set] = await sql<{ id: string }[]>`insert into training_video_sets (course_id, title) values (${row!.id}, ${title}) returning id`;
      for (const [index, video] of videos.entries()) {
        const renditions = [{ height: 360, file: video.file, bitrateKbps: Math.round((video.bytes * 8) / video.seconds / 1000) }];
        await sql`
          insert into training_videos (set_id, serial, original_name, source_file, status, duration_seconds, renditions, poster_file)
          values (${set!.id}, ${index + 1}, ${`Part ${index + 1}`}, ${`${randomUUID()}.mp4`}, 'ready', ${video.seconds}, ${sql.json(renditions)}, ${video.poster})`;
      }
      return row!.id;
    };
    const twoPartCourseId = await course('Fire fighting at sea', parts.slice(0, 2));
    const hourCourseId = await course('Survival craft, the hour', Array.from({ length: HOUR_PARTS }, () => parts[0]!));
    const email = 'offline-learner@bench.example';
    const [user] = await sql<{ id: string }[]>`
      insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
      values ('Mr', 'Deck', 'Cadet', '9876543210', ${email}, ${TEST_PASSWORD_HASH}, 'learner', now(), now()) returning id`;
    for (const courseId of [twoPartCourseId, hourCourseId]) {
      await sql`insert into enrolments (user_id, course_id, status, decided_at) values (${user!.id}, ${courseId}, 'approved', now())`;
    }
    return { email, twoPartCourseId, hourCourseId };
  } finally {
    await sql.end();
  }
}

/** The app's tRPC call from the signed-in page (its answer sets the stream pass cookie the media links need). */
function packageFor(page: Page, accessToken: string, courseId: string): Promise<TOfflinePackage> {
  return page.evaluate(
    async ({ token, courseId }) => {
      const res = await fetch('/trpc/training.offlinePackage', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ courseId, height: 360 }),
      });
      if (!res.ok) throw new Error(`offlinePackage answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { result: { data: TOfflinePackage } }).result.data;
    },
    { token: accessToken, courseId },
  );
}

type TDownloadRun = { ms: number; bytes: number; requests: number; partMs: number[] };

/**
 * Fetches the package's posters and media in the page as client/lib/offline/downloads.ts does: one
 * request at a time, each part's poster, then its media in CHUNK_BYTES Range requests, each body
 * read whole into a Blob. Fresh links (training.offlineResume) when the pass runs out. Stops after
 * `maxChunks` media chunks when given.
 */
function downloadInPage(page: Page, accessToken: string, pack: TOfflinePackage, maxChunks?: number): Promise<TDownloadRun> {
  return page.evaluate(
    async ({ token, pack, chunkBytes, maxChunks }) => {
      // No named functions in here: the bundler's name helper does not exist in the page.
      let parts = pack.parts;
      const started = performance.now();
      let bytes = 0;
      let requests = 0;
      let chunks = 0;
      const partMs: number[] = [];
      for (let p = 0; p < parts.length && (maxChunks === undefined || chunks < maxChunks); p += 1) {
        const partStarted = performance.now();
        const poster = parts[p]!.posterUrl;
        if (poster) {
          const res = await fetch(poster, { credentials: 'same-origin', cache: 'no-store' });
          bytes += (await res.blob()).size;
          requests += 1;
        }
        const size = parts[p]!.bytes;
        for (let start = 0; start < size && (maxChunks === undefined || chunks < maxChunks); ) {
          const end = Math.min(start + chunkBytes, size) - 1;
          const res = await fetch(parts[p]!.url, { headers: { Range: `bytes=${start}-${end}` }, credentials: 'same-origin', cache: 'no-store' });
          requests += 1;
          if (res.status === 401 || res.status === 403) {
            await res.body?.cancel();
            const input = encodeURIComponent(JSON.stringify({ downloadId: pack.downloadId }));
            const resumed = await fetch(`/trpc/training.offlineResume?input=${input}`, { headers: { authorization: `Bearer ${token}` } });
            parts = ((await resumed.json()) as { result: { data: typeof pack } }).result.data.parts;
            continue;
          }
          if (res.status !== 206 && res.status !== 200) throw new Error(`media answered ${res.status}`);
          const blob = await res.blob();
          if (blob.size !== end - start + 1) throw new Error(`${blob.size} bytes for ${end - start + 1}`);
          bytes += blob.size;
          chunks += 1;
          start = end + 1;
        }
        partMs.push(performance.now() - partStarted);
      }
      return { ms: performance.now() - started, bytes, requests, partMs };
    },
    { token: accessToken, pack, chunkBytes: CHUNK_BYTES, maxChunks },
  );
}

/**
 * The records a device sends after an hour of watching the hour-long course offline: one every
 * RECORD_SECONDS of play, in order through its parts, chained and signed as the device signs them
 * (shared/offline-record.ts: HMAC-SHA256 with the download's key, base64url). Positions carry the
 * player's fractional seconds, as HTMLMediaElement.currentTime gives them.
 */
function hourOfRecords(pack: TOfflinePackage, startedAtMs: number): TOfflineWatchRecord[] {
  const records: TOfflineWatchRecord[] = [];
  let prev: string | null = null;
  let clock = startedAtMs;
  for (const part of pack.parts) {
    for (let from = 0; from < part.durationSeconds; from += RECORD_SECONDS) {
      const to = Math.min(part.durationSeconds, from + RECORD_SECONDS);
      const playedMs = Math.round((to - from) * 1000) + 3;
      const fields: TSignedRecordFields = {
        id: randomUUID(),
        seq: records.length + 1,
        videoId: part.id,
        from: from === 0 ? 0 : from + 0.021333,
        to: to === part.durationSeconds ? to : to + 0.021333,
        startedAt: clock,
        endedAt: clock + playedMs,
        playedMs,
        prev,
      };
      const signature: string = createHmac('sha256', pack.recordKey).update(offlineRecordText(pack.downloadId, fields)).digest('base64url');
      records.push({ ...fields, signature });
      prev = signature;
      clock += playedMs + 250;
    }
  }
  return records;
}

/** Sends the sync as a browser would (JSON, no compression); answers the bytes each way on the wire. */
function postSync(base: string, body: string): Promise<{ sent: number; received: number; status: number; answer: string }> {
  const url = new URL('/api/trainingVideo/offline/sync', base);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        // What a phone's Chromium adds to a same-origin POST besides its cookies.
        'user-agent': 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        accept: '*/*',
        origin: base,
        referer: `${base}/`,
        'accept-encoding': 'gzip, deflate, br, zstd',
        'accept-language': 'en-GB,en;q=0.9',
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const answer = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ sent: req.socket!.bytesWritten, received: req.socket!.bytesRead, status: res.statusCode ?? 0, answer });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Offline study's figures: the bytes of an hour at 360p (a lecture-like sample transcoded as the portal
 * does, and the caps' bound), the time to download a two-part course over a ship's links (real
 * Chromium throttled by CDP, fetching from the built portal as the app's downloader does), and the
 * bytes a sync of an hour of offline watching sends.
 */
export const offlineBenchmark: TBenchmark = {
  name: 'Offline study',
  async run(): Promise<TBenchRow[]> {
    const rows: TBenchRow[] = [];
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-bench-offline-'));
    try {
      // (a) An hour at 360p.
      const lecture = await makeLecture(dir, 'lecture.mp4', SAMPLE_SECONDS);
      const out = path.join(dir, 'out');
      const started = performance.now();
      const made = await createMediaAdapter().transcode(lecture, out);
      const transcodeMs = performance.now() - started;
      const sd = made.renditions.find((rendition) => rendition.height === 360)!;
      const hd = made.renditions.find((rendition) => rendition.height === 720)!;
      const sdFile = path.join(out, sd.file);
      const sdBytes = (await stat(sdFile)).size;
      const hdBytes = (await stat(path.join(out, hd.file))).size;
      const perHour = (bytes: number) => (bytes / made.durationSeconds) * 3600;
      const plan = planRenditions({ width: 1280, height: 720 }).find((rendition) => rendition.height === 360)!;
      // A picture of the 360p rendition mid-slide, to judge its 24 and 28 px text by eye.
      if (process.env.BENCH_OFFLINE_FRAME) {
        await run('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-ss', String(SLIDE_SECONDS * 2.5), '-i', sdFile, '-frames:v', '1', process.env.BENCH_OFFLINE_FRAME]);
      }
      // Camera footage (a full picture with grain changing every frame, as a deck filmed in poor
      // light): the picture the encoder cannot make small, held by the cap.
      const camera = await makeClip(dir, 'camera.mp4', { width: 1280, height: 720, seconds: CAMERA_SECONDS, audio: true, grain: 16 });
      const cameraMade = await createMediaAdapter().transcode(camera, path.join(dir, 'camera-out'), { heights: [360] });
      const cameraBytes = (await stat(path.join(dir, 'camera-out', cameraMade.renditions[0]!.file))).size;
      rows.push(
        {
          figure: 'One hour at 360p, measured',
          value: MB(perHour(sdBytes)),
          note: `a ${SAMPLE_SECONDS} s lecture (slides with 24–44 px text, a presenter's window with camera grain, speech-like sound) transcoded as the portal does in ${(transcodeMs / 1000).toFixed(0)} s: ${sdBytes.toLocaleString('en')} bytes, ${Math.round((sdBytes * 8) / made.durationSeconds / 1000)} kb/s; budget ${MB(OFFLINE_BYTES_PER_HOUR)}`,
        },
        {
          figure: 'One hour at 360p, camera footage',
          value: MB((cameraBytes / cameraMade.durationSeconds) * 3600),
          note: `a ${CAMERA_SECONDS} s full 1280×720 picture with grain changing every frame: ${Math.round((cameraBytes * 8) / cameraMade.durationSeconds / 1000)} kb/s, at the cap (the encoder's two-second buffer shows over so short a clip)`,
        },
        {
          figure: 'One hour at 360p, at most',
          value: MB(bytesPerHourAtCap(plan)),
          note: `the caps, (${plan.videoMaxKbps} + ${plan.audioKbps}) kb/s × 3 600 s, whatever the picture; the encoder's buffer (two seconds of the cap) and the MP4's index come on top, about 1 % over an hour`,
        },
        { figure: 'One hour at 720p, measured (for comparison)', value: MB(perHour(hdBytes)), note: `${Math.round((hdBytes * 8) / made.durationSeconds / 1000)} kb/s, not for download by default` },
      );

      if (!BENCH_DATABASE_URL) {
        rows.push({ figure: 'Download and sync over a ship\'s link', value: 'not run', note: 'needs BENCH_DATABASE_URL or TEST_DATABASE_URL' });
        return rows;
      }

      // Two parts of PART_SECONDS at the sample's rate: the 360p rendition looped, as stored.
      const dataDir = path.join(dir, 'data');
      const videoDir = path.join(dataDir, 'files', 'trainingVideo');
      await mkdir(videoDir, { recursive: true });
      const parts: TPartFile[] = [];
      for (let i = 0; i < 2; i += 1) {
        const file = `${randomUUID()}.mp4`;
        const poster = `${randomUUID()}.jpg`;
        await loopTo(sdFile, path.join(videoDir, file), PART_SECONDS);
        await copyFile(path.join(out, made.poster), path.join(videoDir, poster));
        for (const name of [file, poster]) await chmod(path.join(videoDir, name), 0o600);
        parts.push({ file, poster, bytes: (await stat(path.join(videoDir, file))).size, seconds: PART_SECONDS });
      }
      const courseBytes = parts.reduce((sum, part) => sum + part.bytes, 0);

      return await withFreshPostgres(BENCH_DATABASE_URL, async (databaseUrl) => {
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const child = startProcess('dist/server/index.js', { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
        const browser = await launchChromium();
        try {
          await waitForOk(`${base}/readyz`, performance.now(), 120_000);
          const seeded = await seed(databaseUrl, parts);
          // No service worker: the downloader runs in the page, and the throttle applies to the page's requests.
          const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
          const page = await context.newPage();
          const session = await signInAs(page, seeded.email);
          // A page of the portal's origin without the app, so nothing else shares the link.
          await page.goto('/readyz');
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

          // (b) The two-part course over each link.
          for (const link of LINKS) {
            const pack = await packageFor(page, session.accessToken, seeded.twoPartCourseId);
            const throughput = link.bitsPerSecond / 8;
            await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: link.latency, downloadThroughput: throughput, uploadThroughput: throughput });
            const whole = link.bitsPerSecond >= 2_000_000 || process.env.BENCH_OFFLINE_FULL === '1';
            const result = await downloadInPage(page, session.accessToken, pack, whole ? undefined : SLOW_SAMPLE_CHUNKS);
            await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
            const chunks = pack.parts.reduce((sum, part) => sum + Math.ceil(part.bytes / CHUNK_BYTES), 0);
            // The same parts as camera footage all through, at the caps, over the rate this link achieved.
            const atCaps = (bytesPerHourAtCap(plan) * 2 * PART_SECONDS) / 3600;
            const atCapsNote = `camera footage all through (${MB(atCaps)} at the caps) ≈ ${minutes((atCaps / result.bytes) * result.ms)}`;
            if (whole) {
              if (result.bytes < pack.totalBytes) throw new Error(`${result.bytes} bytes downloaded of ${pack.totalBytes}`);
              rows.push({
                figure: `Two-part course (2 × ${PART_SECONDS / 60} min at 360p) at ${link.name}`,
                value: minutes(result.ms),
                note: `${MB(result.bytes)} in ${result.requests} requests (posters, ${chunks} Range requests of 1 MiB), one at a time as the app fetches; parts ${result.partMs.map(minutes).join(' + ')}; ${((result.bytes * 8) / (result.ms / 1000) / 1000).toFixed(0)} kbit/s achieved; ${atCapsNote}`,
              });
            } else {
              const perChunkMs = result.ms / SLOW_SAMPLE_CHUNKS;
              rows.push({
                figure: `Two-part course (2 × ${PART_SECONDS / 60} min at 360p) at ${link.name}`,
                value: `≈ ${minutes((perChunkMs * pack.totalBytes) / CHUNK_BYTES)}`,
                note: `extrapolated from the first ${SLOW_SAMPLE_CHUNKS} chunks (${(perChunkMs / 1000).toFixed(1)} s per 1 MiB Range request) to the course's ${MB(pack.totalBytes)} in ${chunks} requests (BENCH_OFFLINE_FULL=1 downloads it all); ${atCapsNote}`,
              });
            }
          }
          rows.push({ figure: 'Two-part course, bytes', value: MB(courseBytes), note: `${Math.round((courseBytes * 8) / (2 * PART_SECONDS) / 1000)} kb/s over its ${(2 * PART_SECONDS) / 60} min` });

          // (c) A sync of an hour of offline watching: the parts fetched two hours ago, the hour
          // watched since, the records sent now.
          const pack = await packageFor(page, session.accessToken, seeded.hourCourseId);
          for (const part of pack.parts) {
            const res = await page.request.get(part.url, { headers: { range: 'bytes=0-0' } });
            if (res.status() !== 206) throw new Error(`part fetch answered ${res.status()}`);
          }
          const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
          await sql`update offline_part_fetches set fetched_at = now() - interval '2 hours' where download_id = ${pack.downloadId}`;
          await sql.end();
          const records = hourOfRecords(pack, Date.now() - 3700_000);
          const body = JSON.stringify({ downloadId: pack.downloadId, records });
          const bodyBytes = Buffer.byteLength(body);
          const sent = await postSync(base, body);
          if (sent.status !== 200) throw new Error(`sync answered ${sent.status}: ${sent.answer}`);
          const result = JSON.parse(sent.answer) as TOfflineSyncResult;
          const counts = new Map<string, number>();
          for (const entry of result.results) counts.set(entry.outcome, (counts.get(entry.outcome) ?? 0) + 1);
          const outcomes = [...counts].map(([outcome, count]) => `${count} ${outcome}`);
          const credited = result.results.reduce((sum, entry) => sum + entry.creditedSeconds, 0);
          rows.push(
            {
              figure: 'Sync of an hour of offline watching, request',
              value: `${(sent.sent / 1024).toFixed(1)} KiB`,
              note: `${records.length} signed records (one per ${RECORD_SECONDS} s of play) in one POST /api/trainingVideo/offline/sync: JSON body ${bodyBytes.toLocaleString('en')} bytes (${Math.round(bodyBytes / records.length)} a record), headers ${sent.sent - bodyBytes} bytes; the app sends it uncompressed`,
            },
            {
              figure: 'The same body compressed (not sent so)',
              value: `${(gzipSync(body).length / 1024).toFixed(1)} KiB gzip`,
              note: `brotli ${(brotliCompressSync(body).length / 1024).toFixed(1)} KiB; ids and signatures are random, so they stay near their size`,
            },
            {
              figure: 'Sync answer',
              value: `${(sent.received / 1024).toFixed(1)} KiB`,
              note: `${outcomes.join(', ')}; ${(credited / 60).toFixed(1)} min credited of 60; ${Buffer.byteLength(sent.answer).toLocaleString('en')} bytes of JSON before the server's compression`,
            },
          );
          await context.close();
          return rows;
        } finally {
          await browser.close();
          await stopProcess(child);
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
