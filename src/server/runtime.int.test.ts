import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { parseEnv } from './env.ts';
import { createLogger } from './lib/logger.ts';
import { createRuntime, openJobRuntime } from './runtime.ts';

const redisUrl = inject('redisUrl');

describe.runIf(redisUrl)('what a worker opens, against what the portal opens (on Redis)', () => {
  const dataDirs: string[] = [];
  const redis = redisUrl ? new Redis(redisUrl) : undefined;
  afterEach(() => {
    for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => redis?.quit());

  function setting() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'runtime-test-'));
    dataDirs.push(dataDir);
    // No JWT_SECRET: a process that needs one keeps one in its data folder.
    const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: inject('databaseUrl'), REDIS_URL: redisUrl });
    const prefix = `test-${randomBytes(4).toString('hex')}`;
    return { env, dataDir, prefix, channel: `${prefix}:access-grants:revoked` };
  }

  const listeners = async (channel: string) => Number(((await redis!.pubsub('NUMSUB', channel)) as [string, number])[1]);

  it('the worker keeps no JWT secret and does not listen for access-grant revocations', async () => {
    const { env, dataDir, prefix, channel } = setting();
    const worker = await openJobRuntime(env, createLogger('silent'), { inMemoryDatabase: true, queuePrefix: prefix });
    // A portal on the same keys, opened after it: once the portal listens, a listener the worker
    // had begun would be there too.
    const other = setting();
    const portal = await createRuntime(other.env, createLogger('silent'), { inMemoryDatabase: true, queuePrefix: prefix, clientDir: path.join(other.dataDir, 'none') });
    try {
      await expect.poll(() => listeners(channel), { timeout: 5000 }).toBeGreaterThan(0);
      expect(await listeners(channel)).toBe(1);
      expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
      expect(worker).not.toHaveProperty('accessGrants');
      expect(worker).not.toHaveProperty('rateLimit');
    } finally {
      await portal.close();
      await worker.close();
    }
  });

  it('the portal does both', async () => {
    const { env, dataDir, prefix, channel } = setting();
    const portal = await createRuntime(env, createLogger('silent'), { inMemoryDatabase: true, queuePrefix: prefix, clientDir: path.join(dataDir, 'none') });
    try {
      await expect.poll(() => listeners(channel), { timeout: 5000 }).toBe(1);
      expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(true);
    } finally {
      await portal.close();
    }
    expect(await listeners(channel)).toBe(0);
  });
});
