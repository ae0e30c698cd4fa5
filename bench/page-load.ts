import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';
import { signInAs } from '../e2e/support/session.ts';
import { imageOf } from '../src/testing/images.ts';
import { freePort, startProcess, stopProcess, waitForOk } from './support.ts';
import { staffCodeFor, staffSignIn } from '../src/testing/staff-sign-in.ts';

export const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export const PUBLIC_SCREENS = ['/', '/courses', '/login', '/registration'] as const;

const ADMIN = { email: 'bench.admin@academy.test', password: 'Harbour-Light-2026' };

const COURSES = [
  ['STCW Basic Safety Training', 'Personal survival techniques, fire prevention and fire fighting, elementary first aid and personal safety and social responsibilities.'],
  ['Advanced Fire Fighting', 'Command and control of fire-fighting operations aboard ship, organisation of fire parties and inspection of fire-fighting equipment.'],
  ['Proficiency in Survival Craft', 'Launching and handling survival craft and rescue boats, survival at sea and the use of locating devices.'],
  ['Medical First Aid', 'Immediate care for accidents and illness on board, until medical help or a doctor ashore can advise.'],
  ['Ship Security Officer', 'Security assessments, the ship security plan, drills and the ISPS code in practice on board.'],
  ['GMDSS General Operator', 'Distress, urgency and safety communication with the global maritime distress and safety system.'],
] as const;

export type TPortal = { base: string; stop(): Promise<void> };

/** The built portal in its own process on an embedded database, with six published courses. */
export async function startSeededPortal(): Promise<TPortal> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-pageload-'));
  const port = await freePort();
  const child: ChildProcess = startProcess('dist/server/index.js', {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // An embedded database on a busy machine can take a while to start.
    await waitForOk(`${base}/readyz`, performance.now(), 180_000);
    const { accessToken } = await staffSignIn(base, ADMIN);
    for (const [index, [title, description]] of COURSES.entries()) {
      const form = new FormData();
      form.set('title', title);
      form.set('description', description);
      form.set('duration', `${index + 3} days`);
      form.set('category', index % 2 ? 'STCW' : 'Safety');
      form.set('price', String(4500 + index * 1250));
      form.set('subject', JSON.stringify(['Theory', 'Practical drills']));
      form.set('courseImg', new Blob([new Uint8Array(await imageOf('jpeg', 1600, 900))], { type: 'image/jpeg' }), 'course.jpg');
      const res = await fetch(`${base}/api/courses`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: form });
      if (!res.ok) throw new Error(`create course: ${res.status} ${await res.text()}`);
    }
    return { base, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The browser storage of the portal's administrator signed in, as the login screen leaves it. */
export async function adminSession(browser: Browser, base: string): Promise<BrowserContextOptions['storageState']> {
  const context = await browser.newContext({ baseURL: base });
  try {
    await signInAs(await context.newPage(), ADMIN.email, ADMIN.password, () => staffCodeFor(ADMIN.email));
    return await context.storageState();
  } finally {
    await context.close();
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME, args: CHROME_ARGS, headless: true });
}

export { kb, loadPage, SHIP_LINK, waterfall, type TPageLoad } from '../e2e/support/page-load.ts';
