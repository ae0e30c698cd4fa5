import { randomInt } from 'node:crypto';
import ExcelJS from 'exceljs';
import { addDays, utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestForm } from '../../../shared/schemas/tests.ts';
import { createCertificateRow, createTestRow } from '../../../testing/certificate-rows.ts';
import { createCourse, createEnrolment, createProfileRow, createUser } from '../../../testing/factories.ts';
import { describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';

type TUser = TTestUser;
const A = MESSAGES.certificateAdmin;

/** The DG Shipping batch upload's headers, in its order. */
const HEADERS = [
  'INDoS Number',
  'Name as in Passport',
  'Date of Birth',
  'Passport Number',
  'CDC Number',
  'Course Code',
  'Approval Number',
  'Batch Start',
  'Batch End',
  'Certificate Number',
  'Issue Date',
  'Valid Until',
  'Identity Verified By',
  'Identity Verified On',
];

/** One CSV line's cells (RFC 4180 quoting). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

const csvTable = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .replace(/\r\n$/, '')
    .split('\r\n')
    .map(csvCells);

/** The workbook as a real reader sees it: its sheets, and the first sheet's cells with their types and formats. */
async function readWorkbook(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  const cells: Array<{ type: ExcelJS.ValueType; numFmt: string | undefined; value: unknown }> = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values: string[] = [];
    for (let column = 1; column <= HEADERS.length; column += 1) {
      const cell = row.getCell(column);
      cells.push({ type: cell.type, numFmt: cell.numFmt, value: cell.value });
      values.push(cell.value === null || cell.value === undefined ? '' : String(cell.value));
    }
    rows.push(values);
  });
  return { sheetNames: workbook.worksheets.map((worksheet) => worksheet.name), sheet, rows, cells };
}

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', approvedAt: new Date() }))
  .extend('learner', { scope: 'file' }, ({ db }) => createUser(db, { approvedAt: new Date() }))
  .extend('download', { scope: 'file' }, ({ portal, admin, bearer }) => (kind: 'csv' | 'xlsx', query: string, user: TUser = admin) =>
    portal.app.inject({ url: `/api/certificates/regulator-batch.${kind}?${query}`, headers: bearer(user) }))
  /**
   * A course's batch of three days ten days ago, with completions on its first and last instants,
   * two at the same instant, one revoked, one superseded since, and certificates just outside it.
   */
  .extend('batchWorld', { scope: 'file' }, ({ db }) => async () => {
    const course = await createCourse(db, { code: 'FPFF', approvalNumber: 'DGS/TC/2026/017', certificateValidityMonths: 60 });
    const test = await createTestRow(db, course.id);
    const from = addDays(utcDay(), -10);
    const to = addDays(from, 2);
    const at = (day: string, time: string) => new Date(`${day}T${time}Z`);
    const holder = {
      holderName: 'Arjun Nair',
      holderDateOfBirth: '1990-04-12',
      holderIndosNo: '0012345',
      holderPassportNumber: 'P0123456',
      holderCdcNumber: 'MUM 012345',
      holderVerifiedByName: 'Leela Pillai',
      holderVerifiedAt: new Date(`${addDays(from, -20)}T10:00:00Z`),
      courseCode: 'FPFF',
      approvalNumber: 'DGS/TC/2026/017',
    };
    const issue = async (issuedAt: Date, overrides: Parameters<typeof createCertificateRow>[2] = {}) => {
      const user = await createUser(db, { approvedAt: new Date() });
      return createCertificateRow(db, { userId: user.id, courseId: course.id, testId: test.id }, { ...holder, issuedAt, validUntil: addDays(from, 5 * 365), ...overrides });
    };
    // Two at one instant, numbered so that the later-made one sorts first.
    const serial = randomInt(100_000, 900_000);
    const sameInstant = at(addDays(from, 1), '10:00:00.000');

    const first = await issue(at(from, '00:00:00.000'), { holderIndosNo: '00077ABC', holderName: 'Zoë Fernandes' });
    const gaps = await issue(at(addDays(from, 1), '09:00:00.000'), { holderPassportNumber: null, holderCdcNumber: '  ', holderName: 'राहुल शर्मा, Jr.' });
    const later = await issue(sameInstant, { number: `MTA/2026/9${serial + 1}` });
    const earlier = await issue(sameInstant, { number: `MTA/2026/9${serial}` });
    const superseded = await issue(at(addDays(from, 1), '11:00:00.000'), { supersededAt: new Date() });
    const unprinted = await issue(at(addDays(from, 1), '12:00:00.000'), { courseCode: null, approvalNumber: null, validUntil: null, holderName: '=HYPERLINK("http://evil.example")' });
    const last = await issue(at(to, '23:59:59.999'), { holderIndosNo: null, holderDateOfBirth: null });
    await issue(at(addDays(from, 1), '13:00:00.000'), { revokedAt: new Date(), revokeReason: 'Issued in error' });
    await issue(at(addDays(from, -1), '23:59:59.999'));
    await issue(at(addDays(to, 1), '00:00:00.000'));
    // Another course's completion in the same days.
    const other = await createCourse(db);
    const otherUser = await createUser(db, { approvedAt: new Date() });
    await createCertificateRow(db, { userId: otherUser.id, courseId: other.id, testId: (await createTestRow(db, other.id)).id }, { issuedAt: at(from, '12:00:00.000') });

    const inOrder = [first, gaps, earlier, later, superseded, unprinted, last];
    return { course, from, to, inOrder, first, gaps, unprinted, last, query: `courseId=${course.id}&from=${from}&to=${to}` };
  });

describe("the regulator's batch", () => {
  it('lists the completions of the batch as printed, in order of issue then number, with what each row lacks', async ({ admin, as, batchWorld }) => {
    const world = await batchWorld();
    const batch = await as(admin).certificates.regulatorBatch({ courseId: world.course.id, from: world.from, to: world.to });
    expect(batch.course).toEqual({ id: world.course.id, title: world.course.title, code: 'FPFF', approvalNumber: 'DGS/TC/2026/017' });
    expect(batch.courseMissing).toEqual([]);
    expect(batch.rows.map((row) => row.certificateNumber)).toEqual(world.inOrder.map((certificate) => certificate.number));
    expect(batch.rows[0]).toEqual({
      certificateId: world.first.id,
      userId: world.first.userId,
      indosNo: '00077ABC',
      nameAsInPassport: 'Zoë Fernandes',
      dateOfBirth: '1990-04-12',
      passportNumber: 'P0123456',
      cdcNumber: 'MUM 012345',
      courseCode: 'FPFF',
      approvalNumber: 'DGS/TC/2026/017',
      batchStart: world.from,
      batchEnd: world.to,
      certificateNumber: world.first.number,
      issueDate: world.from,
      validUntil: addDays(world.from, 5 * 365),
      verified: true,
      verifiedBy: 'Leela Pillai',
      verifiedOn: addDays(world.from, -20),
      missing: [],
    });
    const row = (id: string) => batch.rows.find((candidate) => candidate.certificateId === id)!;
    expect(row(world.gaps.id)).toMatchObject({ passportNumber: '', cdcNumber: '', missing: ['passportNumber', 'cdcNumber'] });
    expect(row(world.last.id)).toMatchObject({ indosNo: '', dateOfBirth: '', issueDate: world.to, missing: ['indosNo', 'dateOfBirth'] });
    // Issued before the course had its code and approval number: the course's current ones.
    expect(row(world.unprinted.id)).toMatchObject({ courseCode: 'FPFF', approvalNumber: 'DGS/TC/2026/017', validUntil: '', missing: [] });
  });

  it('writes the XLSX with the upload’s headers in order, every cell text, read back by a real reader', async ({ admin, as, batchWorld, download }) => {
    const world = await batchWorld();
    const res = await download('xlsx', world.query);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="regulator-batch-FPFF-${world.from}-to-${world.to}.xlsx"`);
    const batch = await as(admin).certificates.regulatorBatch({ courseId: world.course.id, from: world.from, to: world.to });

    const book = await readWorkbook(res.rawPayload);
    expect(book.sheetNames).toEqual(['Batch']);
    expect(book.rows[0]).toEqual(HEADERS);
    expect(book.rows.slice(1)).toEqual(
      batch.rows.map((row) => [
        row.indosNo,
        row.nameAsInPassport,
        row.dateOfBirth,
        row.passportNumber,
        row.cdcNumber,
        row.courseCode,
        row.approvalNumber,
        row.batchStart,
        row.batchEnd,
        row.certificateNumber,
        row.issueDate,
        row.validUntil,
        row.verifiedBy,
        row.verifiedOn,
      ]),
    );
    // Leading zeros, dates and a would-be formula stay text, as written.
    expect(book.rows[1]![0]).toBe('00077ABC');
    expect(book.rows.slice(1).map((row) => row[9])).toEqual(world.inOrder.map((certificate) => certificate.number));
    const filled = book.cells.filter((cell) => cell.value !== null && cell.value !== undefined && cell.value !== '');
    expect(filled.every((cell) => cell.type === ExcelJS.ValueType.String && cell.numFmt === '@')).toBe(true);
    expect(book.rows.find((row) => row[1]!.startsWith('=HYPERLINK'))).toBeDefined();
    expect(book.sheet.getColumn(2).width).toBeGreaterThanOrEqual(30);
    expect(book.sheet.getColumn(1).width).toBeGreaterThanOrEqual(14);
  });

  it('writes the same rows as CSV, formula-guarded, and the same file again on a second download', async ({ batchWorld, download }) => {
    const world = await batchWorld();
    const res = await download('csv', world.query);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="regulator-batch-FPFF-${world.from}-to-${world.to}.csv"`);
    const [header, ...rows] = csvTable(res.body);
    expect(header).toEqual(HEADERS);
    const book = await readWorkbook((await download('xlsx', world.query)).rawPayload);
    // The CSV guards a cell a spreadsheet would run; otherwise the two files say the same.
    const guarded = book.rows.slice(1).map((row) => row.map((cell) => (cell.startsWith('=') ? `'${cell}` : cell)));
    expect(rows).toEqual(guarded);
    expect(rows.find((row) => row[1] === 'राहुल शर्मा, Jr.')).toBeDefined();

    const again = await download('csv', world.query);
    expect(again.body).toBe(res.body);
    const bookAgain = await readWorkbook((await download('xlsx', world.query)).rawPayload);
    expect(bookAgain.rows).toEqual(book.rows);
  });

  it("says what the course lacks, and gives an empty batch's file its header alone", async ({ admin, as, db, download }) => {
    const course = await createCourse(db);
    const day = utcDay();
    const batch = await as(admin).certificates.regulatorBatch({ courseId: course.id, from: day, to: day });
    expect(batch).toMatchObject({ rows: [], courseMissing: ['courseCode', 'approvalNumber'] });
    const csv = await download('csv', `courseId=${course.id}&from=${day}&to=${day}`);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="regulator-batch-course-${day}-to-${day}.csv"`);
    expect(csvTable(csv.body)).toEqual([HEADERS]);
    const book = await readWorkbook((await download('xlsx', `courseId=${course.id}&from=${day}&to=${day}`)).rawPayload);
    expect(book.rows).toEqual([HEADERS]);
  });

  it('lists a completion issued through the pass, with the holder details of the approved profile', async ({ admin, as, db, portal }) => {
    const course = await createCourse(db, { code: 'PST', approvalNumber: 'DGS/PST/0042', certificateValidityMonths: 60 });
    const questions: TTestForm['questions'] = [
      { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
    ];
    const { test } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions });
    await as(admin).tests.publish({ testId: test.id });
    const seafarer = await createUser(db, { approvedAt: new Date() });
    const profile = await createProfileRow(db, seafarer.id, { name: 'Meera Krishnan Iyer', indosNo: '09AB1234', dateOfBirth: '1988-02-29', passportNumber: 'Z0098765', cdcNumber: 'MUM 998877' });
    await createEnrolment(db, { userId: seafarer.id, courseId: course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    await as(seafarer).tests.take({ courseId: course.id });
    const result = await as(seafarer).tests.submit({ testId: test.id, answers: test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.correctAnswer })) });
    expect(result.passed).toBe(true);
    await portal.drainJobs();

    const [issued] = (await as(seafarer).certificates.mine()).filter((certificate) => certificate.course.id === course.id);
    const day = issued!.issuedAt.slice(0, 10);
    const batch = await as(admin).certificates.regulatorBatch({ courseId: course.id, from: day, to: day });
    expect(batch.rows).toEqual([
      expect.objectContaining({
        indosNo: profile.indosNo,
        nameAsInPassport: profile.name,
        dateOfBirth: '1988-02-29',
        passportNumber: 'Z0098765',
        cdcNumber: 'MUM 998877',
        courseCode: 'PST',
        approvalNumber: 'DGS/PST/0042',
        certificateNumber: issued!.number,
        issueDate: day,
        validUntil: issued!.validUntil,
        missing: [],
      }),
    ]);
    expect(issued!.validUntil).not.toBeNull();
  });

  it('refuses a range that ends before it starts, an unknown course and malformed days with 400, and writes no file', async ({ admin, as, db, download }) => {
    const course = await createCourse(db);
    const day = utcDay();
    const cases: Array<[string, string]> = [
      [`courseId=${course.id}&from=${day}&to=${addDays(day, -1)}`, A.rangeOrder],
      [`courseId=${crypto.randomUUID()}&from=${day}&to=${day}`, A.unknownCourse],
      [`courseId=${course.id}&from=27-11-2026&to=${day}`, A.dateFormat],
      [`courseId=${course.id}&from=${day}`, A.dateFormat],
      [`courseId=${course.id}&from=2026-02-31&to=2026-03-31`, A.dateFormat],
      [`courseId=${course.id}&from=2026-01-01&to=2026-13-01`, A.dateFormat],
      [`courseId=42&from=${day}&to=${day}`, MESSAGES.validation.invalidId],
    ];
    for (const [query, message] of cases) {
      for (const kind of ['csv', 'xlsx'] as const) {
        const res = await download(kind, query);
        expect(res.statusCode, `${kind} ${query}`).toBe(400);
        expect(res.headers['content-disposition'], `${kind} ${query}`).toBeUndefined();
        expect(res.headers['content-type'], `${kind} ${query}`).toContain('application/json');
        expect(res.json().message, `${kind} ${query}`).toBe(message);
      }
    }
    await expect(as(admin).certificates.regulatorBatch({ courseId: crypto.randomUUID(), from: day, to: day })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: A.unknownCourse,
    });
    await expect(as(admin).certificates.regulatorBatch({ courseId: course.id, from: day, to: addDays(day, -1) })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers a learner 403 and a visitor 401, with no file', async ({ as, batchWorld, download, learner, portal }) => {
    const world = await batchWorld();
    await expect(as(learner).certificates.regulatorBatch({ courseId: world.course.id, from: world.from, to: world.to })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    for (const kind of ['csv', 'xlsx'] as const) {
      const res = await download(kind, world.query, learner);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect((await portal.app.inject({ url: `/api/certificates/regulator-batch.${kind}?${world.query}` })).statusCode).toBe(401);
    }
  });
});
