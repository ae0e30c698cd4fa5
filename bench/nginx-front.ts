import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, freePort, stopProcess, waitForOk } from './support.ts';

/**
 * The production web server in front of a portal started by a bench: deploy/nginx.conf as compose
 * runs it, with the portal's address, the data directory and a port of the bench's own put in its
 * place. With STREAM_DELIVERY=x-accel and TRUST_PROXY=1 on the portal, nginx sends the stored files
 * by sendfile. Needs nginx on the PATH.
 */
export async function startNginxFront(options: { portalPort: number; dataDir: string; workDir: string }) {
  const port = await freePort();
  await mkdir(options.workDir, { recursive: true });
  let conf = await readFile(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const replace = (from: RegExp, to: string) => {
    if (!from.test(conf)) throw new Error(`deploy/nginx.conf no longer has ${from}`);
    conf = conf.replace(from, to);
  };
  replace(/^pid .*;$/m, `pid ${options.workDir}/nginx.pid;`);
  replace(/\/tmp\/nginx-/g, `${options.workDir}/`);
  replace(/server app:3000;/, `server 127.0.0.1:${options.portalPort};`);
  replace(/listen 8080;/, `listen 127.0.0.1:${port};`);
  replace(/alias \/data\/files\/;/, `alias ${path.join(options.dataDir, 'files')}/;`);
  // Compose runs it as the files' owner; a bench run as root keeps its workers root, or they could not read the 0600 files.
  if (process.getuid?.() === 0) conf = `user root;\n${conf}`;
  const file = path.join(options.workDir, 'nginx.conf');
  await writeFile(file, conf);
  const child = spawn('nginx', ['-p', options.workDir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForOk(`http://127.0.0.1:${port}/healthz`, performance.now(), 30_000);
  return { port, pid: child.pid!, pids: () => withChildren(child.pid!), stop: () => stopProcess(child) };
}

/** A process and its children (nginx's master and workers), from /proc. */
function withChildren(pid: number): number[] {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    return [pid, ...children];
  } catch {
    return [pid];
  }
}
