import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createHashingThreads, HASHING_UNAVAILABLE, LOWEST_PRIORITY, type HashingThreads } from './hashing-threads.ts';
import { isServiceUnavailable } from './errors.ts';
import { ARGON2_OPTIONS } from './passwords.ts';

const onLinux = process.platform === 'linux';
let pool: HashingThreads | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const hashTask = (password: string) => ({ kind: 'hash', password }) as const;

/** Waits a turn of the event loop at a time until `check` holds. */
async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('hashing threads', () => {
  it('start on first use, no more than the pool size, while the other tasks wait their turn', async () => {
    pool = createHashingThreads({ size: 2, argon2Options: ARGON2_OPTIONS });
    expect(pool.threads()).toHaveLength(0);
    const burst = Array.from({ length: 5 }, (_, n) => pool!.run(hashTask(`burst-${n}`)));
    expect(pool.load).toEqual({ running: 2, waiting: 3 });
    const hashes = await Promise.all(burst);
    expect(new Set(hashes).size).toBe(5);
    for (const hash of hashes) expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(pool.threads()).toHaveLength(2);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });

  it.runIf(onLinux)('run at the lowest CPU priority, as the kernel reads it back', async () => {
    pool = createHashingThreads({ size: 2, argon2Options: ARGON2_OPTIONS });
    await Promise.all([pool.run(hashTask('one')), pool.run(hashTask('two'))]);
    const threads = pool.threads();
    expect(threads).toHaveLength(2);
    for (const thread of threads) {
      expect(thread.osThreadId).toBeGreaterThan(process.pid);
      expect(thread.priority).toBe(LOWEST_PRIORITY);
      expect(getPriority(thread.osThreadId!)).toBe(LOWEST_PRIORITY);
    }
    // The event loop's own thread keeps its priority.
    expect(getPriority()).not.toBe(LOWEST_PRIORITY);
  });

  it('answer argon2 refusing a value as an error of its own, and go on', async () => {
    pool = createHashingThreads({ size: 1, argon2Options: ARGON2_OPTIONS });
    const refused = await pool.run({ kind: 'verify', hash: 'not-a-hash', password: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(isServiceUnavailable(refused)).toBe(false);
    const stored = (await pool.run(hashTask('Anchor#77'))) as string;
    expect(await pool.run({ kind: 'verify', hash: stored, password: 'Anchor#77' })).toBe(true);
    expect(await pool.run({ kind: 'verify', hash: stored, password: 'anchor#77' })).toBe(false);
    expect(pool.threads()).toHaveLength(1);
  });

  it('replace a thread that ends, and run the task it had again on the new one', async () => {
    pool = createHashingThreads({ size: 1, argon2Options: ARGON2_OPTIONS });
    await pool.run(hashTask('first'));
    const hashing = pool.run(hashTask('in flight'));
    const [first] = pool.threads();
    await first!.terminate();
    expect(await hashing).toMatch(/^\$argon2id\$/);
    expect(pool.threads()).toHaveLength(1);
    expect(pool.threads()[0]!.osThreadId).not.toBe(first!.osThreadId);
    expect(await pool.run(hashTask('after'))).toMatch(/^\$argon2id\$/);
  });

  it('give up on a task whose thread ends twice: unavailable for now, a 503, and the next task runs', async () => {
    pool = createHashingThreads({ size: 1, argon2Options: ARGON2_OPTIONS });
    await pool.run(hashTask('first'));
    const hashing = pool.run(hashTask('unlucky')).catch((error: unknown) => error);
    const [first] = pool.threads();
    await first!.terminate();
    await until(() => pool!.threads().length === 1 && pool!.threads()[0]!.osThreadId !== undefined && pool!.threads()[0]!.osThreadId !== first!.osThreadId);
    await pool.threads()[0]!.terminate();
    const failure = await hashing;
    expect(failure).toMatchObject({ code: HASHING_UNAVAILABLE });
    expect(isServiceUnavailable(failure)).toBe(true);
    expect(await pool.run(hashTask('next'))).toMatch(/^\$argon2id\$/);
  });

  it('end every thread on close; a task given afterwards starts a new one', async () => {
    pool = createHashingThreads({ size: 2, argon2Options: ARGON2_OPTIONS });
    await Promise.all([pool.run(hashTask('one')), pool.run(hashTask('two'))]);
    const before = pool.threads();
    const ids = before.map((thread) => thread.osThreadId);
    await pool.close();
    expect(pool.threads()).toHaveLength(0);
    if (onLinux) for (const id of ids) expect(() => getPriority(id!)).toThrow();
    expect(await pool.run(hashTask('later'))).toMatch(/^\$argon2id\$/);
    expect(pool.threads()).toHaveLength(1);
  });

  it('fail a task still running when closed, without starting another thread for it', async () => {
    pool = createHashingThreads({ size: 1, argon2Options: ARGON2_OPTIONS });
    const hashing = pool.run(hashTask('cut off')).catch((error: unknown) => error);
    await pool.close();
    expect(await hashing).toMatchObject({ code: HASHING_UNAVAILABLE });
    expect(pool.threads()).toHaveLength(0);
  });
});
