import { afterEach, describe, expect, it } from 'vitest';
import { uniqueIp } from '../testing/mailbox.ts';
import { createTestPortal, type TestPortal } from '../testing/test-runtime.ts';
import { CONTACT_LIMIT, contactKey } from './modules/contact/contact.service.ts';

const message = { name: 'Ravi Menon', email: 'ravi@example.com', message: 'When does the next batch start?' };

// Each test builds the portal it needs: TRUST_PROXY is read when a portal starts.
let portal: TestPortal | undefined;
afterEach(async () => {
  await portal?.close();
  portal = undefined;
});

async function exhaustContactLimit(ip: string) {
  for (let i = 0; i < CONTACT_LIMIT.limit; i += 1) await portal!.runtime.rateLimit.hit(contactKey(ip), CONTACT_LIMIT.windowMs);
}

const contact = (remoteAddress: string, forwardedFor?: string) =>
  portal!.app.inject({
    method: 'POST',
    url: '/api/contact',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: message,
  });

describe('the client address every per-address limit counts', () => {
  it('is the socket address when TRUST_PROXY is unset: a forged X-Forwarded-For changes nothing', async () => {
    portal = await createTestPortal();
    const attacker = uniqueIp();
    await exhaustContactLimit(attacker);
    for (const forged of [uniqueIp(), `${uniqueIp()}, ${uniqueIp()}`, '127.0.0.1']) {
      const res = await contact(attacker, forged);
      expect(res.statusCode, forged).toBe(429);
    }
  });

  it('is the forwarded address when the request comes through a proxy named in TRUST_PROXY', async () => {
    const proxy = uniqueIp();
    portal = await createTestPortal({ env: { TRUST_PROXY: `${proxy}/32` } });
    const throttled = uniqueIp();
    await exhaustContactLimit(throttled);
    expect((await contact(proxy, throttled)).statusCode).toBe(429);
    expect((await contact(proxy, uniqueIp())).statusCode).toBe(200);
    // A client that is not the named proxy is its own address, whatever it forwards.
    const stranger = uniqueIp();
    await exhaustContactLimit(stranger);
    expect((await contact(stranger, uniqueIp())).statusCode).toBe(429);
  });
});
