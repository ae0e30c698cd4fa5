import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, sessionOf, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueIp } from '../../../testing/mailbox.ts';
import { freshTestCodeFor, testTotpSecretFor, totpCodeAt } from '../../../testing/second-factor.ts';
import { SoftAuthenticator } from '../../../testing/webauthn.ts';
import { auditEntries, recoveryCodes, refreshTokens, secondFactors } from '../../db/schema.ts';
import { verifyAccessToken } from '../../lib/tokens.ts';
import { changeAcademySettings } from '../settings/settings.service.ts';
import { completeSecondFactor, login } from './auth.service.ts';
import { relyingParty, SECOND_FACTOR_LIMITS } from './second-factor.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const STEP = 30_000;

const it = test
  /** A password login that must ask for a second factor: its challenge token. */
  .extend('challengeFor', { scope: 'file' }, ({ portal }) => async (email: string, ip = uniqueIp(), adminOnly = false): Promise<{ challengeToken: string; methods: string[] }> => {
    const answer = await login(portal.runtime, { email, password: TEST_PASSWORD }, ip, { adminOnly });
    if (!('secondFactorRequired' in answer)) throw new Error('expected a second-factor challenge');
    return answer;
  })
  .extend('auditOf', { scope: 'file' }, ({ db }) => (userId: string, action: string) =>
    db.select().from(auditEntries).where(and(eq(auditEntries.subjectId, userId), eq(auditEntries.action, action))))
  .extend('post', { scope: 'file' }, ({ portal }) => (url: string, payload: object) => portal.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueIp() }));

describe('a member of staff signs in with a code from their app', () => {
  it('gets no session for the password alone: a challenge naming the ways to give the factor', async ({ auditOf, challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const challenge = await challengeFor(admin.email);
    expect(challenge.methods).toEqual(['totp', 'recovery']);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.userId, admin.id))).toHaveLength(0);

    const session = await completeSecondFactor(portal.runtime, { challengeToken: challenge.challengeToken, code: await freshTestCodeFor(admin.email) }, uniqueIp());
    expect(verifyAccessToken(session.accessToken, portal.runtime.jwtSecret)).toMatchObject({ sub: admin.id, role: 'admin', mf: 'passed' });
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, admin.id));
    expect(row!.secondFactor).toBe('passed');
    expect(await auditOf(admin.id, 'auth.sign-in')).toEqual([expect.objectContaining({ actorId: admin.id, after: { secondFactor: 'passed', method: 'totp' } })]);
  });

  it('accepts the code of the step before or after the clock, refuses older ones and a code used already', async ({ auditOf, challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const secret = testTotpSecretFor(admin.email);
    // A clock of the test's choosing, in the middle of a step.
    const now = Math.floor(Date.now() / STEP) * STEP + 1_000 + 10 * STEP;
    const tryCode = async (codeAtMs: number, at = now) => {
      const { challengeToken } = await challengeFor(admin.email);
      return completeSecondFactor(portal.runtime, { challengeToken, code: totpCodeAt(secret, codeAtMs) }, uniqueIp(), new Date(at)).then(
        () => 'signed in',
        (err: { message: string }) => err.message,
      );
    };
    expect(await tryCode(now - 2 * STEP)).toBe(MESSAGES.secondFactor.codeWrong);
    expect(await tryCode(now - STEP)).toBe('signed in');
    expect(await tryCode(now)).toBe('signed in');
    // The same code again, within its step: refused.
    expect(await tryCode(now)).toBe(MESSAGES.secondFactor.codeWrong);
    expect(await tryCode(now + STEP)).toBe('signed in');
    // After a later step has been used, an earlier (still in the window) one is refused.
    expect(await tryCode(now, now + STEP)).toBe(MESSAGES.secondFactor.codeWrong);
    expect(await tryCode(now + 3 * STEP, now + 3 * STEP)).toBe('signed in');
    expect(await auditOf(admin.id, 'auth.second-factor-failed')).toHaveLength(3);
  });

  it('uses a challenge once, and refuses one signed for someone else or altered', async ({ challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const { challengeToken } = await challengeFor(admin.email);
    await completeSecondFactor(portal.runtime, { challengeToken, code: await freshTestCodeFor(admin.email) }, uniqueIp());
    await expect(
      completeSecondFactor(portal.runtime, { challengeToken, code: await freshTestCodeFor(admin.email) }, uniqueIp()),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: MESSAGES.secondFactor.challengeExpired });
    const [head, body, signature] = (await challengeFor(admin.email)).challengeToken.split('.');
    const other = await createUser(db, { role: 'admin' });
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: other.id })).toString('base64url')}.${signature}`;
    await expect(completeSecondFactor(portal.runtime, { challengeToken: forged, code: await freshTestCodeFor(other.email) }, uniqueIp())).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('throttles wrong codes per account and address; a right code takes its try back', async ({ challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const ip = uniqueIp();
    const secret = testTotpSecretFor(admin.email);
    // A code that is none of the window's.
    const window = [-1, 0, 1, 2].map((step) => totpCodeAt(secret, Date.now() + step * STEP));
    const wrongCode = ['000000', '111111', '222222', '333333', '444444'].find((code) => !window.includes(code))!;
    const wrong = async () => {
      const { challengeToken } = await challengeFor(admin.email);
      return completeSecondFactor(portal.runtime, { challengeToken, code: wrongCode }, ip).catch((err: { code: string }) => err.code);
    };
    for (let i = 0; i < SECOND_FACTOR_LIMITS.perAddressAndAccount.limit - 1; i += 1) expect(await wrong()).toBe('UNAUTHORIZED');
    // A right code takes its own try back (the wrong ones stay counted).
    const { challengeToken } = await challengeFor(admin.email);
    await completeSecondFactor(portal.runtime, { challengeToken, code: await freshTestCodeFor(admin.email) }, ip);
    expect(await wrong()).toBe('UNAUTHORIZED');
    expect(await wrong()).toBe('TOO_MANY_REQUESTS');
    // Another address may still try for this account.
    const other = await challengeFor(admin.email);
    await expect(completeSecondFactor(portal.runtime, { challengeToken: other.challengeToken, code: await freshTestCodeFor(admin.email) }, uniqueIp())).resolves.toMatchObject({
      user: { id: admin.id },
    });
  });
});

describe('enrolment at the next sign-in', () => {
  it('forces a member of staff without a factor to set up an app, then shows ten recovery codes that each work once', async ({ auditOf, challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' }, { secondFactor: false });
    const challenge = await challengeFor(admin.email, uniqueIp(), true);
    expect(challenge.methods).toEqual(['enrol']);
    const visitor = portal.caller(null, uniqueIp());
    // The enrolment token cannot sign in with a code.
    await expect(visitor.auth.secondFactor({ challengeToken: challenge.challengeToken, code: '123456' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    const app = await visitor.auth.enrolTotp({ challengeToken: challenge.challengeToken });
    expect(app.uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(app.uri).toContain(app.secret);
    expect(app.qrCode).toMatch(/^data:image\/png;base64,/);
    await expect(visitor.auth.confirmTotp({ challengeToken: challenge.challengeToken, code: totpCodeAt(app.secret, Date.now() - 5 * STEP) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MESSAGES.secondFactor.codeWrong,
    });
    const enrolled = await visitor.auth.confirmTotp({ challengeToken: challenge.challengeToken, code: totpCodeAt(app.secret, Date.now()) });
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(new Set(enrolled.recoveryCodes).size).toBe(10);
    expect(verifyAccessToken(enrolled.accessToken, portal.runtime.jwtSecret)).toMatchObject({ mf: 'passed' });
    // Stored hashed: no code appears in the table.
    const stored = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin.id));
    expect(stored.map((row) => row.codeHash)).not.toEqual(expect.arrayContaining([enrolled.recoveryCodes[0]]));
    expect(await auditOf(admin.id, 'auth.factor-enrolled')).toHaveLength(1);

    // A recovery code, typed in capitals, works once.
    const code = enrolled.recoveryCodes[3]!.toUpperCase();
    const next = await challengeFor(admin.email);
    expect(next.methods).toEqual(['totp', 'recovery']);
    await expect(completeSecondFactor(portal.runtime, { challengeToken: next.challengeToken, recoveryCode: code }, uniqueIp())).resolves.toMatchObject({ user: { id: admin.id } });
    const again = await challengeFor(admin.email);
    await expect(completeSecondFactor(portal.runtime, { challengeToken: again.challengeToken, recoveryCode: code }, uniqueIp())).rejects.toMatchObject({
      message: MESSAGES.secondFactor.recoveryWrong,
    });
    expect(await portal.caller(sessionOf(admin)).security.overview()).toMatchObject({ recoveryCodesLeft: 9, required: true, factors: [{ kind: 'totp' }] });
  });

  it('registers a passkey and then signs in with it (a software authenticator, ES256)', async ({ challengeFor, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' }, { secondFactor: false });
    const rp = relyingParty(portal.runtime);
    const authenticator = new SoftAuthenticator(rp.origin);
    const visitor = portal.caller(null, uniqueIp());
    const { challengeToken } = await challengeFor(admin.email);
    const creation = (await visitor.auth.passkeyEnrolmentOptions({ challengeToken })) as { challenge: string; rp: { id: string } };
    expect(creation.rp.id).toBe(rp.id);
    // An attestation made on another site is refused.
    await expect(visitor.auth.registerPasskey({ challengeToken, response: authenticator.register(creation, 'https://elsewhere.example') })).rejects.toMatchObject({
      message: MESSAGES.secondFactor.passkeyFailed,
    });
    const enrolled = await visitor.auth.registerPasskey({ challengeToken, response: authenticator.register(creation), label: 'Laptop' });
    expect(enrolled.recoveryCodes).toHaveLength(10);

    const next = await challengeFor(admin.email);
    expect(next.methods).toEqual(['passkey', 'recovery']);
    const request = (await visitor.auth.passkeySignInOptions({ challengeToken: next.challengeToken })) as { challenge: string; allowCredentials: { id: string }[] };
    expect(request.allowCredentials.map((key) => key.id)).toEqual([authenticator.id]);
    const session = await visitor.auth.secondFactor({ challengeToken: next.challengeToken, passkey: authenticator.assert(request) });
    expect(verifyAccessToken(session.accessToken, portal.runtime.jwtSecret)).toMatchObject({ sub: admin.id, mf: 'passed' });
    // An assertion signed for another challenge is refused.
    const third = await challengeFor(admin.email);
    await expect(visitor.auth.secondFactor({ challengeToken: third.challengeToken, passkey: authenticator.assert(request) })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: MESSAGES.secondFactor.passkeyFailed,
    });
    const [factor] = await db.select().from(secondFactors).where(eq(secondFactors.userId, admin.id));
    expect(factor).toMatchObject({ kind: 'passkey', label: 'Laptop', signCount: 1 });
  });
});

describe('the spec REST login', () => {

  it('answers a learner exactly as before', async ({ db, post }) => {
    const learner = await createUser(db);
    const res = await post('/api/user/login', { email: learner.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['accessToken', 'refreshToken', 'user']);
    expect(res.json().user).toEqual({ _id: learner.id, name: `${learner.firstName} ${learner.lastName}`, email: learner.email, role: 'learner' });
  });

  it('answers staff 200 with secondFactorRequired and a challenge; the second call answers the login body', async ({ db, portal, post }) => {
    const admin = await createUser(db, { role: 'admin' });
    const first = await post('/api/user/login', { email: admin.email, password: TEST_PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactorRequired: true, challengeToken: expect.any(String), methods: ['totp', 'recovery'] });
    const wrong = await post('/api/user/login/second-factor', { challengeToken: first.json().challengeToken, code: '12345' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(MESSAGES.secondFactor.recoveryWrong);
    const second = await post('/api/user/login/second-factor', { challengeToken: first.json().challengeToken, code: await freshTestCodeFor(admin.email) });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), user: { _id: admin.id, name: expect.any(String), email: admin.email, role: 'admin' } });
    const document = (await portal.app.inject({ url: '/api/docs/openapi.json' })).json();
    expect(document.paths['/user/login/second-factor'].post.requestBody.content['application/json'].schema.required).toEqual(['challengeToken', 'code']);
    expect(JSON.stringify(document.paths['/user/login'].post.responses['200'])).toContain('secondFactorRequired');
  });

  it('asks a learner who turned a second factor on for it', async ({ auditOf, db, portal, post }) => {
    const learner = await createUser(db);
    const caller = portal.caller(sessionOf(learner), uniqueIp());
    const app = await caller.security.startTotp();
    const { recoveryCodes: codes } = await caller.security.confirmTotp({ code: totpCodeAt(app.secret, Date.now()) });
    expect(codes).toHaveLength(10);
    const first = await post('/api/user/login', { email: learner.email, password: TEST_PASSWORD });
    expect(first.json()).toMatchObject({ secondFactorRequired: true, methods: ['totp', 'recovery'] });
    const second = await post('/api/user/login/second-factor', { challengeToken: first.json().challengeToken, code: codes[0] });
    expect(second.json().user).toMatchObject({ _id: learner.id, role: 'learner' });
    // Turned off again (a learner may remove their last factor): the plain login returns.
    const [factor] = (await caller.security.overview()).factors;
    await caller.security.removeFactor({ factorId: factor!.id });
    expect((await post('/api/user/login', { email: learner.email, password: TEST_PASSWORD })).json()).toHaveProperty('refreshToken');
    expect(await auditOf(learner.id, 'auth.factor-removed')).toHaveLength(1);
  });
});

describe('the academy setting and the owner’s reset', () => {
  it('waives the factor for staff without one when the academy makes it optional', async ({ auditOf, challengeFor, db, portal }) => {
    const owner = await createUser(db, { role: 'admin' });
    const actor = { id: owner.id, name: 'Owner', staffRole: 'owner' as const, address: '127.0.0.1' };
    const admin = await createUser(db, { role: 'admin', staffRole: 'registrar' }, { secondFactor: false });
    await changeAcademySettings(portal.runtime, actor, { staffSecondFactorRequired: false });
    try {
      const session = await login(portal.runtime, { email: admin.email, password: TEST_PASSWORD }, uniqueIp());
      if ('secondFactorRequired' in session) throw new Error('expected a session');
      expect(verifyAccessToken(session.accessToken, portal.runtime.jwtSecret)).toMatchObject({ mf: 'waived' });
      expect(await auditOf(admin.id, 'auth.sign-in')).toEqual([expect.objectContaining({ after: { secondFactor: 'waived', method: null } })]);
      // Staff who set one up are still asked for it.
      expect(await challengeFor(owner.email)).toMatchObject({ methods: ['totp', 'recovery'] });
    } finally {
      await changeAcademySettings(portal.runtime, actor, { staffSecondFactorRequired: true });
    }
  });

  it('lets another owner reset a member’s factors (audited), never their own; the member enrols again', async ({ auditOf, challengeFor, db, portal }) => {
    const owner = await createUser(db, { role: 'admin' });
    const member = await createUser(db, { role: 'admin', staffRole: 'registrar' });
    const ownerCaller = portal.caller(sessionOf(owner), uniqueIp());
    await expect(ownerCaller.security.resetMemberFactors({ userId: owner.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.secondFactor.notYourself });
    await expect(portal.caller(sessionOf(member)).security.resetMemberFactors({ userId: owner.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    await ownerCaller.security.resetMemberFactors({ userId: member.id });
    expect(await db.select().from(secondFactors).where(eq(secondFactors.userId, member.id))).toHaveLength(0);
    expect(await auditOf(member.id, 'auth.factors-reset')).toEqual([
      expect.objectContaining({ actorId: owner.id, actorRole: 'owner', before: { factors: [expect.objectContaining({ kind: 'totp' })] }, after: { factors: [] } }),
    ]);
    expect(await challengeFor(member.email)).toMatchObject({ methods: ['enrol'] });
  });

  it('keeps a member of staff from removing their last factor while the academy asks for one', async ({ auditOf, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const caller = portal.caller(sessionOf(admin), uniqueIp());
    const [factor] = (await caller.security.overview()).factors;
    await expect(caller.security.removeFactor({ factorId: factor!.id })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.secondFactor.lastFactor });
    const { recoveryCodes: codes } = await caller.security.regenerateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(await auditOf(admin.id, 'auth.recovery-codes-regenerated')).toHaveLength(1);
  });
});
