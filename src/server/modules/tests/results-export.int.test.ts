import type { TAdminTest, TTestForm } from '../../../shared/schemas/tests.ts';
import { createUser } from '../../../testing/factories.ts';
import { describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';

const QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam, dry powder', 'Wet sand'], correctAnswer: 'CO2' },
  { questionText: 'Short blasts of the general alarm?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' },
];

const it = test
  /** A course of this title with a published test of the two questions, pass mark 50. */
  .extend('testTitled', { scope: 'file' }, ({ publishedTest }) => (title: string) => publishedTest({ title, course: { title }, questions: QUESTIONS }))
  /** A learner named so, who takes the course's test and gives these answers. */
  .extend('submitted', { scope: 'file' }, ({ as, learnerIn }) => async (test: TAdminTest, courseId: string, name: { firstName: string; lastName: string }, answers: string[]) => {
    const learner = await learnerIn(courseId, { user: name });
    await as(learner).tests.take({ courseId });
    await as(learner).tests.submit({
      testId: test.id,
      answers: test.questions.map((question, index) => ({ questionId: question.id, selectedAnswer: answers[index]! })),
    });
    return learner;
  })
  .extend('exportCsv', { scope: 'file' }, ({ portal, bearer, staff }) => (search: string | undefined, user: TTestUser | null = staff) =>
    portal.app.inject({
      method: 'GET',
      url: '/api/submitTest.csv',
      query: search === undefined ? {} : { search },
      headers: user ? bearer(user) : {},
    }),
  );

/** A CSV body read back as RFC 4180 says: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) throw new Error('the last row has no line ending');
  return rows;
}

describe('GET /api/submitTest.csv', () => {
  it('downloads every matching attempt, quoted and guarded against formulas, beyond one page', async ({ testTitled, submitted, exportCsv }) => {
    const { course, test } = await testTitled('Tanker Familiarisation, "Oil"');
    const tricky = await submitted(test, course.id, { firstName: '=HYPERLINK("http://evil")', lastName: 'Nair' }, ['Foam, dry powder', 'Seven']);
    await submitted(test, course.id, { firstName: '@Meera', lastName: 'Iyer' }, ['CO2', 'Seven']);
    await submitted(test, course.id, { firstName: '+Rohan', lastName: '-Pillai' }, ['Water', 'Three']);

    const response = await exportCsv('tanker familiarisation');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="test-results-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['x-total-count']).toBe('3');
    expect(response.body.startsWith('\uFEFF')).toBe(true);

    const [header, ...rows] = parseCsv(response.body.slice(1));
    expect(header).toEqual([
      'Submitted at',
      'Learner',
      'Email',
      'Course',
      'Test',
      'Score',
      'Total questions',
      'Percentage',
      'Result',
      'Time taken (seconds)',
      'Answers (selected / correct)',
    ]);
    expect(rows).toHaveLength(3);
    // Newest first, as the screen lists them.
    expect(rows.map((row) => row[1])).toEqual(["'+Rohan -Pillai", "'@Meera Iyer", `'=HYPERLINK("http://evil") Nair`]);
    const trickyRow = rows[2]!;
    expect(trickyRow[2]).toBe(tricky.email);
    expect(trickyRow[3]).toBe('Tanker Familiarisation, "Oil"');
    expect(trickyRow.slice(5, 10)).toEqual(['1', '2', '50', 'Passed', trickyRow[9]]);
    expect(Number.isInteger(Number(trickyRow[9]))).toBe(true);
    expect(trickyRow[10]).toBe('Q1: Foam, dry powder / CO2; Q2: Seven / Seven');
    expect(rows[0]!.slice(5, 9)).toEqual(['0', '2', '0', 'Failed']);
    expect(new Date(trickyRow[0]!).toISOString()).toBe(trickyRow[0]);
    // No cell of the file starts a formula.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it('filters by learner name, e-mail or course title, and exports more rows than a page holds', async ({ testTitled, submitted, exportCsv }) => {
    const { course, test } = await testTitled('Crowd Management');
    const kavya = await submitted(test, course.id, { firstName: 'Kavya', lastName: 'Zubair' }, ['CO2', 'Seven']);
    const other = await testTitled('Ship Security Awareness');
    for (let i = 0; i < 25; i++) await submitted(other.test, other.course.id, { firstName: 'Crew', lastName: `Member ${i}` }, ['CO2', 'Nine']);

    const byName = parseCsv((await exportCsv('kavya zubair')).body.slice(1)).slice(1);
    expect(byName.map((row) => row[2])).toEqual([kavya.email]);
    const byEmail = parseCsv((await exportCsv(kavya.email.toUpperCase())).body.slice(1)).slice(1);
    expect(byEmail.map((row) => row[1])).toEqual([`Kavya Zubair`]);
    const byCourse = await exportCsv('ship security');
    const courseRows = parseCsv(byCourse.body.slice(1)).slice(1);
    // All 25, not the screen's page of 20.
    expect(courseRows).toHaveLength(25);
    expect(new Set(courseRows.map((row) => row[3]))).toEqual(new Set(['Ship Security Awareness']));
    expect(byCourse.headers['x-total-count']).toBe('25');

    const nothing = await exportCsv('no such learner anywhere');
    expect(nothing.statusCode).toBe(200);
    expect(parseCsv(nothing.body.slice(1))).toHaveLength(1);
  });

  it('refuses visitors (401) and learners (403), and a bad search (400)', async ({ portal, db, bearer, staff, exportCsv }) => {
    const visitor = await exportCsv(undefined, null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.headers['content-type']).toMatch(/application\/json/);
    const learner = await createUser(db, { approvedAt: new Date() });
    const refused = await exportCsv(undefined, learner);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('Submitted at');

    const tooLong = await exportCsv('x'.repeat(101));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ message: 'Search must be at most 100 characters.' });
    const unknown = await portal.app.inject({
      method: 'GET',
      url: '/api/submitTest.csv?page=2',
      headers: bearer(staff),
    });
    expect(unknown.statusCode).toBe(400);
  });
});
