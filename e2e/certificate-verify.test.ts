import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { certificates, testAttempts, tests } from '../src/server/db/schema.ts';
import { newVerificationCode } from '../src/server/modules/certificates/certificate-issuance.service.ts';
import { renderCertificate } from '../src/server/modules/certificates/render-certificate.job.ts';
import { createCourse, createProfileWithFiles, createUser } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';

const run = promisify(execFile);
const C = MESSAGES.certificate;
const PHONE = { width: 390, height: 844 };
/** Where screenshots go when SCREENSHOTS_DIR is set, to look at the page by eye. */
const SHOTS = process.env.SCREENSHOTS_DIR;

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

/** A passed learner's certificate, its PDF rendered by the job as a worker would. */
async function renderedCertificate(printed: { holderName?: string; courseTitle?: string } = {}) {
  const db = harness.portal.runtime.db;
  const unique = Date.now().toString(36);
  const learner = await createUser(db, { firstName: 'Kavya', lastName: `Menon-${unique}`, approvedAt: new Date() });
  await createProfileWithFiles(db, harness.portal.runtime.files, learner.id, { dateOfBirth: '1994-07-21' });
  const course = await createCourse(db, { title: printed.courseTitle ? `${printed.courseTitle} ${unique}` : `Ship Security Awareness ${unique}` });
  const [test] = await db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 50, isPublished: true }).returning();
  const [attempt] = await db
    .insert(testAttempts)
    .values({ userId: learner.id, testId: test!.id, courseId: course.id, submittedAt: new Date(), score: 1, totalQuestions: 1, percentage: 100, passed: true, timeTakenSeconds: 40 })
    .returning();
  const [serial] = await db.execute<{ n: string }>(sql`select nextval('certificate_number_seq')::text as n`).then(
    (rows) => (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ n: string }> }).rows),
  );
  const [certificate] = await db
    .insert(certificates)
    .values({ userId: learner.id, courseId: course.id, attemptId: attempt!.id, number: `MTA/2026/${serial!.n.padStart(6, '0')}`, verificationCode: newVerificationCode(), holderName: printed.holderName ?? `${learner.firstName} ${learner.lastName}`.trim() })
    .returning();
  await renderCertificate({ certificateId: certificate!.id }, harness.portal.runtime.jobContext, { isLast: true });
  return { learner, course, certificate: certificate! };
}

/** The link the PDF's QR code holds, read from a 150 dpi rendering of its page, as a phone's camera would. */
async function qrLinkOf(pdfFile: string): Promise<string> {
  const copy = await harness.portal.runtime.files.localCopy('certificates', pdfFile);
  const dir = mkdtempSync(path.join(tmpdir(), 'certificate-qr-'));
  try {
    await run('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', copy.path, path.join(dir, 'page')]);
    const png = PNG.sync.read(readFileSync(path.join(dir, readdirSync(dir)[0]!)));
    const link = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
    if (!link) throw new Error('no QR code found on the certificate');
    return link;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await copy.release();
  }
}

/** Whether the element lies wholly within the first screen, the page not scrolled. */
async function onFirstScreen(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const scrolled = await page.evaluate(() => window.scrollY);
  const height = page.viewportSize()!.height;
  return Boolean(box) && scrolled === 0 && box!.y >= 0 && box!.y + box!.height <= height;
}

describe('the certificate check opened from the QR code', () => {
  it('on a phone shows the verdict and the holder on the first screen; the number alone shows only the initials until the date of birth is given', async () => {
    const { learner, course, certificate } = await renderedCertificate();
    const [row] = await harness.portal.runtime.db.select().from(certificates).where(sql`${certificates.id} = ${certificate.id}`);
    const link = new URL(await qrLinkOf(row!.pdfFile!));
    expect(link.pathname).toBe(`/verify/${certificate.number}`);
    expect(link.searchParams.get('code')).toBe(certificate.verificationCode);
    const fullName = `${learner.firstName} ${learner.lastName}`;

    const phone = await harness.newPage(PHONE.width, PHONE.height);
    await phone.page.goto(link.pathname + link.search);
    const card = phone.page.getByRole('region', { name: 'Valid certificate' });
    await card.waitFor();
    const verdict = card.getByRole('heading', { name: 'Valid certificate' });
    const holder = card.getByTestId('holder-name');
    expect(await holder.textContent()).toBe(fullName);
    expect(await onFirstScreen(phone.page, verdict), 'the verdict is on the first screen').toBe(true);
    expect(await onFirstScreen(phone.page, holder), "the holder's name is on the first screen").toBe(true);
    expect(await card.textContent()).toContain(course.title);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    if (SHOTS) await phone.page.screenshot({ path: path.join(SHOTS, 'verify-code-390.png') });

    // The number alone, as typed from an older printed certificate: the verdict and the initials.
    await phone.page.goto(`/verify/${certificate.number}`);
    await card.waitFor();
    expect(await holder.textContent()).toMatch(/^K\. M\*\*\*/);
    expect(await onFirstScreen(phone.page, holder)).toBe(true);
    const shown = (await phone.page.locator('main').textContent()) ?? '';
    expect(shown).not.toContain(learner.lastName);
    expect(shown).not.toContain(course.title);
    if (SHOTS) await phone.page.screenshot({ path: path.join(SHOTS, 'verify-number-390.png'), fullPage: true });

    const form = phone.page.getByRole('form', { name: "See the holder's name, course and date" });
    await form.getByLabel('Date of birth').fill('1994-07-22');
    await form.getByRole('button', { name: 'Show details' }).click();
    await form.getByText(C.holderNotMatched).waitFor();
    await form.getByLabel('Date of birth').fill('1994-07-21');
    await form.getByRole('button', { name: 'Show details' }).click();
    await holder.getByText(fullName).waitFor();
    expect(await card.textContent()).toContain(course.title);
    expect(new URL(phone.page.url()).search).toBe('');
    expect(phone.problems).toEqual([]);
    await phone.context.close();

    const desk = await harness.newPage(1280, 800);
    await desk.page.goto(link.pathname + link.search);
    await desk.page.getByRole('region', { name: 'Valid certificate' }).waitFor();
    expect(await onFirstScreen(desk.page, desk.page.getByTestId('holder-name'))).toBe(true);
    if (SHOTS) await desk.page.screenshot({ path: path.join(SHOTS, 'verify-code-1280.png') });
    expect(desk.problems).toEqual([]);
    await desk.context.close();
  });

  it('keeps a long Devanagari name, a long accented name and a long course title inside the card, in the name fonts, on a phone and a desk', async () => {
    const longTitle =
      'Advanced Training in Fire Fighting, Medical First Aid, Personal Survival Techniques, Proficiency in Survival Craft and Rescue Boats other than Fast Rescue Boats';
    const names = {
      devanagari: 'श्रीमती अन्नपूर्णा लक्ष्मीनारायण वेंकटरमण सुब्रह्मण्यम् चक्रवर्ती कृष्णमूर्ति राजगोपालाचारी',
      accented: 'María-José Ñúñez Łódź-Šćepanović Ørstedt-Þórðardóttir Françoise Ångström Dvořák Kościuszko Gonçalves',
    };
    for (const [script, holderName] of Object.entries(names)) {
      const { course, certificate } = await renderedCertificate({ holderName, courseTitle: longTitle });
      for (const width of [390, 1280]) {
        const { page, problems, context } = await harness.newPage(width, width === 390 ? 844 : 800);
        await page.goto(`/verify/${certificate.number}?code=${certificate.verificationCode}`);
        const card = page.getByRole('region', { name: 'Valid certificate' });
        await card.waitFor();
        const holder = card.getByTestId('holder-name');
        expect(await holder.textContent()).toBe(holderName);
        expect(await card.textContent()).toContain(course.title);
        await page.evaluate(() => document.fonts.ready);
        // Every line of the name and of the course title ends inside the card.
        const cardBox = (await card.boundingBox())!;
        for (const text of [holder, card.getByText(course.title, { exact: true }).first()]) {
          const right = await text.evaluate((element) => {
            const range = document.createRange();
            range.selectNodeContents(element);
            return Math.max(...[...range.getClientRects()].map((rect) => rect.right));
          });
          expect(right, `${script} at ${width} px`).toBeLessThanOrEqual(cardBox.x + cardBox.width);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const faces = await page.evaluate(() => [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family));
        expect(faces.join(',')).toContain(script === 'devanagari' ? 'Noto Serif Devanagari' : 'Noto Serif');
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `verify-long-${script}-${width}.png`) });
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  });
});
