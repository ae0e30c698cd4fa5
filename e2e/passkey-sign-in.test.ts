import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { auditEntries, secondFactors } from '../src/server/db/schema.ts';
import { createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';

/** A free port, so the portal's public address (the passkey's relying party) can name it before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let harness: BrowserHarness;
let origin: string;
beforeAll(async () => {
  const port = await freePort();
  // WebAuthn needs a host name (not an IP address) for its relying party: the portal is reached at localhost.
  origin = `http://localhost:${port}`;
  harness = await startBrowserHarness({ env: { PUBLIC_URL: origin } }, { port });
});
afterAll(() => harness?.close());

it('an owner without a second factor registers a passkey at sign-in (390 px), keeps the recovery codes, then signs in with it', async () => {
  const owner = await createUser(harness.portal.runtime.db, { role: 'admin', staffRole: 'owner' }, { secondFactor: false });
  const context = await harness.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // Chromium's virtual authenticator stands in for the phone's or laptop's.
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const logIn = async () => {
    await page.goto(paths.adminLogin);
    await page.getByLabel('Email Address').fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
  };

  await logIn();
  // Enrolment is forced: no session until a factor is set up.
  await page.getByRole('button', { name: 'Register a passkey' }).click();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await codes.first().waitFor();
  expect(await codes.count()).toBe(10);
  await page.screenshot({ path: '/tmp/mfa-recovery-codes-390.png', fullPage: true });
  const proceed = page.getByRole('button', { name: 'Continue to the portal' });
  expect(await proceed.isDisabled()).toBe(true);
  await page.getByLabel('I have saved my recovery codes').check();
  await proceed.click();
  await page.waitForURL((url) => url.pathname === paths.admin.root, { timeout: 15_000 });
  expect(await harness.portal.runtime.db.select().from(secondFactors).where(eq(secondFactors.userId, owner.id))).toEqual([expect.objectContaining({ kind: 'passkey' })]);

  // Signed out, the next sign-in asks for the passkey.
  await context.clearCookies();
  await page.evaluate(() => localStorage.clear());
  await logIn();
  const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
  await usePasskey.waitFor();
  // No app to ask a code of: the passkey, or a recovery code.
  expect(await page.getByRole('button', { name: 'Use a recovery code' }).isVisible()).toBe(true);
  expect(await page.getByLabel('Authentication code').count()).toBe(0);
  await page.screenshot({ path: '/tmp/mfa-passkey-step-390.png' });
  await usePasskey.click();
  await page.waitForURL((url) => url.pathname === paths.admin.root, { timeout: 15_000 });

  const signIns = await harness.portal.runtime.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.subjectId, owner.id), eq(auditEntries.action, 'auth.sign-in')));
  expect(signIns.map((entry) => (entry.after as { method: string }).method)).toEqual(['passkey', 'passkey']);
  expect(problems).toEqual([]);
  await context.close();
});
