import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { addDays, utcDay } from '../src/shared/calendar.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import * as schema from '../src/server/db/schema.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { REMINDER_BATCH, sendDueReminders, type TReminderDeps } from '../src/server/modules/certificates/reminders.service.ts';
import { BENCH_DATABASE_URL, ms, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';

/*
 * The reminder sweep over 100,000 certificates on PostgreSQL: 5,000 learners × 20 courses (half
 * of them with a refresher), last valid days spread evenly over six years around today (about 4 %
 * inside the 90-day window), 2 % revoked, 3 % superseded, one learner in twenty opted out, 500
 * enrolled in their course's refresher. Each run's statements are counted by a drizzle logger
 * (plus a BEGIN and COMMIT for each batch that writes). Mails are queued, not dispatched: the
 * figure is the sweep's, not the SMTP server's.
 */

const LEARNERS = 5_000;
const COURSES = 20;
const SPREAD_DAYS = 6 * 365;

async function seed(sql: postgres.Sql, today: string) {
  await sql`insert into courses (title, description, duration, price, category, subjects)
    select 'Course ' || n, 'STCW course', '5 days', 4500, 'STCW', '["Safety"]'::jsonb from generate_series(1, ${COURSES * 2}) n`;
  // Courses 1..20 are taken; 21..40 are the refreshers of the odd ones.
  await sql`update courses c set refresher_course_id = r.id
    from courses r where c.title ~ '^Course [0-9]+$' and r.title = 'Course ' || (substring(c.title from 8)::int + ${COURSES})
      and substring(c.title from 8)::int <= ${COURSES} and substring(c.title from 8)::int % 2 = 1`;
  await sql`insert into tests (course_id, title, pass_mark) select id, title, 50 from courses`;
  await sql`insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at, certificate_reminders)
    select 'Mr', 'Learner', 'No ' || n, '9876543210', 'learner-' || n || '@bench.example', 'x', 'learner', now(), now(), n % 20 <> 0
    from generate_series(1, ${LEARNERS}) n`;
  await sql`create temp table taken as
    select u.id as user_id, c.id as course_id, t.id as test_id, row_number() over (order by u.email, c.title) as n
    from users u cross join courses c join tests t on t.course_id = c.id
    where c.title ~ '^Course [0-9]+$' and substring(c.title from 8)::int <= ${COURSES}`;
  await sql`insert into test_attempts (user_id, test_id, course_id, submitted_at, score, total_questions, percentage, passed, time_taken_seconds)
    select user_id, test_id, course_id, now(), 2, 2, 100, true, 30 from taken`;
  await sql`insert into certificates (user_id, course_id, attempt_id, number, verification_code, holder_name, status, valid_until, revoked_at, superseded_at)
    select t.user_id, t.course_id, a.id, 'MTA/2026/' || lpad(t.n::text, 7, '0'), 'code-' || t.n, 'Learner ' || t.n, 'ready',
      ${today}::date - 365 + ((t.n * 7919) % ${SPREAD_DAYS})::int,
      case when t.n % 50 = 0 then now() end,
      case when t.n % 33 = 0 then now() end
    from taken t join test_attempts a on a.user_id = t.user_id and a.course_id = t.course_id`;
  // 500 learners asked for their course's refresher.
  await sql`insert into enrolments (user_id, course_id, status)
    select distinct on (c.user_id) c.user_id, co.refresher_course_id, 'approved'
    from certificates c join courses co on co.id = c.course_id
    where co.refresher_course_id is not null and c.valid_until between ${today}::date and ${today}::date + 90
    limit 500`;
  await sql`analyze`;
}

async function measure(url: string): Promise<TBenchRow[]> {
  const handle = await openDatabase({ url });
  await handle.migrate();
  await handle.close();
  const today = utcDay();
  const client = postgres(url, { max: 10, onnotice: () => {} });
  let statements = 0;
  const db = drizzle(client, { schema, logger: { logQuery: () => void (statements += 1) } }) as unknown as Database;
  try {
    const seeding = performance.now();
    await seed(client, today);
    const seedMs = performance.now() - seeding;
    const [counts] = await client<Array<{ total: string; window: string }>>`select count(*)::text as total,
      count(*) filter (where revoked_at is null and superseded_at is null and valid_until between ${today}::date and ${today}::date + 90)::text as window
      from certificates`;
    const deps: TReminderDeps = {
      db,
      logger: createLogger('warn'),
      site: { name: 'Maritime Training Academy' } as TReminderDeps['site'],
      publicUrl: 'https://academy.example',
      certificateReminderDays: [90, 30, 7],
      dispatch: async () => {},
    };
    const run = async (label: string, day: string, runs = 1) => {
      statements = 0;
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: runs }, () => sendDueReminders(deps, { today: day })));
      const elapsed = performance.now() - started;
      const queued = results.reduce((sum, result) => sum + result.queued, 0);
      const batches = results.reduce((sum, result) => sum + result.batches, 0);
      return {
        queued,
        row: {
          figure: `Reminder sweep: ${label}`,
          value: ms(elapsed),
          note: `${results[0]!.examined} certificates examined, ${queued} reminders and mails queued, ${statements} statements in ${batches} batches of ${REMINDER_BATCH}`,
        },
      };
    };
    const first = await run('first day (100,000 certificates)', today);
    const again = await run('the same day again', today);
    const next = await run('the next day', addDays(today, 1));
    const concurrent = await run('two sweeps at once, a month on', addDays(today, 30), 2);
    const [written] = await client<Array<{ reminders: string; stages: string; mails: string; outbox: string }>>`select
      (select count(*) from certificate_reminders)::text as reminders,
      (select count(distinct (certificate_id, days_before)) from certificate_reminders)::text as stages,
      (select count(*) from mails)::text as mails,
      (select count(*) from job_outbox where name = 'send-mail')::text as outbox`;
    const queuedTotal = first.queued + again.queued + next.queued + concurrent.queued;
    return [
      { figure: 'Reminder sweep: certificates', value: Number(counts!.total).toLocaleString('en'), note: `${counts!.window} live in the 90-day window today; seeded in ${ms(seedMs)}` },
      first.row,
      again.row,
      next.row,
      concurrent.row,
      {
        figure: 'Reminder sweep: written',
        value: `${written!.reminders} reminder rows`,
        note: `${written!.stages} distinct stages, ${written!.mails} mails, ${written!.outbox} outbox rows; the runs reported ${queuedTotal} queued`,
      },
    ];
  } finally {
    await client.end({ timeout: 5 });
  }
}

export const remindersBenchmark: TBenchmark = {
  name: 'Certificate reminders',
  async run() {
    if (!BENCH_DATABASE_URL) {
      return [{ figure: 'Reminder sweep', value: 'not measured', note: 'set BENCH_DATABASE_URL (PostgreSQL)' }];
    }
    return withFreshPostgres(BENCH_DATABASE_URL, measure);
  },
};

// `npx tsx bench/reminders.bench.ts`: this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await remindersBenchmark.run()) process.stdout.write(`${row.figure}: ${row.value}${row.note ? ` (${row.note})` : ''}\n`);
}
