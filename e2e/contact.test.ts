import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mails } from '../src/server/db/schema.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { PRERENDERED_ATTRIBUTE } from '../src/shared/prerender.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('the contact page', () => {
  it('comes drawn by the server, and a visitor on a phone sends a message once and is thanked', async () => {
    const name = `Ravi Menon ${Date.now()}`;
    const { page, context, problems } = await harness.newPage(390, 844);
    await page.goto('/contact');
    // The page shows from its HTML: the heading and the form are there before any code runs.
    expect(await page.locator(`#root[${PRERENDERED_ATTRIBUTE}]`).count()).toBe(1);
    await page.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();

    await page.getByLabel('Your name').fill(name);
    await page.getByLabel('E-mail').fill('ravi.menon@example.com');
    await page.getByLabel('Message', { exact: true }).fill('When does the next Basic Safety batch start?');
    await page.getByRole('button', { name: 'Send message' }).click();

    await page.getByRole('heading', { name: 'Message sent' }).waitFor();
    await page.getByText(MESSAGES.contact.sent).waitFor();
    // The academy gets the message once, with what the visitor wrote.
    const written = await harness.portal.runtime.db.select().from(mails).where(like(mails.subject, `%${name}%`));
    expect(written).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
