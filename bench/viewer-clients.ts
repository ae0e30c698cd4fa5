/*
 * The viewers of bench/viewers.bench.ts, in a process of their own (forked with IPC), so the load
 * they make is apart from the bench's probes and its CPU can be counted on its own. Each viewer
 * plays one part as a browser's media element plays a progressive MP4: it fetches the file in Range
 * requests, keeps a buffer ahead of the playhead, plays in real time, and counts a stall whenever
 * the playhead reaches the end of what has arrived. With heartbeats on it also reports its watching
 * every ten seconds of play, as the portal's player does.
 */
import { readFileSync } from 'node:fs';
import { Client, Pool, type Dispatcher } from 'undici';

export type TViewerSpec = { from: string; url: string; cookie: string; token: string; videoId: string; startAfterMs: number };

export type TViewersConfig = {
  base: string;
  /** The part on disk, to check every byte received against it. */
  file: string;
  durationSeconds: number;
  /** 'chunked': a Range request of `chunkBytes` whenever the buffer falls below `bufferSeconds`; 'open': one `bytes=a-` request read while the buffer is below `bufferSeconds + chunk`, paused above it. */
  mode: 'chunked' | 'open';
  chunkBytes: number;
  bufferSeconds: number;
  /** Play starts, and resumes after a stall, once this much is buffered ahead. */
  resumeSeconds: number;
  /** Seconds of play between watch reports; 0 sends none. */
  heartbeatSeconds: number;
  /** Viewers not done by then are left as they are (their open stalls counted). */
  giveUpMs: number;
  viewers: TViewerSpec[];
};

export type TViewersResult = {
  viewers: number;
  finished: number;
  stallsMs: number[];
  viewersWithStalls: number;
  startupMs: number[];
  bytesReceived: number;
  bytesExpected: number;
  complete: number;
  mismatchedChunks: number;
  mediaRequests: number;
  mediaHeadersMs: number[];
  mediaWholeMs: number[];
  heartbeatMs: number[];
  errors: Record<string, number>;
  elapsedMs: number;
};

export type TViewersProgress = { at: number; started: number; playing: number; stalled: number; done: number; bytes: number; errors: number };

const TICK_MS = 100;

type TViewer = {
  spec: TViewerSpec;
  client: Client;
  cookie: string;
  begun: boolean;
  requestedAt: number;
  received: number;
  playhead: number;
  playing: boolean;
  everPlayed: boolean;
  stallSince: number | null;
  stalls: number;
  done: boolean;
  inFlight: boolean;
  body: (NodeJS.ReadableStream & { pause(): void; resume(): void; destroy(): void }) | null;
  paused: boolean;
  retryAt: number;
  reported: number;
  heartbeatInFlight: boolean;
};

export async function runViewers(config: TViewersConfig, onProgress?: (progress: TViewersProgress) => void): Promise<TViewersResult> {
  const expected = readFileSync(config.file);
  const size = expected.length;
  const bytesPerSecond = size / config.durationSeconds;
  const chunkSeconds = config.chunkBytes / bytesPerSecond;
  const origin = new URL(config.base).origin;
  const result: TViewersResult = {
    viewers: config.viewers.length,
    finished: 0,
    stallsMs: [],
    viewersWithStalls: 0,
    startupMs: [],
    bytesReceived: 0,
    bytesExpected: size * config.viewers.length,
    complete: 0,
    mismatchedChunks: 0,
    mediaRequests: 0,
    mediaHeadersMs: [],
    mediaWholeMs: [],
    heartbeatMs: [],
    errors: {},
    elapsedMs: 0,
  };
  const fail = (kind: string) => (result.errors[kind] = (result.errors[kind] ?? 0) + 1);

  // The watch reports go over a few keep-alive connections per source address, as a browser's fetches do.
  const apiPools = new Map<string, Dispatcher>();
  const apiPool = (from: string) => {
    let pool = apiPools.get(from);
    if (!pool) apiPools.set(from, (pool = new Pool(origin, { connections: 16, localAddress: from, pipelining: 1 })));
    return pool;
  };

  const viewers: TViewer[] = config.viewers.map((spec) => ({
    spec,
    // Its own connection for the media, as a media element has.
    client: new Client(origin, { localAddress: spec.from, pipelining: 1, bodyTimeout: 0, headersTimeout: 60_000 }),
    cookie: spec.cookie,
    begun: false,
    requestedAt: 0,
    received: 0,
    playhead: 0,
    playing: false,
    everPlayed: false,
    stallSince: null,
    stalls: 0,
    done: false,
    inFlight: false,
    body: null,
    paused: false,
    retryAt: 0,
    reported: 0,
    heartbeatInFlight: false,
  }));

  const bufferedAhead = (viewer: TViewer) => Math.min(config.durationSeconds, viewer.received / bytesPerSecond) - viewer.playhead;

  /** Takes in a piece of the body at the viewer's current offset; false when it is not the file's bytes there. */
  function take(viewer: TViewer, chunk: Buffer) {
    const at = viewer.received;
    if (!chunk.equals(expected.subarray(at, at + chunk.length))) result.mismatchedChunks += 1;
    viewer.received += chunk.length;
    result.bytesReceived += chunk.length;
  }

  function fetchMedia(viewer: TViewer, now: number) {
    const start = viewer.received;
    const end = config.mode === 'chunked' ? Math.min(size, start + config.chunkBytes) - 1 : size - 1;
    viewer.inFlight = true;
    result.mediaRequests += 1;
    const sent = now;
    const range = config.mode === 'chunked' ? `bytes=${start}-${end}` : `bytes=${start}-`;
    viewer.client
      .request({ path: viewer.spec.url, method: 'GET', headers: { range, cookie: viewer.cookie, accept: '*/*', 'accept-encoding': 'identity' } })
      .then(async (answer) => {
        result.mediaHeadersMs.push(performance.now() - sent);
        const contentRange = String(answer.headers['content-range'] ?? '');
        if (answer.statusCode !== 206 || !contentRange.startsWith(`bytes ${start}-${end}/${size}`)) {
          fail(`media ${answer.statusCode}${answer.statusCode === 206 ? ` ${contentRange}` : ''}`);
          await answer.body.dump();
          viewer.retryAt = performance.now() + 1000;
          return;
        }
        viewer.body = answer.body as unknown as TViewer['body'];
        // 'data' events, not async iteration: a paused body then stops reading (and TCP pushes back).
        await new Promise<void>((resolve, reject) => {
          answer.body.on('data', (chunk: Buffer) => take(viewer, chunk));
          answer.body.once('end', resolve);
          answer.body.once('error', reject);
          answer.body.once('close', resolve);
        });
        if (viewer.received !== end + 1) fail('media body short');
        result.mediaWholeMs.push(performance.now() - sent);
      })
      .catch((error: NodeJS.ErrnoException) => {
        fail(`media ${error.code ?? error.name}`);
        viewer.retryAt = performance.now() + 1000;
      })
      .finally(() => {
        viewer.inFlight = false;
        viewer.body = null;
        viewer.paused = false;
      });
  }

  function heartbeat(viewer: TViewer, from: number, to: number) {
    viewer.heartbeatInFlight = true;
    const sent = performance.now();
    const body = JSON.stringify({ videoId: viewer.spec.videoId, from, to, position: to });
    apiPool(viewer.spec.from)
      .request({
        path: '/api/trainingVideo/watched',
        method: 'POST',
        headers: { authorization: `Bearer ${viewer.spec.token}`, 'content-type': 'application/json' },
        body,
      })
      .then(async (answer) => {
        await answer.body.dump();
        result.heartbeatMs.push(performance.now() - sent);
        if (answer.statusCode !== 200) fail(`heartbeat ${answer.statusCode}`);
        // The answer renews the stream pass, as the browser's cookie jar would keep it.
        const setCookie = answer.headers['set-cookie'];
        const pass = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).find((cookie) => cookie.startsWith('stream_pass='));
        if (pass) viewer.cookie = pass.split(';')[0]!;
      })
      .catch((error: NodeJS.ErrnoException) => fail(`heartbeat ${error.code ?? error.name}`))
      .finally(() => (viewer.heartbeatInFlight = false));
  }

  const started = performance.now();
  let last = started;
  let lastProgress = started;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const dt = (now - last) / 1000;
      last = now;
      let active = 0;
      for (const viewer of viewers) {
        if (viewer.done) continue;
        active += 1;
        if (!viewer.begun) {
          if (now - started < viewer.spec.startAfterMs) continue;
          viewer.begun = true;
          viewer.requestedAt = now;
        }
        // Play.
        if (viewer.playing) {
          const available = Math.min(config.durationSeconds, viewer.received / bytesPerSecond);
          viewer.playhead = Math.min(viewer.playhead + dt, available);
          if (viewer.playhead >= config.durationSeconds - 1e-6) {
            viewer.done = true;
            result.finished += 1;
            if (viewer.received === size) result.complete += 1;
            if (viewer.stalls > 0) result.viewersWithStalls += 1;
            if (config.heartbeatSeconds > 0) heartbeat(viewer, viewer.reported, config.durationSeconds);
            viewer.body?.destroy();
            void viewer.client.close().catch(() => {});
            continue;
          }
          if (viewer.playhead >= available) {
            viewer.playing = false;
            viewer.stallSince = now;
            viewer.stalls += 1;
          }
        } else if (bufferedAhead(viewer) >= config.resumeSeconds || viewer.received === size) {
          viewer.playing = true;
          if (!viewer.everPlayed) {
            viewer.everPlayed = true;
            result.startupMs.push(now - viewer.requestedAt);
            if (config.heartbeatSeconds > 0) heartbeat(viewer, 0, 0);
          } else if (viewer.stallSince !== null) {
            result.stallsMs.push(now - viewer.stallSince);
            viewer.stallSince = null;
          }
        }
        // Report.
        if (config.heartbeatSeconds > 0 && viewer.playing && !viewer.heartbeatInFlight && viewer.playhead - viewer.reported >= config.heartbeatSeconds) {
          const from = viewer.reported;
          viewer.reported = viewer.playhead;
          heartbeat(viewer, from, viewer.playhead);
        }
        // Fetch.
        const ahead = bufferedAhead(viewer);
        if (!viewer.inFlight && viewer.received < size && now >= viewer.retryAt && ahead < config.bufferSeconds) fetchMedia(viewer, now);
        else if (config.mode === 'open' && viewer.body) {
          if (!viewer.paused && ahead > config.bufferSeconds + chunkSeconds) {
            viewer.body.pause();
            viewer.paused = true;
          } else if (viewer.paused && ahead < config.bufferSeconds) {
            viewer.body.resume();
            viewer.paused = false;
          }
        }
      }
      if (onProgress && now - lastProgress >= 10_000) {
        lastProgress = now;
        onProgress({
          at: Math.round((now - started) / 1000),
          started: viewers.filter((viewer) => viewer.begun).length,
          playing: viewers.filter((viewer) => viewer.playing && !viewer.done).length,
          stalled: viewers.filter((viewer) => viewer.stallSince !== null && !viewer.done).length,
          done: result.finished,
          bytes: result.bytesReceived,
          errors: Object.values(result.errors).reduce((sum, count) => sum + count, 0),
        });
      }
      if (active === 0 || now - started > config.giveUpMs) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  result.elapsedMs = performance.now() - started;
  // Stalls still open at the end (none when every viewer finished).
  for (const viewer of viewers) if (viewer.stallSince !== null && !viewer.done) result.stallsMs.push(performance.now() - viewer.stallSince);
  await Promise.all([...apiPools.values()].map((pool) => pool.close().catch(() => {})));
  await Promise.all(viewers.map((viewer) => viewer.client.close().catch(() => {})));
  return result;
}

// Forked by the bench: the configuration comes by IPC, progress and the result go back the same way.
if (process.send) {
  process.once('message', (config: TViewersConfig) => {
    void runViewers(config, (progress) => process.send!({ progress })).then((result) => {
      process.send!({ result }, () => process.exit(0));
    });
  });
}
