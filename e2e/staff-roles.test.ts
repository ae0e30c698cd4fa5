import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { FRAME_ATTRIBUTE } from '../src/shared/prerender.ts';
import { createUser } from '../src/testing/factories.ts';
import { mailsTo, uniqueEmail } from '../src/testing/mailbox.ts';
import { freshTotpCode } from '../src/testing/second-factor.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { overflowing } from './support/layout.ts';
import { signInAs } from './support/session.ts';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';
const WIDTHS = [390, 1280] as const;
const heightOf = (width: number) => (width === 390 ? 844 : 900);

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let harness: BrowserHarness;
beforeAll(async () => {
  smtp = await startSmtpServer();
  harness = await startBrowserHarness({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await harness?.close();
  await smtp?.close();
});

/** Opens an admin address and waits for the app to take over from the server's frame. */
async function openAdmin(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction((attribute) => !document.querySelector(`[${attribute}]`), FRAME_ATTRIBUTE);
}

/** A dialog as it stands once it and its backdrop have finished appearing (endless spinners aside). */
async function settled(dialog: Locator) {
  await dialog.waitFor();
  await dialog.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished),
    ),
  );
}

/** What a member sees fits the screen, its heading is there, and it is kept as a screenshot to look at. */
async function looksRight(page: Page, name: string, width: number, heading: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/staff-${name}-${width}.png`, fullPage: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/staff-${name}-${width}-screen.png` });
  expect(await overflowing(page)).toEqual({ page: false, elements: [] });
}

describe('The admin area as each role sees it', () => {
  for (const width of WIDTHS) {
    it(`an instructor is offered no staff management, and the Staff address says it is not part of their role (${width} px)`, async () => {
      const instructor = await createUser(harness.portal.runtime.db, { role: 'admin', staffRole: 'instructor' });
      const { page, context, problems } = await harness.newPage(width, heightOf(width));
      try {
        await signInAs(page, instructor.email);
        await openAdmin(page, paths.admin.root);
        let menu = page.getByRole('navigation', { name: 'Admin' });
        if (width === 390) {
          await page.locator('button[aria-label="Open admin menu"]:not([disabled])').click();
          menu = page.getByRole('dialog', { name: 'Admin menu' }).getByRole('navigation', { name: 'Admin' });
        }
        // The role's own screens are listed once the role is known; staff management never.
        await menu.getByRole('link', { name: 'All Courses' }).waitFor();
        expect(await menu.getByRole('link', { name: 'Staff', exact: true }).count()).toBe(0);
        expect(await menu.getByRole('link', { name: 'Academy Settings' }).count()).toBe(0);
        expect(await menu.getByRole('heading', { name: 'Academy' }).count()).toBe(0);
        if (width === 390) await page.keyboard.press('Escape');

        await openAdmin(page, paths.admin.staff.list);
        await looksRight(page, 'not-your-role', width, 'Not part of your role');
        expect(await page.getByText('Instructor', { exact: true }).isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Invite a member' }).count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it(`the owner invites a registrar, who joins from the mail's link and signs in on the administrator login (${width} px)`, async () => {
      const owner = await createUser(harness.portal.runtime.db, { role: 'admin', staffRole: 'owner' });
      const email = uniqueEmail('registrar');
      const lastName = `Iyer ${Date.now().toString(36)}`;
      const ownerPage = await harness.newPage(width, heightOf(width));
      const registrarPage = await harness.newPage(width, heightOf(width));
      try {
        const { page } = ownerPage;
        await signInAs(page, owner.email);
        await openAdmin(page, paths.admin.staff.list);
        await page.getByRole('heading', { level: 2, name: /Members/ }).waitFor();
        await page.getByRole('button', { name: 'Invite a member' }).click();
        const dialog = page.getByRole('dialog', { name: 'Invite a member of staff' });
        await dialog.getByLabel('E-mail').fill(email);
        await dialog.getByRole('radio', { name: /^Registrar/ }).check();
        await settled(dialog);
        expect(await overflowing(page)).toEqual({ page: false, elements: [] });
        await page.screenshot({ path: `${SCREENSHOT_DIR}/staff-invite-dialog-${width}.png` });
        await dialog.getByRole('button', { name: 'Send invitation' }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).waitFor();
        await looksRight(page, 'staff', width, 'Staff');

        const [mail] = await mailsTo(smtp, email);
        const link = mail!.text.match(/\/join-staff\?token=[\w-]+/)?.[0];
        expect(link).toBeTruthy();

        const joining = registrarPage.page;
        await joining.goto(link!);
        await joining.getByText(email).waitFor();
        await looksRight(joining, 'join', width, 'Join the academy’s staff');
        await joining.getByLabel('First name').fill('Meera');
        await joining.getByLabel('Last name').fill(lastName);
        await joining.getByLabel('Password', { exact: true }).fill('a long harbour password');
        await joining.getByLabel('Confirm password').fill('a long harbour password');
        await joining.getByRole('button', { name: 'Join the staff' }).click();

        // The join page hands over to the administrator login, the e-mail filled in.
        await joining.waitForURL((url) => url.pathname === paths.adminLogin, { timeout: 15_000 });
        expect(await joining.getByLabel('Email Address').inputValue()).toBe(email);
        await joining.getByLabel('Password').fill('a long harbour password');
        await joining.getByRole('button', { name: 'Login' }).click();
        // A new member sets up their second factor at this first sign-in: an authenticator app.
        await joining.getByRole('button', { name: 'Set up an authenticator app' }).click();
        const secret = ((await joining.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
        await joining.getByLabel('6-digit code').fill(await freshTotpCode(secret));
        await joining.getByRole('button', { name: 'Confirm and sign in' }).click();
        await joining.getByTestId('recovery-codes').waitFor();
        expect(await joining.getByTestId('recovery-codes').getByRole('listitem').count()).toBe(10);
        await joining.getByLabel('I have saved my recovery codes').check();
        await joining.getByRole('button', { name: 'Continue to the portal' }).click();
        await joining.waitForURL((url) => url.pathname.startsWith(paths.admin.root), { timeout: 15_000 });
        // A registrar's area: certificates, never staff management.
        await openAdmin(joining, paths.admin.certificates.list);
        await joining.getByRole('heading', { level: 1, name: 'Certificates' }).waitFor();
        await openAdmin(joining, paths.admin.staff.list);
        await joining.getByRole('heading', { level: 1, name: 'Not part of your role' }).waitFor();

        // The invitation is used: the owner's list has the member, no longer the invitation.
        await page.reload();
        await page.getByText(`Meera ${lastName}`).waitFor();
        expect(await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).count()).toBe(0);
        expect([...ownerPage.problems, ...registrarPage.problems]).toEqual([]);
      } finally {
        await ownerPage.context.close();
        await registrarPage.context.close();
      }
    }, 180_000);

    it(`an auditor searches the audit trail by person, sees a change before and after, and finds the chain whole (${width} px)`, async () => {
      const db = harness.portal.runtime.db;
      const unique = Date.now().toString(36);
      const owner = await createUser(db, { role: 'admin', staffRole: 'owner', firstName: 'Farida', lastName: `Khan ${unique}` });
      const member = await createUser(db, { role: 'admin', staffRole: 'registrar' });
      const auditor = await createUser(db, { role: 'admin', staffRole: 'auditor' });
      const { page, context, problems } = await harness.newPage(width, heightOf(width));
      try {
        // The owner changes a member's role: an entry with its before and after.
        const ownerSession = await signInAs(page, owner.email);
        const changed = await page.request.post('/trpc/staff.changeRole', {
          data: { userId: member.id, staffRole: 'instructor' },
          headers: { authorization: `Bearer ${ownerSession.accessToken}` },
        });
        expect(changed.ok()).toBe(true);

        await signInAs(page, auditor.email);
        await openAdmin(page, paths.admin.audit);
        const person = page.getByLabel('Person');
        await person.locator('option', { hasText: `Farida Khan ${unique}` }).waitFor({ state: 'attached' });
        await person.selectOption({ label: `Farida Khan ${unique} (Owner)` });
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        // A table on a wide screen, a card per entry on a phone.
        const entries = width === 390 ? page.getByRole('list', { name: 'Audit entries' }).getByRole('article') : page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr');
        // The owner's sign-in (with its second factor) and the role change, newest first.
        await entries.first().getByText('Staff role changed').waitFor();
        expect(await entries.count()).toBe(2);
        expect(await entries.first().innerText()).toMatch(/staff role: Registrar\s*→\s*Instructor/);
        expect(await entries.nth(1).innerText()).toContain('Signed in');

        await page.getByRole('button', { name: 'Check the chain' }).click();
        await page.getByText(/^The chain is whole: [\d,]+ entr(y|ies) checked\.$/).waitFor({ timeout: 30_000 });
        await looksRight(page, 'audit-trail', width, 'Audit trail');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it(`the owner's Academy Settings and its confirmation fit the screen (${width} px)`, async () => {
      const owner = await createUser(harness.portal.runtime.db, { role: 'admin', staffRole: 'owner' });
      const { page, context, problems } = await harness.newPage(width, heightOf(width));
      try {
        await signInAs(page, owner.email);
        await openAdmin(page, paths.admin.staff.settings);
        await page.getByRole('heading', { level: 2, name: 'Second factor required for staff' }).waitFor();
        await looksRight(page, 'academy-settings', width, 'Academy Settings');
        const makeOptional = page.getByRole('button', { name: 'Make it optional' });
        // Only asked while it is required; the confirmation is closed again, nothing saved.
        if (await makeOptional.isVisible()) {
          await makeOptional.click();
          const confirm = page.getByRole('alertdialog', { name: 'Make the second factor optional?' });
          await settled(confirm);
          await page.screenshot({ path: `${SCREENSHOT_DIR}/staff-academy-settings-confirm-${width}.png` });
          await confirm.getByRole('button', { name: 'Cancel' }).click();
          await confirm.waitFor({ state: 'detached' });
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
