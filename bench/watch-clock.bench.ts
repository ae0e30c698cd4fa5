import postgres from 'postgres';
import { TEST_PASSWORD, TEST_PASSWORD_HASH } from '../src/testing/factories.ts';
import { BENCH_DATABASE_URL, freePort, startProcess, stopProcess, waitForOk, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';

/** The part's length: long enough to see a multiple of it, short enough for a bench. */
const PART_SECONDS = 20;
/** Every strategy gives up after this long. */
const GIVE_UP_MS = (PART_SECONDS * 1.5 + 5) * 1000;

type TReport = { from: number; to: number };

/** A learner's reports through the documented REST path, as a script written from the OpenAPI document sends them. */
function reporter(base: string, token: string, videoId: string) {
  return async (report: TReport): Promise<boolean> => {
    const res = await fetch(`${base}/api/trainingVideo/watched`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ videoId, ...report, position: report.to }),
    });
    const body = (await res.json()) as { completed?: boolean };
    return res.ok && body.completed === true;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const everySecond = Array.from({ length: PART_SECONDS }, (_, second) => ({ from: second, to: second + 1 }));

/**
 * Ways a script may try to complete a part faster than it plays. Each sends reports until the
 * server says the part is completed (or gives up), and answers when that was, from its first report.
 */
const STRATEGIES: Record<string, (send: (report: TReport) => Promise<boolean>) => Promise<number | null>> = {
  'bursts of one-second reports, back to back': async (send) => {
    const started = performance.now();
    await send({ from: 0, to: 0 });
    while (performance.now() - started < GIVE_UP_MS) {
      for (const report of everySecond) if (await send(report)) return performance.now() - started;
      await sleep(100);
    }
    return null;
  },
  'the whole part, claimed ten times a second': async (send) => {
    const started = performance.now();
    await send({ from: 0, to: 0 });
    while (performance.now() - started < GIVE_UP_MS) {
      if (await send({ from: 0, to: PART_SECONDS })) return performance.now() - started;
      await sleep(100);
    }
    return null;
  },
  'no start, the next second ten times a second': async (send) => {
    const started = performance.now();
    for (let second = 0; performance.now() - started < GIVE_UP_MS; second = (second + 1) % PART_SECONDS) {
      if (await send({ from: second, to: second + 1 })) return performance.now() - started;
      await sleep(100);
    }
    return null;
  },
  'start, wait 0.9 × the part, then claim it all': async (send) => {
    const started = performance.now();
    await send({ from: 0, to: 0 });
    await sleep(PART_SECONDS * 900);
    while (performance.now() - started < GIVE_UP_MS) {
      if (await send({ from: 0, to: PART_SECONDS })) return performance.now() - started;
      await sleep(50);
    }
    return null;
  },
};

async function seed(databaseUrl: string, learners: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [course] = await sql<{ id: string }[]>`
      insert into courses (title, description, duration, price, category, subjects, is_active)
      values ('Watch clock course', 'A course for timing watch credit.', '1 day', 100, 'Safety', '["Fire"]'::jsonb, true) returning id`;
    const [set] = await sql<{ id: string }[]>`insert into training_video_sets (course_id, title) values (${course!.id}, 'Watch clock') returning id`;
    const [video] = await sql<{ id: string }[]>`
      insert into training_videos (set_id, serial, original_name, source_file, status, duration_seconds, renditions)
      values (${set!.id}, 1, 'Part 1', gen_random_uuid() || '.mp4', 'ready', ${PART_SECONDS}, '[]'::jsonb) returning id`;
    const users = await sql<{ id: string; email: string }[]>`
      insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
      select 'Mr', 'Script', 'Runner ' || i, '9876543210', 'script-' || i || '@bench.example', ${TEST_PASSWORD_HASH}, 'learner', now(), now()
      from generate_series(1, ${learners}) i returning id, email`;
    await sql`
      insert into enrolments (user_id, course_id, status, decided_at)
      select u.id, ${course!.id}, 'approved', now() from unnest(${users.map((user) => user.id)}::uuid[]) as u(id)`;
    return { videoId: video!.id, emails: users.map((user) => user.email) };
  } finally {
    await sql.end();
  }
}

export const watchClockBenchmark: TBenchmark = {
  name: 'Watch credit against the clock',
  async run(): Promise<TBenchRow[]> {
    if (!BENCH_DATABASE_URL) return [{ figure: 'Fastest scripted completion', value: 'not run', note: 'needs BENCH_DATABASE_URL or TEST_DATABASE_URL' }];
    return withFreshPostgres(BENCH_DATABASE_URL, async (databaseUrl) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = startProcess('dist/server/index.js', { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' });
      try {
        await waitForOk(`${base}/readyz`, performance.now());
        const names = Object.keys(STRATEGIES);
        const { videoId, emails } = await seed(databaseUrl, names.length);
        const tokens = await Promise.all(
          emails.map(async (email) => {
            const res = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: TEST_PASSWORD }) });
            return ((await res.json()) as { accessToken: string }).accessToken;
          }),
        );
        // Every strategy at once, each as its own learner.
        const times = await Promise.all(names.map((name, index) => STRATEGIES[name]!(reporter(base, tokens[index]!, videoId))));
        const rows: TBenchRow[] = names.map((name, index) => ({
          figure: `Script: ${name}`,
          value: times[index] === null ? `not completed in ${(GIVE_UP_MS / 1000).toFixed(0)} s` : `completed after ${(times[index]! / 1000).toFixed(2)} s`,
          note: times[index] === null ? '' : `${(times[index]! / 1000 / PART_SECONDS).toFixed(3)} × the part's ${PART_SECONDS} s`,
        }));
        const completed = times.filter((time): time is number => time !== null);
        rows.unshift({
          figure: `Fastest a script completes a part of D = ${PART_SECONDS} s`,
          value: completed.length ? `${(Math.min(...completed) / 1000 / PART_SECONDS).toFixed(3)} × D` : 'none completed',
          note: 'aim ≥ 0.95; from the script\'s first report to the answer that says completed, over the strategies below',
        });
        return rows;
      } finally {
        await stopProcess(child);
      }
    });
  },
};
