/**
 * The portal in a process of its own, for measuring what one upload costs the server: started by
 * profiles.bench.ts with --expose-gc, it answers over IPC with memory figures around an upload.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { parseEnv } from '../src/server/env.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { createRuntime } from '../src/server/runtime.ts';
import { createUser } from '../src/testing/factories.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const send = (message: unknown) => process.send!(message);

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-upload-'));
const env = parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL });
const runtime = await createRuntime(env, createLogger(env.LOG_LEVEL), { inMemoryDatabase: true, clientDir: path.join(dataDir, 'none') });
const app = await buildApp(runtime);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };

let peak = { rss: 0, heapUsed: 0, external: 0 };
let base = peak;
let sampler: NodeJS.Timeout | undefined;
const sample = () => {
  const now = process.memoryUsage();
  peak = {
    rss: Math.max(peak.rss, now.rss),
    heapUsed: Math.max(peak.heapUsed, now.heapUsed),
    external: Math.max(peak.external, now.external + now.arrayBuffers),
  };
};

process.on('message', async (message: { cmd: string }) => {
  if (message.cmd === 'user') {
    const user = await createUser(runtime.db);
    send({ token: signAccessToken({ sub: user.id, role: user.role }, runtime.jwtSecret, 900) });
  } else if (message.cmd === 'start') {
    gc();
    const now = process.memoryUsage();
    base = { rss: now.rss, heapUsed: now.heapUsed, external: now.external + now.arrayBuffers };
    peak = base;
    sampler = setInterval(sample, 2);
    send({ started: true });
  } else if (message.cmd === 'stop') {
    clearInterval(sampler);
    sample();
    const peakGrowth = { rss: peak.rss - base.rss, heapUsed: peak.heapUsed - base.heapUsed, external: peak.external - base.external };
    gc();
    const after = process.memoryUsage();
    send({
      peakGrowth,
      retainedHeap: after.heapUsed - base.heapUsed,
      retainedExternal: after.external + after.arrayBuffers - base.external,
      baseRss: base.rss,
    });
  } else if (message.cmd === 'exit') {
    await app.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
send({ port });
