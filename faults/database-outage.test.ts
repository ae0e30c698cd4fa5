import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, adminLogin, eventually, faultsCanRun, json, startOutageProxy, startPortal, stopGently } from './support.ts';

const services = faultsCanRun();
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-db-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.runIf(services)('PostgreSQL restarted under the portal', () => {
  it('shows in /readyz, answers 503 meanwhile, and recovers without restarting the portal', async () => {
    const proxy = await startOutageProxy(new URL(services!.databaseUrl));
    const portal = await startPortal({ DATABASE_URL: proxy.url, DATA_DIR: dataDir });
    try {
      const { base } = portal;
      await adminLogin(base);

      await proxy.down();
      const notReady = await eventually('/readyz says unavailable', async () => {
        const response = await fetch(`${base}/readyz`);
        return response.status === 503 ? response : undefined;
      }, 15_000);
      expect(await json(notReady)).toMatchObject({ status: 'unavailable' });
      const duringOutage = await fetch(`${base}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
      });
      expect(duringOutage.status).toBe(503);
      expect(duringOutage.headers.get('retry-after')).toBe('5');
      expect(await json(duringOutage)).toMatchObject({ message: 'The service is briefly unavailable. Please try again in a moment.' });

      await proxy.up();
      await eventually('/readyz ready again', async () => (await fetch(`${base}/readyz`)).ok, 30_000);
      expect(await adminLogin(base)).toEqual(expect.any(String));
      expect(portal.child.exitCode).toBeNull();
    } finally {
      await stopGently(portal);
      await proxy.close();
    }
  });
});
