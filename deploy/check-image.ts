/**
 * The production image as `docker stop` meets it, checked on a machine with Docker:
 *
 *   DATABASE_URL=postgres://…/an_empty_database REDIS_URL=redis://127.0.0.1:6379/5 npx tsx deploy/check-image.ts
 *
 * It builds the image, then checks what decisions 052, 057 and 063 promise:
 * - no `.env`, key or certificate file inside the image;
 * - node is the base image's Node 24, and node_modules holds no other Node;
 * - the portal's container reports healthy on the port it is given;
 * - `docker stop` on the portal lets a request in flight finish, logs the drain, exits 0;
 * - `docker stop` on a worker in the middle of a transcode hands the job back at once, logs it,
 *   exits 0; the next worker prepares the video.
 *
 * The containers use the host's network (`--network host`), so they reach PostgreSQL and Redis as
 * this machine does; the database should be an empty one, the Redis database one nothing else uses.
 * Everything it starts is removed at the end, its volume too.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/server/lib/paths.ts';

const IMAGE = process.env.CHECK_IMAGE ?? 'portal:check';
const PORT = Number(process.env.CHECK_PORT ?? 3199);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'image-check@academy.example', password: `Check-${randomBytes(6).toString('hex')}!` };
const PORTAL = 'portal-check-api';
const WORKER = 'portal-check-worker';
const VOLUME = 'portal-check-data';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.error('Set DATABASE_URL (an empty database) and REDIS_URL (a Redis database nothing else uses).');
  process.exit(2);
}

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/** `docker stop`, waited for without blocking this process: a request of ours is still being sent meanwhile. */
const stop = async (container: string) => {
  const started = Date.now();
  await promisify(execFile)('docker', ['stop', container]);
  return (Date.now() - started) / 1000;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function check(condition: unknown, what: string, detail = ''): asserts condition {
  if (!condition) throw new Error(`${what}${detail ? `\n${detail}` : ''}`);
  console.log(`✓ ${what}`);
}

async function until<T>(what: string, seconds: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(500);
  }
}

const logLines = (container: string) =>
  docker('logs', container)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const environment = [
  `DATABASE_URL=${databaseUrl}`,
  `REDIS_URL=${redisUrl}`,
  `PUBLIC_URL=${BASE}`,
  `JWT_SECRET=${randomBytes(32).toString('hex')}`,
  `ADMIN_EMAIL=${ADMIN.email}`,
  `ADMIN_PASSWORD=${ADMIN.password}`,
  `PORT=${PORT}`,
  'HOST=127.0.0.1',
].flatMap((variable) => ['-e', variable]);

/** As compose runs them: under an init, the data volume mounted, the worker with no healthcheck. */
function start(name: string, command: string[] = []) {
  docker('run', '-d', '--name', name, '--init', '--network', 'host', '-v', `${VOLUME}:/data`, ...environment, ...(command.length ? ['--no-healthcheck'] : []), IMAGE, ...command);
}

/** A file made by the image's own ffmpeg (the image carries it for transcoding), read from its output. */
function made(args: string[], format: 'image2pipe' | 'mp4'): Uint8Array<ArrayBuffer> {
  const output = format === 'mp4' ? ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov'] : ['-f', format];
  const run = spawnSync('docker', ['run', '--rm', '--entrypoint', 'ffmpeg', IMAGE, '-loglevel', 'error', ...args, ...output, 'pipe:1'], { maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`ffmpeg in the image failed: ${run.stderr.toString()}`);
  return new Uint8Array(run.stdout);
}

async function call(url: string, init: RequestInit & { token?: string } = {}) {
  const response = await fetch(`${BASE}${url}`, { ...init, headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers } });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body };
}

async function main() {
  console.log(`Building ${IMAGE}…`);
  execFileSync('docker', ['build', '--network', 'host', '-t', IMAGE, PROJECT_ROOT], { stdio: 'inherit' });

  const secrets = docker('run', '--rm', '--entrypoint', 'find', IMAGE, '/app', '-path', '/app/node_modules', '-prune', '-o', '(', '-name', '.env', '-o', '-name', '.env.*', '-o', '-name', '*.pem', '-o', '-name', '*.key', ')', '-print');
  check(secrets === '', 'no .env, key or certificate file of the project in the image', secrets);
  const nodeVersion = docker('run', '--rm', '--entrypoint', 'node', IMAGE, '-p', 'process.version');
  check(nodeVersion.startsWith('v24.'), `the image runs Node 24 (${nodeVersion})`, nodeVersion);
  const otherNode = docker('run', '--rm', '--entrypoint', 'find', IMAGE, '/app/node_modules', '-maxdepth', '2', '(', '-name', 'node-linux-*', '-o', '-path', '/app/node_modules/.bin/node', ')', '-print');
  check(otherNode === '', 'no other Node in the image’s node_modules', otherNode);

  start(PORTAL);
  const health = await until('the portal’s container healthy', 60, () => {
    const status = docker('inspect', PORTAL, '--format', '{{.State.Health.Status}}');
    return status === 'healthy' ? status : undefined;
  });
  check(health === 'healthy', `the portal’s container reports healthy on port ${PORT}`);

  // A request in flight when the stop comes: a contact message sent slowly.
  const slow = fetch(`${BASE}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"Deck Cadet","email":"cadet@fleet.example","message":"'));
        await sleep(3000);
        controller.enqueue(new TextEncoder().encode('Is the next fire-fighting course in March?"}'));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit).then(
    (response) => response.status,
    (error: Error) => `cut off (${String((error.cause as Error | undefined)?.message ?? error.message)})`,
  );
  await sleep(500);
  const portalStopSeconds = await stop(PORTAL);
  const answered = await slow;
  check(typeof answered === 'number' && answered < 500, `the request in flight answered (${answered}), not cut off`);
  check(docker('inspect', PORTAL, '--format', '{{.State.ExitCode}}') === '0', `the portal exits 0 on docker stop, in ${portalStopSeconds.toFixed(1)} s`);
  const portalLog = logLines(PORTAL);
  const shutdown = portalLog.find((line) => String(line.msg).startsWith('shutting down'));
  check(shutdown?.signal === 'SIGTERM' && shutdown.inFlight === 1, 'node received SIGTERM and drained the request in flight', JSON.stringify(shutdown));
  check(portalLog.at(-1)?.msg === 'stopped', 'its last line says it stopped');

  // A worker stopped in the middle of a transcode.
  docker('start', PORTAL);
  await until('the portal ready again', 60, async () => ((await fetch(`${BASE}/readyz`).catch(() => undefined))?.ok ? true : undefined));
  start(WORKER, ['node', '--enable-source-maps', 'dist/workers/index.js']);
  const login = await call('/api/user/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const token = String(login.body.accessToken);
  const course = new FormData();
  for (const [name, value] of Object.entries({ title: 'Bridge Watchkeeping', description: 'Keeping a safe navigational watch.', duration: '2 days', category: 'STCW', price: '2500', subject: JSON.stringify(['Watch handover', 'Collision regulations']) })) course.set(name, value);
  course.set('courseImg', new Blob([made(['-f', 'lavfi', '-i', 'testsrc=size=640x320', '-frames:v', '1', '-c:v', 'png'], 'image2pipe')], { type: 'image/png' }), 'course.png');
  const created = await call('/api/courses', { method: 'POST', body: course, token });
  check(created.status === 201, 'a course made through the API', JSON.stringify(created.body));
  const courseId = String((created.body.data as { _id: string })._id);
  const upload = new FormData();
  upload.set('courseId', courseId);
  upload.set('title', 'Bridge watchkeeping');
  const lecture = made(['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '180', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest'], 'mp4');
  upload.set('trainingVideo', new Blob([lecture], { type: 'video/mp4' }), 'watchkeeping.mp4');
  const uploaded = await call('/api/trainingVideo', { method: 'POST', body: upload, token });
  check(uploaded.status === 201, `a three-minute lecture uploaded (${(lecture.length / 1e6).toFixed(1)} MB)`, JSON.stringify(uploaded.body));

  const videoState = async () => {
    const { body } = await call('/api/trainingVideo', { token });
    const set = (body.data as Array<{ courseId: string; trainingVideo: Array<Record<string, unknown>> }>).find((one) => one.courseId === courseId);
    return set?.trainingVideo[0];
  };
  await until('the transcode under way', 60, async () => ((await videoState())?.status === 'processing' ? true : undefined));
  // A few seconds into it: ffmpeg is running when the stop comes.
  await sleep(3000);
  const stopSeconds = await stop(WORKER);
  check(docker('inspect', WORKER, '--format', '{{.State.ExitCode}}') === '0', `the worker exits 0 on docker stop, in ${stopSeconds.toFixed(1)} s`);
  const workerLog = logLines(WORKER);
  check(workerLog.some((line) => line.job === 'transcode-video' && String(line.msg).startsWith('handing back')), 'it logged handing the transcode back');
  check(workerLog.at(-1)?.msg === 'worker stopped', 'its last line says it stopped');
  const waiting = await videoState();
  check(waiting?.status !== 'failed', `the video waits again (${String(waiting?.status)}), not failed`);

  docker('start', WORKER);
  const ready = await until('the video prepared by the worker started again', 300, async () => {
    const video = await videoState();
    return video?.status === 'ready' ? video : undefined;
  });
  check(ready.status === 'ready', 'the worker started again prepared the video');
}

try {
  await main();
  console.log('The image stops cleanly.');
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  for (const name of [PORTAL, WORKER]) {
    const tail = spawnSync('docker', ['logs', '--tail', '20', name], { encoding: 'utf8' });
    if (tail.status === 0) console.error(`--- ${name}, last lines:\n${tail.stdout}${tail.stderr}`);
  }
  process.exitCode = 1;
} finally {
  spawnSync('docker', ['rm', '-f', PORTAL, WORKER], { stdio: 'ignore' });
  spawnSync('docker', ['volume', 'rm', VOLUME], { stdio: 'ignore' });
}
