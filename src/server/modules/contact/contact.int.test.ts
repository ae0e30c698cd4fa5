import { MESSAGES } from '../../../shared/messages.ts';
import { mailsTo, uniqueIp } from '../../../testing/mailbox.ts';
import { mails } from '../../db/schema.ts';
import { CONTACT_LIMIT, contactKey } from './contact.service.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

const ACADEMY = 'desk@academy.example';
const viaRedis = Boolean(inject('redisUrl'));

const message = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ravi Menon',
  email: 'Ravi.Menon@Example.com',
  phone: '+91 98765-43210',
  message: 'When does the next\nBasic Safety batch start?',
  ...overrides,
});

test.override({ portalOptions: { redis: viaRedis, env: { ACADEMY_EMAIL: ACADEMY }, smtp: true } });

const it = test
  .extend('mailCount', { scope: 'file' }, ({ db }) => async () => (await db.select({ id: mails.id }).from(mails)).length);

describe(`the contact form (${viaRedis ? 'BullMQ on Redis' : 'in-process jobs'}, real SMTP)`, () => {
  it('delivers the message to the academy and confirms (tRPC)', async ({ portal, smtp }) => {
    const result = await portal.caller(null, uniqueIp()).contact.send(message());
    expect(result).toEqual({ message: MESSAGES.contact.sent });
    const [mail] = await mailsTo(smtp, ACADEMY);
    expect(mail!.subject).toContain('message from Ravi Menon');
    expect(mail!.text).toContain('Email: ravi.menon@example.com');
    expect(mail!.text).toContain('Phone: +919876543210');
    expect(mail!.text).toContain('When does the next\nBasic Safety batch start?');
  });

  it('answers POST /api/contact, the phone being optional', async ({ portal, smtp }) => {
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: uniqueIp(),
      payload: message({ phone: undefined, name: 'Asha Pillai' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.contact.sent });
    const received = await mailsTo(smtp, ACADEMY, 2);
    expect(received.some((mail) => mail.subject.includes('Asha Pillai') && mail.text.includes('Phone: not given'))).toBe(true);
  });

  it('refuses bad input with a clear message and queues nothing', async ({ mailCount, portal }) => {
    const before = await mailCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, MESSAGES.contact.nameRequired],
      [{ message: '   ' }, MESSAGES.contact.messageRequired],
      [{ message: undefined }, MESSAGES.contact.messageRequired],
      [{ email: 'nobody' }, MESSAGES.validation.emailInvalid],
      [{ email: undefined }, MESSAGES.validation.emailRequired],
      [{ phone: '12ab' }, MESSAGES.validation.phone],
      [{ name: 'Evil\r\nBcc: victim@example.com' }, MESSAGES.validation.badCharacters('Name')],
      [{ name: '<script>' }, MESSAGES.validation.badCharacters('Name')],
      [{ message: 'x'.repeat(5001) }, MESSAGES.validation.tooLong('Message', 5000)],
      [{ to: 'someone@else.example' }, MESSAGES.validation.unknownFields(['to'])],
    ];
    for (const [overrides, expected] of cases) {
      const res = await portal.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: uniqueIp(), payload: message(overrides) });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message, JSON.stringify(overrides)).toBe(expected);
    }
    const notObject = await portal.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: '"hello"',
    });
    expect(notObject.statusCode).toBe(400);
    await expect(portal.caller(null, uniqueIp()).contact.send(message({ name: '' }))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await mailCount()).toBe(before);
  });

  it('throttles each address: 429 with Retry-After, nothing queued, other addresses unaffected', async ({ mailCount, portal }) => {
    const ip = uniqueIp();
    for (let i = 0; i < CONTACT_LIMIT.limit; i += 1) await portal.runtime.rateLimit.hit(contactKey(ip), CONTACT_LIMIT.windowMs);
    const before = await mailCount();
    const res = await portal.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: ip, payload: message() });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(MESSAGES.contact.tooMany(60));
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await expect(portal.caller(null, ip).contact.send(message())).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await mailCount()).toBe(before);

    const elsewhere = await portal.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: uniqueIp(), payload: message() });
    expect(elsewhere.statusCode).toBe(200);
  });
});
