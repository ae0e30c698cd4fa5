import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURED_COURSES } from '../src/shared/constants.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness({ env: { ACADEMY_NAME: 'Harbour Light Maritime Academy', ACADEMY_CITY: 'Kochi' } });
});
afterAll(() => harness?.close());

describe('home page', () => {
  it('renders the hero, Why Choose Us, the six featured courses and the footer', async () => {
    const { page, context, problems } = await harness.newPage(1280);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Browse Courses' }).getAttribute('href')).resolves.toBe('/courses');
    await page.getByRole('heading', { name: /Why Choose Us/i }).waitFor();
    for (const card of ['Expert Instructors', 'Certified Courses', 'Online & Offline']) {
      expect(await page.getByRole('heading', { name: card }).count(), card).toBeGreaterThan(0);
    }
    await page.getByRole('heading', { name: /Our featured courses/i }).waitFor();
    for (const title of FEATURED_COURSES) {
      expect(await page.getByText(title, { exact: true }).count(), title).toBeGreaterThan(0);
    }

    // The academy's details come from the configuration.
    const footer = page.locator('footer');
    await expect(footer.textContent()).resolves.toContain('Kochi');
    await expect(footer.textContent()).resolves.toContain(String(new Date().getFullYear()));
    for (const link of ['Home', 'Courses', 'About', 'Contact']) {
      expect(await footer.getByRole('link', { name: link, exact: true }).count(), link).toBe(1);
    }
    await expect(page.title()).resolves.toContain('Harbour Light Maritime Academy');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('navigation bar', () => {
  it('shows the links on a wide screen and no menu button', async () => {
    const { page, context } = await harness.newPage(1280);
    await page.goto('/');
    const nav = page.getByRole('banner');
    for (const name of ['Home', 'Courses', 'Contact']) {
      expect(await nav.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }
    expect(await nav.getByRole('button', { name: /menu/i }).isVisible()).toBe(false);
    await context.close();
  });

  it('collapses into a 200 px right-side drawer at 600 px that closes on a click inside', async () => {
    const { page, context, problems } = await harness.newPage(600);
    await page.goto('/');
    const nav = page.getByRole('banner');
    expect(await nav.getByRole('link', { name: 'Contact', exact: true }).isVisible()).toBe(false);

    const menu = nav.getByRole('button', { name: /menu/i });
    await menu.click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    const box = await drawer.boundingBox();
    expect(box?.width).toBe(200);
    expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(600);
    for (const name of ['Home', 'Courses', 'Contact']) {
      expect(await drawer.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }

    await drawer.getByRole('link', { name: 'Contact', exact: true }).click();
    await drawer.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/contact');

    // A key press inside the drawer closes it too.
    await menu.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the full bar at 601 px', async () => {
    const { page, context } = await harness.newPage(601);
    await page.goto('/');
    expect(await page.getByRole('banner').getByRole('link', { name: 'Contact', exact: true }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('deep links', () => {
  it('load the app on any client route, and unknown pages say so', async () => {
    const { page, context, problems } = await harness.newPage(1280);
    const response = await page.goto('/about');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/about/i);

    // The admin area is guarded: without an administrator's token it opens the administrator login.
    await page.goto('/admin-dashboard');
    await page.waitForURL((url) => url.pathname === '/backend');
    await page.getByRole('heading', { name: /^Login to / }).waitFor();

    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(200);
    // The layout (with its own Home link) can paint before the page's chunk arrives: wait for the page.
    await page.locator('main').getByRole('link', { name: /home/i }).first().waitFor();
    expect(await page.textContent('main')).toMatch(/not found|doesn.t exist|does not exist/i);
    expect(problems).toEqual([]);
    await context.close();
  });
});
