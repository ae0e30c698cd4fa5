import { randomBytes } from 'node:crypto';
import { createTestPortal, type TestPortal } from './test-runtime.ts';

/**
 * Two portal processes' worth of runtime on one PostgreSQL and one Redis, with one JWT secret, as
 * two instances behind a load balancer: answered once both listen for the other's access-grant
 * revocations.
 */
export async function createPortalsSharingRedis(): Promise<[TestPortal, TestPortal]> {
  const shared = { env: { JWT_SECRET: randomBytes(32).toString('hex') }, redis: true, queuePrefix: `test-${randomBytes(4).toString('hex')}` };
  const portals: [TestPortal, TestPortal] = [await createTestPortal(shared), await createTestPortal(shared)];
  for (const one of portals) {
    for (let waited = 0; one.runtime.accessGrants.state !== 'shared'; waited += 20) {
      if (waited > 5000) throw new Error('the revocation channel did not come up');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return portals;
}

/**
 * Calls `call` every 10 ms until it answers another status than `allowed` (or 2 s pass), and
 * answers that status and how long it took from the start.
 */
export async function untilRefused(call: () => Promise<{ statusCode: number }>, allowed: number): Promise<{ status: number; afterMs: number }> {
  const since = performance.now();
  let status = allowed;
  while (status === allowed && performance.now() - since < 2000) {
    status = (await call()).statusCode;
    if (status === allowed) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { status, afterMs: performance.now() - since };
}
