import { TRPCError } from '@trpc/server';
import { asc, eq } from 'drizzle-orm';
import { NOT_VERIFIED_MARKER } from '../../../shared/identity.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { createEnrolment, createUser, indosNumber } from '../../../testing/factories.ts';
import { form, JPEG, PDF, PNG, type TFormPart } from '../../../testing/multipart.ts';
import { describe, expect, test, type TPublishedTest, type TTestUser } from '../../../testing/portal-test.ts';
import { auditEntries, certificates, profileIdentityVersions, profiles } from '../../db/schema.ts';

type TUser = TTestUser;
const I = MESSAGES.identity;

const FILES: TFormPart[] = [
  { name: 'profilePicture', file: PNG, filename: 'me.png', type: 'image/png' },
  { name: 'IdDocument', file: PDF, filename: 'passport.pdf', type: 'application/pdf' },
  { name: 'signature', file: JPEG, filename: 'sign.jpg', type: 'image/jpeg' },
];

function fields(overrides: Record<string, string> = {}) {
  return {
    name: 'Arjun Nair',
    gradenumber: 'Grade II',
    phone: '+919876543210',
    DateofBirth: '1990-04-12',
    passportNumber: `Z${Math.floor(Math.random() * 9_000_000 + 1_000_000)}`,
    passportExpiryDate: '2034-01-31',
    indosNo: indosNumber(),
    CDCnumber: 'MUM123456',
    CDCexpiryDate: '2033-06-30',
    IDType: 'passport',
    streetAddress: '12 Marine Drive',
    city: 'Mumbai',
    state: 'Maharashtra',
    country: 'India',
    zipCode: '400002',
    consent: 'true',
    ...overrides,
  };
}

const QUESTION = { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' };

/** A course whose test may require an approved profile, with its code and approval number for the export. */
const gated = (testRequiresApprovedProfile: boolean) => ({
  course: { testRequiresApprovedProfile, code: 'FPFF', approvalNumber: 'DGS/TC/2026/017' },
  questions: [QUESTION],
});

function multipart(values: Record<string, string>, files: TFormPart[] = FILES) {
  return form([...Object.entries(values).map(([name, value]) => ({ name, value })), ...files]);
}

async function rejection(work: Promise<unknown>): Promise<TRPCError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

const it = test
  .extend('owner', { scope: 'file' }, ({ staff }) => staff)
  .extend('registrar', { scope: 'file' }, ({ db }) =>
    createUser(db, { role: 'admin', staffRole: 'registrar', approvedAt: new Date(), firstName: 'Leela', lastName: 'Pillai' }),
  )
  .extend('save', { scope: 'file' }, ({ portal, bearer }) => async (user: TUser, method: 'POST' | 'PUT', values: Record<string, string>, files: TFormPart[] = method === 'POST' ? FILES : []) => {
    const body = multipart(values, files);
    return portal.app.inject({ method, url: method === 'POST' ? '/api/userProfile' : '/api/userProfile/update', headers: { ...body.headers, ...bearer(user) }, payload: body.payload });
  })
  /** A learner with a profile sent through the REST route, its values. */
  .extend('learnerWithProfile', { scope: 'file' }, ({ db, save }) => async (overrides: Record<string, string> = {}) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const values = fields(overrides);
    const created = await save(learner, 'POST', values);
    expect(created.statusCode, created.body).toBe(201);
    return { learner, values };
  })
  .extend('auditOf', { scope: 'file' }, ({ db }) => async (learnerId: string) =>
    (await db.select().from(auditEntries).where(eq(auditEntries.learnerId, learnerId)).orderBy(asc(auditEntries.at))).filter((entry) => entry.action.startsWith('identity.')))
  .extend('historyOf', { scope: 'file' }, ({ db }) => async (userId: string) =>
    db.select().from(profileIdentityVersions).where(eq(profileIdentityVersions.userId, userId)).orderBy(asc(profileIdentityVersions.version), asc(profileIdentityVersions.createdAt)))
  .extend('profileRow', { scope: 'file' }, ({ db }) => async (userId: string) => (await db.select().from(profiles).where(eq(profiles.userId, userId)))[0]!)
  .extend('pass', { scope: 'file' }, ({ db, as }) => async (learner: TUser, where: TPublishedTest) => {
    await createEnrolment(db, { userId: learner.id, courseId: where.course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    await as(learner).tests.take({ courseId: where.course.id });
    const result = await as(learner).tests.submit({ testId: where.test.id, answers: where.test.questions.map((q) => ({ questionId: q.id, selectedAnswer: q.correctAnswer })) });
    expect(result.passed).toBe(true);
    return result.certificate!;
  })
  .extend('certificateRow', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(certificates).where(eq(certificates.id, id)))[0]!);

describe('the identity check', () => {
  it('sends a new profile for a check, verifies the version seen, and sends a changed identity back with its history', async ({ as, registrar, save, learnerWithProfile, auditOf, historyOf, profileRow }) => {
    const { learner, values } = await learnerWithProfile();
    const mine = await as(learner).profiles.mine();
    expect(mine!.identity).toEqual({ state: 'awaiting_check', version: 1, checkedAt: null, returnReason: null });
    expect((await auditOf(learner.id)).map((entry) => [entry.action, entry.actorId])).toEqual([['identity.submit', learner.id]]);

    // A check naming a version the profile does not have is refused and writes nothing.
    const stale = await rejection(as(registrar).identity.verify({ userId: learner.id, version: 7 }));
    expect([stale.code, stale.message]).toEqual(['CONFLICT', I.stale]);
    expect((await profileRow(learner.id)).identityState).toBe('awaiting_check');
    expect(await auditOf(learner.id)).toHaveLength(1);

    const verified = await as(registrar).identity.verify({ userId: learner.id, version: 1 });
    expect(verified.message).toBe(I.verified);
    expect(verified.view.profile.identity).toMatchObject({ state: 'verified', version: 2, checkedByName: 'Leela Pillai' });
    const entries = await auditOf(learner.id);
    expect(entries.map((entry) => [entry.action, entry.actorId])).toEqual([
      ['identity.submit', learner.id],
      ['identity.verify', registrar.id],
    ]);
    expect(entries[1]!.after).toMatchObject({ state: 'verified', version: 2, indosNo: values.indosNo, passportNumber: values.passportNumber });

    // A change that is not of the identity keeps it verified, with no entry.
    expect((await save(learner, 'PUT', { ...values, phone: '+919812345678' })).statusCode).toBe(200);
    expect((await profileRow(learner.id)).identityState).toBe('verified');
    expect(await auditOf(learner.id)).toHaveLength(2);

    // A change of INDOS goes back to awaiting check; the verified values stay in the history.
    const newIndos = indosNumber();
    const changed = await save(learner, 'PUT', { ...values, phone: '+919812345678', indosNo: newIndos.toLowerCase() });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.identity).toEqual({ state: 'awaiting_check', version: 3, checkedAt: null, returnReason: null });
    const history = await historyOf(learner.id);
    expect(history.map((row) => [row.version, row.state, row.indosNo, row.checkedByName])).toEqual([
      [1, 'awaiting_check', values.indosNo, null],
      [2, 'verified', values.indosNo, 'Leela Pillai'],
      [3, 'awaiting_check', newIndos, null],
    ]);
    const changeEntry = (await auditOf(learner.id))[2]!;
    expect([changeEntry.action, changeEntry.actorId]).toEqual(['identity.change', learner.id]);
    expect(changeEntry.before).toMatchObject({ state: 'verified', indosNo: values.indosNo });

    // The version seen before the change is stale now.
    const afterChange = await rejection(as(registrar).identity.verify({ userId: learner.id, version: 2 }));
    expect([afterChange.code, afterChange.message]).toEqual(['CONFLICT', I.stale]);

    const view = await as(registrar).identity.view({ userId: learner.id });
    expect(view.history.map((row) => row.version)).toEqual([3, 2, 1]);
  });

  it('returns a profile with a reason the learner reads, and any save sends it again', async ({ as, registrar, save, learnerWithProfile, auditOf }) => {
    const { learner, values } = await learnerWithProfile();
    const empty = await rejection(as(registrar).identity.return({ userId: learner.id, version: 1, reason: '   ' }));
    expect([empty.code, empty.message]).toEqual(['BAD_REQUEST', expect.stringContaining(I.reasonRequired)]);
    await as(registrar).identity.return({ userId: learner.id, version: 1, reason: 'The photograph is not clear.' });
    expect((await as(learner).profiles.mine())!.identity).toMatchObject({ state: 'returned', returnReason: 'The photograph is not clear.' });
    // The learner never sees who checked it.
    expect((await as(learner).profiles.mine())!.identity).not.toHaveProperty('checkedByName');
    // Neither decision applies to a returned profile.
    const again = await rejection(as(registrar).identity.verify({ userId: learner.id, version: 2 }));
    expect([again.code, again.message]).toEqual(['CONFLICT', I.notAwaiting]);

    expect((await save(learner, 'PUT', values, [FILES[0]!])).statusCode).toBe(200);
    expect((await as(learner).profiles.mine())!.identity).toMatchObject({ state: 'awaiting_check', version: 3, returnReason: null });
    expect((await auditOf(learner.id)).map((entry) => entry.action)).toEqual(['identity.submit', 'identity.return', 'identity.submit']);
  });

  it('refuses a wrong INDOS format with the field named, on creation and on change, changing nothing', async ({ db, save, learnerWithProfile, profileRow }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    for (const wrong of ['5ZL1234', '05Z01234', '05ZL123', 'ZL051234', '05ZL12345']) {
      const refused = await save(learner, 'POST', fields({ indosNo: wrong }));
      expect(refused.statusCode, wrong).toBe(400);
      expect(refused.json().errors ?? refused.json().fields ?? refused.json()).toMatchObject({ indosNo: MESSAGES.profile.indosFormat });
    }
    expect(await db.select().from(profiles).where(eq(profiles.userId, learner.id))).toEqual([]);
    // Spaces, hyphens and lower case are accepted and stored in the usual form.
    const { learner: other, values } = await learnerWithProfile({ indosNo: '05 zl-1234' });
    expect((await profileRow(other.id)).indosNo).toBe('05ZL1234');
    const refused = await save(other, 'PUT', { ...values, indosNo: 'AB123456' });
    expect(refused.statusCode).toBe(400);
    expect((await profileRow(other.id)).indosNo).toBe('05ZL1234');
  });

  it('flags the same INDOS or passport on two accounts to staff only, and verifies it only when acknowledged', async ({ as, registrar, learnerWithProfile, auditOf, profileRow }) => {
    const shared = indosNumber();
    const { learner: first } = await learnerWithProfile({ indosNo: shared });
    const { learner: second, values } = await learnerWithProfile({ indosNo: `${shared.slice(0, 2)} ${shared.slice(2)}` });
    expect(values.indosNo).not.toBe(shared);

    // The learner's own profile says nothing of it.
    expect((await as(second).profiles.mine())!.identity).not.toHaveProperty('duplicates');
    const view = await as(registrar).identity.view({ userId: second.id });
    expect(view.duplicates).toEqual([expect.objectContaining({ userId: first.id, fields: ['indosNo'] })]);
    expect(view.profile.identity.duplicates).toEqual({ indosNo: 1, passportNumber: 0 });
    const queue = await as(registrar).identity.queue({ search: shared.slice(0, 4) });
    expect(queue.items.find((item) => item.userId === second.id)?.duplicates).toEqual({ indosNo: 1, passportNumber: 0 });
    const listed = await as(registrar).profiles.list({ search: shared.slice(0, 4) });
    expect(listed.items.find((item) => item.userId === first.id)?.identity.duplicates).toEqual({ indosNo: 1, passportNumber: 0 });

    const unacknowledged = await rejection(as(registrar).identity.verify({ userId: second.id, version: 1 }));
    expect([unacknowledged.code, unacknowledged.message]).toEqual(['CONFLICT', I.duplicatesUnacknowledged]);
    expect(await auditOf(second.id)).toHaveLength(1);
    await as(registrar).identity.verify({ userId: second.id, version: 1, duplicatesAcknowledged: true });
    expect((await profileRow(second.id)).identityState).toBe('verified');
  });

  it('lets one of two checks at once win; the other is refused, and only the winner is recorded', async ({ as, owner, registrar, save, learnerWithProfile, auditOf, historyOf, profileRow }) => {
    const { learner } = await learnerWithProfile();
    const outcomes = await Promise.allSettled([
      as(registrar).identity.verify({ userId: learner.id, version: 1 }),
      as(owner).identity.return({ userId: learner.id, version: 1, reason: 'Blurred passport page.' }),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(((lost[0] as PromiseRejectedResult).reason as TRPCError).code).toBe('CONFLICT');
    const decisions = (await auditOf(learner.id)).filter((entry) => entry.action !== 'identity.submit');
    expect(decisions).toHaveLength(1);
    expect((await historyOf(learner.id)).filter((row) => row.version === 2)).toHaveLength(1);

    // A check racing the learner's change: whichever comes second finds the other's version.
    const { learner: racer, values } = await learnerWithProfile();
    const [check, edit] = await Promise.allSettled([
      as(registrar).identity.verify({ userId: racer.id, version: 1 }),
      save(racer, 'PUT', { ...values, name: 'Arjun K Nair' }),
    ]);
    expect(edit.status).toBe('fulfilled');
    const row = await profileRow(racer.id);
    if (check.status === 'fulfilled') expect([row.identityState, row.identityVersion]).toEqual(['awaiting_check', 3]);
    else expect([row.identityState, row.identityVersion, (check.reason as TRPCError).code]).toEqual(['awaiting_check', 2, 'CONFLICT']);
  });

  it('answers 403 to staff whose role may not check, and to learners', async ({ db, as, learnerWithProfile, auditOf }) => {
    const { learner } = await learnerWithProfile();
    const instructor = await createUser(db, { role: 'admin', staffRole: 'instructor', approvedAt: new Date() });
    const auditor = await createUser(db, { role: 'admin', staffRole: 'auditor', approvedAt: new Date() });
    for (const who of [instructor, auditor, learner]) {
      const refused = await rejection(as(who).identity.verify({ userId: learner.id, version: 1 }));
      expect(refused.code).toBe('FORBIDDEN');
    }
    // The auditor reads the queue and the check; the instructor does not.
    expect((await as(auditor).identity.view({ userId: learner.id })).profile.userId).toBe(learner.id);
    expect((await rejection(as(instructor).identity.queue())).code).toBe('FORBIDDEN');
    expect(await auditOf(learner.id)).toHaveLength(1);
  });
});

describe('certificates, the test gate and the export', () => {
  it('opens a test that requires an approved profile only once the identity is verified', async ({ db, as, registrar, publishedTest, learnerWithProfile }) => {
    const where = await publishedTest(gated(true));
    const { learner } = await learnerWithProfile();
    await createEnrolment(db, { userId: learner.id, courseId: where.course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    expect(await as(learner).tests.status({ courseId: where.course.id })).toMatchObject({ blocked: { reason: 'profileRequired', message: MESSAGES.courseCertificate.profileRequired } });
    expect((await rejection(as(learner).tests.take({ courseId: where.course.id }))).code).toBe('FORBIDDEN');
    await as(registrar).identity.verify({ userId: learner.id, version: 1 });
    expect(await as(learner).tests.status({ courseId: where.course.id })).not.toHaveProperty('blocked');
  });

  it('prints only verified values with their verifier; a later change alters nothing issued; a re-issue takes the new verified values', async ({ portal, as, owner, registrar, publishedTest, save, learnerWithProfile, pass, certificateRow }) => {
    const where = await publishedTest(gated(false));
    const { learner, values } = await learnerWithProfile();
    await as(registrar).identity.verify({ userId: learner.id, version: 1 });
    const issued = await pass(learner, where);
    const printed = await certificateRow(issued.id);
    expect(printed).toMatchObject({ holderName: 'Arjun Nair', holderIndosNo: values.indosNo, holderVerifiedByName: 'Leela Pillai' });
    expect(printed.holderVerifiedAt).toBeInstanceOf(Date);

    const newIndos = indosNumber();
    expect((await save(learner, 'PUT', { ...values, name: 'Arjun Krishnan Nair', indosNo: newIndos })).statusCode).toBe(200);
    expect(await certificateRow(issued.id)).toMatchObject({ holderName: 'Arjun Nair', holderIndosNo: values.indosNo });

    await portal.drainJobs();
    // A re-issue while the change awaits its check still prints the values last verified.
    await as(owner).certificates.reissue({ certificateId: issued.id });
    expect(await certificateRow(issued.id)).toMatchObject({ version: 2, holderName: 'Arjun Nair', holderIndosNo: values.indosNo });
    await portal.drainJobs();
    await as(registrar).identity.verify({ userId: learner.id, version: 3 });
    await as(owner).certificates.reissue({ certificateId: issued.id });
    expect(await certificateRow(issued.id)).toMatchObject({ version: 3, holderName: 'Arjun Krishnan Nair', holderIndosNo: newIndos, holderVerifiedByName: 'Leela Pillai' });
  });

  it('exports unverified holders as missing, marked NOT VERIFIED, with the verifier columns', async ({ portal, as, bearer, owner, registrar, publishedTest, learnerWithProfile, pass }) => {
    const where = await publishedTest(gated(false));
    const { learner: unchecked } = await learnerWithProfile({ name: 'Ravi Menon' });
    const { learner: checked, values } = await learnerWithProfile({ name: 'Meera Iyer' });
    await as(registrar).identity.verify({ userId: checked.id, version: 1 });
    const first = await pass(unchecked, where);
    const second = await pass(checked, where);
    const day = new Date().toISOString().slice(0, 10);
    const batch = await as(owner).certificates.regulatorBatch({ courseId: where.course.id, from: day, to: day });
    const rowOf = (id: string) => batch.rows.find((row) => row.certificateId === id)!;
    expect(rowOf(first.id)).toMatchObject({ verified: false, verifiedBy: '', indosNo: '', nameAsInPassport: '', missing: ['indosNo', 'nameAsInPassport', 'dateOfBirth', 'passportNumber', 'cdcNumber'] });
    expect(rowOf(second.id)).toMatchObject({ verified: true, verifiedBy: 'Leela Pillai', verifiedOn: day, indosNo: values.indosNo, nameAsInPassport: 'Meera Iyer', missing: [] });

    const csv = await portal.app.inject({ url: `/api/certificates/regulator-batch.csv?courseId=${where.course.id}&from=${day}&to=${day}`, headers: bearer(owner) });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toContain('Identity Verified By,Identity Verified On');
    const uncheckedLine = lines.find((line) => line.includes(first.number))!;
    expect(uncheckedLine.startsWith(Array(5).fill(NOT_VERIFIED_MARKER).join(','))).toBe(true);
    const checkedLine = lines.find((line) => line.includes(second.number))!;
    expect(checkedLine.startsWith(`${values.indosNo},Meera Iyer,1990-04-12,`)).toBe(true);
    expect(checkedLine.endsWith(`,Leela Pillai,${day}`)).toBe(true);
    const xlsx = await portal.app.inject({ url: `/api/certificates/regulator-batch.xlsx?courseId=${where.course.id}&from=${day}&to=${day}`, headers: bearer(owner) });
    expect(xlsx.statusCode).toBe(200);
  });
});
