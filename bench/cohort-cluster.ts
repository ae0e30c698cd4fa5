/*
 * Several portal processes behind one port, for `bench/cohort.ts --instances 2`: this primary
 * forks the built portal (dist/server/index.js) as many times as PORTAL_PROCESSES says, through
 * Node's cluster module. Each portal listens on PORT as it does alone; the cluster shares the one
 * listening socket and the primary hands each new connection to the next portal in turn, with the
 * learner's own address (no proxy in between, no X-Forwarded-For).
 *
 * The first portal migrates the database and creates the administrator before the next is
 * started. Once every portal listens, the primary prints one line of JSON with their process ids
 * ({"portals":[…]}) on stdout. SIGTERM or SIGINT is passed on to every portal, which drains as it
 * does alone; the primary exits once they all have (0 if every one exited 0). A portal that ends
 * on its own is reported on stderr and not replaced: the run counts its failed requests.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const COUNT = Number(process.env.PORTAL_PROCESSES ?? 2);

/** Node flags for the portals (PORTAL_NODE_FLAGS, space-separated: the cohort's --cpu-prof). */
const FLAGS = (process.env.PORTAL_NODE_FLAGS ?? '').split(' ').filter(Boolean);

// The portals' log lines (stdout) are dropped, as bench/support.ts's startProcess drops them.
cluster.setupPrimary({ exec: path.join(ROOT, 'dist/server/index.js'), execArgv: ['--enable-source-maps', ...FLAGS], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });

const portals: Worker[] = [];
let stopping = false;

function started(portal: Worker) {
  return new Promise<void>((resolve, reject) => {
    portal.once('listening', () => resolve());
    portal.once('exit', (code, signal) => reject(new Error(`portal ${portal.process.pid} ended before listening (${signal ?? code})`)));
  });
}

cluster.on('exit', (portal, code, signal) => {
  if (!stopping) process.stderr.write(`cohort cluster: portal ${portal.process.pid} ended (${signal ?? code}) while serving\n`);
});

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  const codes = await Promise.all(
    portals.map(
      (portal) =>
        new Promise<number | null>((resolve) => {
          if (portal.process.exitCode !== null || portal.process.signalCode !== null) return resolve(portal.process.exitCode);
          portal.process.once('exit', (code) => resolve(code));
          portal.process.kill(signal);
        }),
    ),
  );
  process.exit(codes.every((code) => code === 0) ? 0 : 1);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGTERM'));

try {
  for (let i = 0; i < COUNT; i += 1) {
    const portal = cluster.fork();
    portals.push(portal);
    await started(portal);
  }
  process.stdout.write(`${JSON.stringify({ portals: portals.map((portal) => portal.process.pid) })}\n`);
} catch (error) {
  process.stderr.write(`cohort cluster: ${(error as Error).message}\n`);
  await stop('SIGTERM');
}
