import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/lib/paths.ts';

/** Debian's nginx (scripts/ensure-test-tools.sh installs it), or one on the PATH; undefined where there is none. */
export const NGINX: string | undefined = ['/usr/sbin/nginx', ...(process.env.PATH ?? '').split(':').map((dir) => path.join(dir, 'nginx'))].find((file) => existsSync(file));

/**
 * nginx's own lines for a run on this machine: in the foreground, and as root when this process
 * is root (its workers would otherwise be nobody and could not read the portal's 0600 files; in
 * compose nginx runs as the files' owner).
 */
export function inTheForeground(config: string): string {
  return `${process.getuid?.() === 0 ? 'user root root;\n' : ''}daemon off;\n${config}`;
}

/**
 * deploy/nginx.conf as compose runs it, with this machine's addresses and folders in place of
 * compose's: the portal's port, a port of its own, the portal's data folder, and `runDir` for
 * nginx's pid, temporary files and error log (each named after `name`). Start it with
 * `nginx -c <file> -p <runDir>`. Throws if the file no longer has a line this replaces.
 */
export function productionNginxConfig(options: { portalPort: number; port: number; dataDir: string; runDir: string; name?: string }): string {
  const name = options.name ?? 'nginx';
  let config = readFileSync(path.join(PROJECT_ROOT, 'deploy/nginx.conf'), 'utf8');
  const swaps: Array<[string, string]> = [
    ['server app:3000;', `server 127.0.0.1:${options.portalPort};`],
    ['listen 8080;', `listen 127.0.0.1:${options.port};`],
    ['alias /data/files/;', `alias ${path.join(options.dataDir, 'files')}/;`],
    ['pid /tmp/nginx.pid;', `pid ${options.runDir}/${name}.pid;`],
    ['error_log /dev/stderr warn;', `error_log ${options.runDir}/${name}-error.log warn;`],
  ];
  for (const [from, to] of swaps) {
    if (!config.includes(from)) throw new Error(`deploy/nginx.conf no longer has ${from}`);
    config = config.replace(from, to);
  }
  return inTheForeground(config.replaceAll('/tmp/nginx-', `${options.runDir}/${name}-`));
}

/** A process and its children (nginx's master and workers), from /proc. */
export function withChildren(pid: number): number[] {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
    return [pid, ...children];
  } catch {
    return [pid];
  }
}
