import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { loadPage, namedByThePage, waterfall } from './support/page-load.ts';

const C = MESSAGES.certificate;

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

describe('the public certificate check', () => {
  it('opens from a QR code at either address form, with its code preloaded and no layout shift', async () => {
    for (const address of ['/verify/MTA/2026/000123', '/verify/MTA%2F2026%2F000123']) {
      const load = await loadPage(harness.browser, `${harness.baseUrl}${address}`);
      const report = waterfall(load);
      // Every script was named by the page itself: the screen's code comes in one round of requests.
      for (const script of load.scripts) expect(namedByThePage(script), `${script.url} (${script.initiator})\n${report}`).toBe(true);
      expect(load.cls, report).toBeLessThan(0.05);

      const { page, context, problems } = await harness.newPage(390, 844);
      await page.goto(address);
      expect(await page.getByRole('textbox', { name: 'Certificate number' }).inputValue()).toBe('MTA/2026/000123');
      // No certificate has this number in a fresh database.
      await page.getByText(C.unknownNumber).waitFor();
      expect(await page.title()).toContain('Certificate MTA/2026/000123');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(problems).toEqual([expect.stringContaining('status of 404')]);
      await context.close();
    }
  });

  it('is linked from the footer, and a typed number is checked without a login', async () => {
    const { page, context } = await harness.newPage(1280);
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Verify a certificate' }).click();
    await page.getByRole('heading', { level: 1, name: 'Verify a certificate' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify');

    const field = page.getByRole('textbox', { name: 'Certificate number' });
    await field.fill('MTA 2026');
    await field.press('Enter');
    await page.getByText(C.numberFormat).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify');

    await field.fill(' mta/2026/000456 ');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/verify/MTA/2026/000456');
    await page.getByText(C.unknownNumber).waitFor();
    await context.close();
  });
});
