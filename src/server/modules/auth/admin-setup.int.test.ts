import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueEmail } from '../../../testing/mailbox.ts';
import { adminSetupTokens, users } from '../../db/schema.ts';
import { parseEnv } from '../../env.ts';
import { createLogger } from '../../lib/logger.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { createRuntime, type Runtime } from '../../runtime.ts';
import { adminSetupStatus, ensureFirstAdmin, setupAdmin } from './admin-setup.service.ts';

// "No administrator exists" is a fact about the whole database, so this file gets a database of
// its own (a fresh one on the run's PostgreSQL server, or an in-memory PGlite) and empties its
// accounts before each test.
let runtime: Runtime;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-setup-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl: string | undefined;
  const server = inject('databaseUrl');
  if (server) {
    const name = `portal_setup_${randomBytes(5).toString('hex')}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
  }
  const env = parseEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '4321',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
  });
  runtime = await createRuntime(env, createLogger('silent'), { inMemoryDatabase: true });
  cleanups.push(() => runtime.close());
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
beforeEach(async () => {
  await runtime.db.delete(adminSetupTokens);
  await runtime.db.delete(users);
});

/** The runtime as a start with these settings would see it. */
function startingWith(env: Partial<Runtime['env']>): Runtime {
  return { ...runtime, env: { ...runtime.env, ...env } };
}

const admins = () => runtime.db.select().from(users).where(eq(users.role, 'admin'));

describe('the first administrator from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('is created once, verified and approved, with the password hashed', async () => {
    const starting = startingWith({ ADMIN_EMAIL: 'Harbour.Master@Example.com', ADMIN_PASSWORD: 'long-enough-secret' });
    expect(await ensureFirstAdmin(starting)).toEqual({ kind: 'created', email: 'harbour.master@example.com' });
    expect(await ensureFirstAdmin(starting)).toEqual({ kind: 'exists' });
    const [admin, ...more] = await admins();
    expect(more).toHaveLength(0);
    expect(admin).toMatchObject({ email: 'harbour.master@example.com', role: 'admin' });
    expect(admin!.verifiedAt).toBeInstanceOf(Date);
    expect(await verifyPassword(admin!.passwordHash, 'long-enough-secret')).toBe(true);
    expect(await runtime.db.select().from(adminSetupTokens)).toHaveLength(0);
  });

  it('promotes an existing account with that e-mail instead of failing', async () => {
    const starting = startingWith({ ADMIN_EMAIL: 'captain@example.com', ADMIN_PASSWORD: 'long-enough-secret' });
    const learner = await createUser(runtime.db, { email: 'captain@example.com' });
    expect((await ensureFirstAdmin(starting)).kind).toBe('promoted');
    const [admin] = await admins();
    expect(admin!.id).toBe(learner.id);
  });
});

describe('without them, a one-time set-up link', () => {
  it('is logged at start and lets its holder create the administrator once', async () => {
    const outcome = await ensureFirstAdmin(runtime);
    if (outcome.kind !== 'link') throw new Error(`expected a link, got ${outcome.kind}`);
    expect(outcome.url).toMatch(/^http:\/\/localhost:4321\/admin-setup\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(outcome.url).searchParams.get('token')!;
    const [stored] = await runtime.db.select().from(adminSetupTokens);
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    expect(await adminSetupStatus(runtime, token)).toEqual({ valid: true });
    const form = {
      title: 'Prof' as const,
      firstName: 'Anita',
      lastName: 'Desai',
      mobile: '9988776655',
      email: uniqueEmail('admin'),
      password: 'a-long-admin-password',
      token,
    };
    expect(await setupAdmin(runtime, form)).toEqual({ message: MESSAGES.auth.adminCreated });
    const [admin] = await admins();
    expect(admin).toMatchObject({ email: form.email, role: 'admin', firstName: 'Anita' });
    expect(admin!.approvedAt).toBeInstanceOf(Date);

    await expect(setupAdmin(runtime, { ...form, email: uniqueEmail('second') })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MESSAGES.auth.adminSetupInvalid,
    });
    expect(await admins()).toHaveLength(1);
    expect(await adminSetupStatus(runtime, token)).toEqual({ valid: false });
    expect(await ensureFirstAdmin(runtime)).toEqual({ kind: 'exists' });
  });

  it('is replaced by the next start, refused when expired, and never accepts a guessed token', async () => {
    const starting = startingWith({ PUBLIC_URL: 'https://academy.example/' });
    const first = await ensureFirstAdmin(starting);
    const second = await ensureFirstAdmin(starting);
    if (first.kind !== 'link' || second.kind !== 'link') throw new Error('expected links');
    expect(second.url.startsWith('https://academy.example/admin-setup?token=')).toBe(true);
    const oldToken = new URL(first.url).searchParams.get('token')!;
    const newToken = new URL(second.url).searchParams.get('token')!;
    expect(await adminSetupStatus(runtime, oldToken)).toEqual({ valid: false });
    expect(await adminSetupStatus(runtime, 'A'.repeat(43))).toEqual({ valid: false });

    await runtime.db.update(adminSetupTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await adminSetupStatus(runtime, newToken)).toEqual({ valid: false });
    await expect(
      setupAdmin(runtime, {
        title: 'Mr',
        firstName: 'Late',
        lastName: 'Comer',
        mobile: '9000000000',
        email: uniqueEmail('late'),
        password: TEST_PASSWORD.repeat(2),
        token: newToken,
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await admins()).toHaveLength(0);
  });

  it('is not issued when an administrator exists', async () => {
    await createUser(runtime.db, { role: 'admin' });
    expect(await ensureFirstAdmin(runtime)).toEqual({ kind: 'exists' });
    expect(await runtime.db.select().from(adminSetupTokens)).toHaveLength(0);
  });
});
