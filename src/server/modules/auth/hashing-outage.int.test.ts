import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { users } from '../../db/schema.ts';
import type * as HashingThreadsModule from '../../lib/hashing-threads.ts';
import { loginKeys } from './auth.service.ts';
import { vi } from 'vitest';
import { describe, expect, it } from '../../../testing/portal-test.ts';

// Hashing fails as it does when its threads keep ending (hashing-threads.ts gives up on a task
// after its second thread ends): every task is refused with HASHING_UNAVAILABLE while `down`.
const hashing = vi.hoisted(() => ({ down: false }));
vi.mock('../../lib/hashing-threads.ts', async (importOriginal) => {
  const real = await importOriginal<typeof HashingThreadsModule>();
  return {
    ...real,
    createHashingThreads: (options: Parameters<typeof real.createHashingThreads>[0]) => {
      const threads = real.createHashingThreads(options);
      return {
        ...threads,
        run: (task: Parameters<typeof threads.run>[0]) =>
          hashing.down
            ? Promise.reject(Object.assign(new Error('password hashing is unavailable'), { code: real.HASHING_UNAVAILABLE }))
            : threads.run(task),
      };
    },
  };
});

async function whileHashingIsDown<T>(work: () => Promise<T>): Promise<T> {
  hashing.down = true;
  try {
    return await work();
  } finally {
    hashing.down = false;
  }
}

describe('password hashing unavailable', () => {
  it('answers a registration 503 with Retry-After and writes no account; the same one goes through afterwards', async ({ portal, db }) => {
    const email = uniqueEmail('outage');
    const register = () =>
      portal.app.inject({
        method: 'POST',
        url: '/api/user/register',
        remoteAddress: uniqueIp(),
        payload: { tittle: 'Mr', firstName: 'Asha', lastName: 'Menon', mobile: '9876543210', email, password: TEST_PASSWORD },
      });
    const refused = await whileHashingIsDown(register);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({ message: MESSAGES.common.unavailable });
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

    expect((await register()).statusCode).toBe(201);
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('answers a login 503, not a wrong password, and counts no failed try against the account', async ({ portal, db }) => {
    const user = await createUser(db);
    const ip = uniqueIp();
    const login = (email: string) => portal.app.inject({ method: 'POST', url: '/api/user/login', remoteAddress: ip, payload: { email, password: TEST_PASSWORD } });
    const known = await whileHashingIsDown(() => login(user.email));
    const unknown = await whileHashingIsDown(() => login(uniqueEmail('nobody')));
    expect(known.statusCode).toBe(503);
    expect(unknown.statusCode).toBe(503);
    expect((await portal.runtime.rateLimit.peek(loginKeys.account(user.email))).count).toBe(0);
    expect((await portal.runtime.rateLimit.peek(loginKeys.ip(ip))).count).toBe(0);

    expect((await login(user.email)).statusCode).toBe(200);
  });

  it('answers the tRPC registration SERVICE_UNAVAILABLE', async ({ portal, db }) => {
    const email = uniqueEmail('outage-trpc');
    await expect(
      whileHashingIsDown(() =>
        portal.caller(null, uniqueIp()).auth.register({ title: 'Mr', firstName: 'Ravi', lastName: 'Das', mobile: '9876543210', email, password: 'Anchor#77' }),
      ),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});
