import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { NGINX, productionNginxConfig, withChildren } from '../src/testing/nginx.ts';
import { freePort, stopProcess, waitForOk } from './support.ts';

/**
 * The production web server in front of a portal started by a bench: deploy/nginx.conf as compose
 * runs it, with the portal's address, the data directory and a port of the bench's own put in its
 * place. With STREAM_DELIVERY=x-accel and TRUST_PROXY=1 on the portal, nginx sends the stored files
 * by sendfile. Needs nginx (scripts/ensure-test-tools.sh installs it).
 */
export async function startNginxFront(options: { portalPort: number; dataDir: string; workDir: string }) {
  if (!NGINX) throw new Error('nginx is not installed: scripts/ensure-test-tools.sh installs it');
  const port = await freePort();
  await mkdir(options.workDir, { recursive: true });
  const file = path.join(options.workDir, 'nginx.conf');
  await writeFile(file, productionNginxConfig({ portalPort: options.portalPort, port, dataDir: options.dataDir, runDir: options.workDir }));
  const child = spawn(NGINX, ['-p', options.workDir, '-c', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForOk(`http://127.0.0.1:${port}/healthz`, performance.now(), 30_000);
  return { port, pid: child.pid!, pids: () => withChildren(child.pid!), stop: () => stopProcess(child) };
}
