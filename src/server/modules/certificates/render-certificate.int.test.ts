import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { createCourse, createProfileRow, createUser } from '../../../testing/factories.ts';
import { mailsTo } from '../../../testing/mailbox.ts';
import { certificates, testAttempts, tests } from '../../db/schema.ts';
import { renderCertificate } from './render-certificate.job.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'https://academy.example';
const HOLDER = 'श्रीमती अन्नपूर्णा लक्ष्मीनारायण वेंकटरमण सुब्रह्मण्यम् चक्रवर्ती';

/**
 * The render job prints what the certificate's row holds (the holder and course terms as they were
 * when this version was made), not the profile as it is now.
 */
// The mail as the learner receives it: a delivered mail's body is cleared from its row.
test.override({ portalOptions: { env: { PUBLIC_URL }, smtp: true } });

const it = test
  /** A pending certificate of a course, with the given holder snapshot and terms, whose profile says something else. */
  .extend('pendingCertificate', { scope: 'file' }, ({ db }) => async (values: Partial<typeof certificates.$inferInsert>) => {
    const course = await createCourse(db, { title: 'Fire Prevention and Fire Fighting' });
    const learner = await createUser(db, { approvedAt: new Date(), firstName: 'Annapurna' });
    await createProfileRow(db, learner.id, { name: 'Changed Since Issue', indosNo: 'LIVE0001', passportNumber: 'L0000001', dateOfBirth: '1970-01-01' });
    const [test] = await db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 50, isPublished: true }).returning();
    const [attempt] = await db
      .insert(testAttempts)
      .values({ userId: learner.id, testId: test!.id, courseId: course.id, submittedAt: new Date(), score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
      .returning();
    const [serial] = await db
      .execute<{ n: string }>(sql`select nextval('certificate_number_seq')::text as n`)
      .then((rows) => (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ n: string }> }).rows));
    const number = `MTA/2026/${serial!.n.padStart(6, '0')}`;
    const [certificate] = await db
      .insert(certificates)
      .values({ userId: learner.id, courseId: course.id, attemptId: attempt!.id, number, verificationCode: `code${serial!.n}x${learner.id.slice(0, 8)}`, holderName: HOLDER, ...values })
      .returning();
    return { learner, course, certificate: certificate! };
  })
  .extend('printed', { scope: 'file' }, ({ portal }) => async (pdfFile: string): Promise<string> => {
    const copy = await portal.runtime.files.localCopy('certificates', pdfFile);
    try {
      const [{ stdout: text }, { stdout: fonts }] = await Promise.all([run('pdftotext', [copy.path, '-']), run('pdffonts', [copy.path])]);
      expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
      return text.replace(/\s+/g, ' ');
    } finally {
      await copy.release();
    }
  });

describe('the certificate render job', () => {
  it("prints the row's holder snapshot and course terms, the version and Valid until, and mails that it was re-issued", async ({ db, pendingCertificate, portal, printed, smtp }) => {
    const { learner, certificate } = await pendingCertificate({
      holderIndosNo: '19AB1234',
      holderDateOfBirth: '1988-02-29',
      holderPassportNumber: 'S7654321',
      courseCode: 'FPFF',
      approvalNumber: 'DGS/MTI/2021/FPFF/0457',
      validUntil: '2031-11-23',
      version: 2,
      issuedAt: new Date('2026-11-24T09:00:00Z'),
      reissuedAt: new Date('2027-03-03T10:00:00Z'),
    });
    await renderCertificate({ certificateId: certificate.id }, portal.runtime.jobContext, { isLast: false });

    const [row] = await db.select().from(certificates).where(eq(certificates.id, certificate.id));
    expect(row!.status).toBe('ready');
    const text = await printed(row!.pdfFile!);
    for (const word of ['श्रीमती', 'लक्ष्मीनारायण', 'वेंकटरमण', 'सुब्रह्मण्यम्']) expect(text).toContain(word);
    for (const expected of ['INDOS No. 19AB1234', 'Date of birth 29 February 1988', 'Passport No. S7654321', 'Course code FPFF', 'Approval No. DGS/MTI/2021/FPFF/0457']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain(`${certificate.number} Version 2, re-issued 3 March 2027`);
    expect(text.replaceAll(' ', '')).toContain('DATEOFISSUE24November2026');
    expect(text.replaceAll(' ', '')).toContain('VALIDUNTIL23November2031');
    for (const live of ['Changed Since Issue', 'LIVE0001', 'L0000001', '1 January 1970']) expect(text).not.toContain(live);

    const [mail] = await mailsTo(smtp, learner.email);
    expect(mail!.text).toContain(`Your certificate ${certificate.number} for Fire Prevention and Fire Fighting has been re-issued as version 2.`);
    expect(mail!.text).toContain(`${PUBLIC_URL}/my-certificates`);
    expect(mail!.text).not.toContain('Congratulations');
  });

  it('leaves out what the first version does not have: no version, no validity, no course terms', async ({ db, pendingCertificate, portal, printed, smtp }) => {
    const { learner, certificate } = await pendingCertificate({ holderName: 'Priya Menon' });
    await renderCertificate({ certificateId: certificate.id }, portal.runtime.jobContext, { isLast: false });

    const [row] = await db.select().from(certificates).where(eq(certificates.id, certificate.id));
    const text = await printed(row!.pdfFile!);
    expect(text).toContain('Priya Menon');
    for (const absent of ['Version', 'INDOS', 'Passport', 'Date of birth', 'Course code', 'Approval No.', 'Changed Since Issue']) expect(text).not.toContain(absent);
    expect(text.replaceAll(' ', '')).not.toContain('VALIDUNTIL');

    const [mail] = await mailsTo(smtp, learner.email);
    expect(mail!.text).toContain(`Congratulations on completing Fire Prevention and Fire Fighting. Your certificate ${certificate.number} is ready.`);
  });
});
