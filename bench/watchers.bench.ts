import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import postgres from 'postgres';
import { Pool } from 'undici';
import { HEARTBEAT_SECONDS, VIDEO_COMPLETION_SHARE } from '../src/shared/constants.ts';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { CLOCK_SLACK_SECONDS } from '../src/server/modules/training/watched.ts';
import { TEST_PASSWORD_HASH } from '../src/testing/factories.ts';
import { BENCH_DATABASE_URL, freePort, ms, percentile, startProcess, stopProcess, waitForOk, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';

/**
 * Many learners watching at once: each sends a start, then a report every HEARTBEAT_SECONDS of the
 * span played since the last one (the time that really passed, as a playing video advances),
 * through the documented REST path with a bearer token of a live session. One learner in twenty
 * is a script claiming twice what plays. Afterwards every watch record is reconciled with what was
 * sent and what the rules allow.
 *
 * WATCHERS (default 5,000) and WATCH_SECONDS (default 90) scale it; WATCHERS_CONNECTIONS the
 * client's keep-alive connections (default 128), WATCHERS_SERVER the server bundle (default dist/server/index.js).
 */
const WATCHERS = Number(process.env.WATCHERS ?? 5000);
const WATCH_SECONDS = Number(process.env.WATCH_SECONDS ?? 90);
const CONNECTIONS = Number(process.env.WATCHERS_CONNECTIONS ?? 128);
/** Part 1 completes within the run, then the learner goes on to part 2 (unlocked by it). */
const PART_SECONDS = [60, 3600];
const CHEAT_EVERY = 20;
const GIVE_UP_AFTER_END_MS = 30_000;
/** The server bundle to start (another build of the portal, to compare). */
const SERVER_ENTRY = process.env.WATCHERS_SERVER ?? 'dist/server/index.js';
const JWT_SECRET = 'watchers-bench-secret-0123456789abcdef-0123456789';

type TSent = { videoIndex: number; from: number; to: number };
type TLearner = { id: string; token: string; cheat: boolean; sent: TSent[]; part: number; position: number; lastSentAt: number };

async function seed(databaseUrl: string, count: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [course] = await sql<{ id: string }[]>`
      insert into courses (title, description, duration, price, category, subjects, is_active)
      values ('Fleet course', 'A course the whole fleet watches.', '1 day', 100, 'Safety', '["Fire"]'::jsonb, true) returning id`;
    const [set] = await sql<{ id: string }[]>`insert into training_video_sets (course_id, title) values (${course!.id}, 'Fleet training') returning id`;
    const videoIds: string[] = [];
    for (const [index, seconds] of PART_SECONDS.entries()) {
      const [video] = await sql<{ id: string }[]>`
        insert into training_videos (set_id, serial, original_name, source_file, status, duration_seconds, renditions)
        values (${set!.id}, ${index + 1}, ${`Part ${index + 1}`}, gen_random_uuid() || '.mp4', 'ready', ${seconds}, '[]'::jsonb) returning id`;
      videoIds.push(video!.id);
    }
    const users = await sql<{ id: string }[]>`
      insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
      select 'Mr', 'Deck', 'Hand ' || i, '9876543210', 'watcher-' || i || '@bench.example', ${TEST_PASSWORD_HASH}, 'learner', now(), now()
      from generate_series(1, ${count}) i returning id`;
    const ids = users.map((user) => user.id);
    await sql`
      insert into enrolments (user_id, course_id, status, decided_at)
      select u.id, ${course!.id}, 'approved', now() from unnest(${ids}::uuid[]) as u(id)`;
    // A live session for each, as a login makes (the access token names it; ended sessions are refused).
    const families = ids.map(() => randomUUID());
    await sql`
      insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
      select u.id, u.family, md5(u.family::text), now() + interval '1 day'
      from unnest(${ids}::uuid[], ${families}::uuid[]) as u(id, family)`;
    // Tokens minted as the login signs them (a login per learner would time argon2, not watching).
    const tokens = ids.map((id, index) => signAccessToken({ sub: id, role: 'learner', sid: families[index] }, JWT_SECRET, 60 * 60));
    return { videoIds, learners: ids.map((id, index) => ({ id, token: tokens[index]! })) };
  } finally {
    await sql.end();
  }
}

type TDbCounters = { commits: number; inserted: number; updated: number; deleted: number };

async function dbCounters(sql: postgres.Sql, database: string): Promise<TDbCounters> {
  const [row] = await sql<{ commits: string; inserted: string; updated: string; deleted: string }[]>`
    select xact_commit as commits, tup_inserted as inserted, tup_updated as updated, tup_deleted as deleted
    from pg_stat_database where datname = ${database}`;
  return { commits: Number(row!.commits), inserted: Number(row!.inserted), updated: Number(row!.updated), deleted: Number(row!.deleted) };
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Seconds of a span within a part of `duration` seconds. */
const within = (sent: Pick<TSent, 'from' | 'to'>, duration: number) => Math.min(sent.to, duration) - Math.min(sent.from, duration);

async function watch(base: string, videoIds: string[], learners: TLearner[]) {
  const pool = new Pool(base, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const startedAt = performance.now();
  const endAt = startedAt + WATCH_SECONDS * 1000;
  // A server that cannot keep up leaves reports waiting: those still unanswered this long after the end are given up.
  const giveUp = new AbortController();
  setMaxListeners(0, giveUp.signal);
  const giveUpTimer = setTimeout(() => giveUp.abort(), WATCH_SECONDS * 1000 + GIVE_UP_AFTER_END_MS);

  async function send(learner: TLearner, report: TSent): Promise<{ completed?: boolean } | null> {
    const began = performance.now();
    try {
      const res = await pool.request({
        path: '/api/trainingVideo/watched',
        method: 'POST',
        headers: { authorization: `Bearer ${learner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ videoId: videoIds[report.videoIndex], from: report.from, to: report.to, position: report.to }),
        signal: giveUp.signal,
      });
      const body = (await res.body.json()) as { completed?: boolean };
      latencies.push(performance.now() - began);
      if (res.statusCode !== 200) {
        errors.set(String(res.statusCode), (errors.get(String(res.statusCode)) ?? 0) + 1);
        return null;
      }
      learner.sent.push(report);
      return body;
    } catch (error) {
      const name = giveUp.signal.aborted ? `unanswered ${GIVE_UP_AFTER_END_MS / 1000} s after the end` : ((error as Error).name ?? 'error');
      errors.set(name, (errors.get(name) ?? 0) + 1);
      return null;
    }
  }

  async function run(learner: TLearner, offsetMs: number) {
    await sleep(offsetMs);
    learner.lastSentAt = performance.now();
    await send(learner, { videoIndex: 0, from: 0, to: 0 });
    for (let beat = 1; ; beat++) {
      const due = startedAt + offsetMs + beat * HEARTBEAT_SECONDS * 1000;
      if (due > endAt) return;
      await sleep(Math.max(0, due - performance.now()));
      const now = performance.now();
      // What played since the last report: the real time that passed (twice that for a script).
      const played = round3(((now - learner.lastSentAt) / 1000) * (learner.cheat ? 2 : 1));
      learner.lastSentAt = now;
      const report = { videoIndex: learner.part, from: learner.position, to: round3(learner.position + played) };
      const answer = await send(learner, report);
      learner.position = report.to;
      if (answer?.completed && learner.part === 0) {
        // The part ended: the player moves on to the next, which starts with a start report.
        learner.part = 1;
        learner.position = 0;
        learner.lastSentAt = performance.now();
        await send(learner, { videoIndex: 1, from: 0, to: 0 });
      }
    }
  }

  await Promise.all(learners.map((learner, index) => run(learner, (index / learners.length) * HEARTBEAT_SECONDS * 1000)));
  const seconds = (performance.now() - startedAt) / 1000;
  clearTimeout(giveUpTimer);
  await pool.close();
  return { latencies, errors, seconds };
}

type TRecord = { user_id: string; video_id: string; watched_intervals: Array<[number, number]>; watched_seconds: number; observed_seconds: number; completed: boolean };
type TRefusal = { user_id: string; video_id: string; claimed_from: number; claimed_to: number; credited_seconds: number };

/**
 * Every learner's record against what was sent: the seconds credited are the seconds claimed less
 * what the refusals kept say was not credited; none beyond the clock; the honest credited in full;
 * a part completed exactly when the rules say.
 */
async function reconcile(databaseUrl: string, videoIds: string[], learners: TLearner[], runSeconds: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const records = await sql<TRecord[]>`
      select user_id, video_id, watched_intervals, watched_seconds, observed_seconds, completed_at is not null as completed from watch_progress`;
    const refusals = await sql<TRefusal[]>`select user_id, video_id, claimed_from, claimed_to, credited_seconds from watch_refusals`;
    const key = (userId: string, videoId: string) => `${userId}/${videoId}`;
    const recordOf = new Map(records.map((record) => [key(record.user_id, record.video_id), record]));
    const refusedOf = new Map<string, number>();
    const refusalsOf = new Map<string, number>();
    for (const refusal of refusals) {
      const k = key(refusal.user_id, refusal.video_id);
      const duration = PART_SECONDS[videoIds.indexOf(refusal.video_id)]!;
      refusedOf.set(k, (refusedOf.get(k) ?? 0) + within({ from: refusal.claimed_from, to: refusal.claimed_to }, duration) - refusal.credited_seconds);
      refusalsOf.set(k, (refusalsOf.get(k) ?? 0) + 1);
    }
    let mismatched = 0;
    let honestRefused = 0;
    let beyondClock = 0;
    let completion = 0;
    let completedParts = 0;
    let credited = 0;
    const examples: string[] = [];
    for (const learner of learners) {
      for (const [videoIndex, videoId] of videoIds.entries()) {
        const duration = PART_SECONDS[videoIndex]!;
        const sent = learner.sent.filter((report) => report.videoIndex === videoIndex);
        const record = recordOf.get(key(learner.id, videoId));
        if (!record) {
          if (sent.length > 0) mismatched++;
          continue;
        }
        const claimed = sent.reduce((sum, report) => sum + within(report, duration), 0);
        const watched = record.watched_intervals.reduce((sum, [from, to]) => sum + (to - from), 0);
        credited += watched;
        // Refusals store seconds as real (4 bytes): their sum is exact to about a thousandth.
        const expected = claimed - (refusedOf.get(key(learner.id, videoId)) ?? 0);
        if (Math.abs(expected - watched) > 0.01) {
          mismatched++;
          if (examples.length < 3) examples.push(`${learner.id} part ${videoIndex + 1}: sent ${claimed.toFixed(3)}, refused ${(claimed - expected).toFixed(3)}, credited ${watched.toFixed(3)}`);
        }
        if (watched > record.observed_seconds + CLOCK_SLACK_SECONDS + 0.01 || record.observed_seconds > runSeconds + 1) beyondClock++;
        if (!learner.cheat && refusalsOf.has(key(learner.id, videoId))) honestRefused++;
        const due = Math.min(watched, duration) >= duration * VIDEO_COMPLETION_SHARE && record.observed_seconds >= duration * VIDEO_COMPLETION_SHARE - 0.01;
        if (due !== record.completed) completion++;
        if (record.completed) completedParts++;
      }
    }
    return { mismatched, honestRefused, beyondClock, completion, completedParts, credited, records: records.length, refusals: refusals.length, examples };
  } finally {
    await sql.end();
  }
}

export const watchersBenchmark: TBenchmark = {
  name: 'Learners watching at once',
  async run(): Promise<TBenchRow[]> {
    if (!BENCH_DATABASE_URL) return [{ figure: 'Heartbeats of many learners', value: 'not run', note: 'needs BENCH_DATABASE_URL or TEST_DATABASE_URL' }];
    return withFreshPostgres(BENCH_DATABASE_URL, async (databaseUrl) => {
      const database = new URL(databaseUrl).pathname.slice(1);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = startProcess(SERVER_ENTRY, { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', JWT_SECRET });
      const stats = postgres(BENCH_DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        await waitForOk(`${base}/readyz`, performance.now());
        const { videoIds, learners: seeded } = await seed(databaseUrl, WATCHERS);
        const learners: TLearner[] = seeded.map((learner, index) => ({ ...learner, cheat: index % CHEAT_EVERY === CHEAT_EVERY - 1, sent: [], part: 0, position: 0, lastSentAt: 0 }));
        // PostgreSQL publishes a connection's counters within ten seconds of its last transaction.
        await sleep(11_000);
        const before = await dbCounters(stats, database);
        const cpuBefore = cpuSeconds(child.pid!);
        const loadBefore = os.loadavg()[0]!;
        const result = await watch(base, videoIds, learners);
        const cpu = cpuSeconds(child.pid!) - cpuBefore;
        const loadAfter = os.loadavg()[0]!;
        await sleep(11_000);
        const after = await dbCounters(stats, database);
        const check = await reconcile(databaseUrl, videoIds, learners, result.seconds);
        const sent = result.latencies.length;
        const errorCount = [...result.errors.values()].reduce((sum, count) => sum + count, 0);
        const perSecond = (value: number) => (value / result.seconds).toFixed(0);
        const writes = after.inserted + after.updated + after.deleted - before.inserted - before.updated - before.deleted;
        return [
          { figure: `Heartbeat p50 / p95 / p99 (${WATCHERS} learners, one report each ${HEARTBEAT_SECONDS} s)`, value: `${ms(percentile(result.latencies, 50))} / ${ms(percentile(result.latencies, 95))} / ${ms(percentile(result.latencies, 99))}`, note: `aim p95 < 200 ms; ${sent} reports in ${result.seconds.toFixed(0)} s; client: undici pool of ${CONNECTIONS} keep-alive connections in the bench process on the same machine` },
          { figure: 'Errors', value: String(errorCount), note: errorCount ? [...result.errors].map(([name, count]) => `${name}: ${count}`).join(', ') : 'aim 0' },
          { figure: 'Heartbeats a second', value: perSecond(sent), note: `max over the run ${Math.max(...result.latencies).toFixed(0)} ms` },
          { figure: 'Database transactions a second', value: perSecond(after.commits - before.commits), note: 'pg_stat_database xact_commit of the portal\'s database (every statement outside a transaction counts as one)' },
          { figure: 'Database rows written a second', value: perSecond(writes), note: `inserted ${after.inserted - before.inserted}, updated ${after.updated - before.updated} over the run` },
          { figure: 'API process CPU', value: `${((cpu / result.seconds) * 100).toFixed(0)} % of one core`, note: `${((cpu * 1000) / Math.max(1, sent)).toFixed(2)} ms per heartbeat; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${os.cpus().length} cores, PostgreSQL on the same machine` },
          {
            figure: 'Reconciliation: credited = sent − refused, per learner and part',
            value: check.mismatched === 0 ? 'exact' : `${check.mismatched} records differ`,
            note: `${check.records} records, ${check.refusals} refusals kept, ${check.completedParts} parts completed, ${(check.credited / 3600).toFixed(1)} h credited${check.examples.length ? `; ${check.examples.join('; ')}` : ''}`,
          },
          { figure: 'Credit beyond the server\'s clock', value: String(check.beyondClock), note: `records whose credit exceeds the playing time seen + ${CLOCK_SLACK_SECONDS} s; aim 0` },
          { figure: 'Honest reports refused', value: String(check.honestRefused), note: `records of honest learners with a refusal (one learner in ${CHEAT_EVERY} claims twice what plays and is refused)` },
          { figure: 'Completion as the rules say', value: check.completion === 0 ? 'yes' : `${check.completion} records differ`, note: `completed iff ${VIDEO_COMPLETION_SHARE * 100} % watched and timed` },
        ];
      } finally {
        await stats.end();
        await stopProcess(child);
      }
    });
  },
};
