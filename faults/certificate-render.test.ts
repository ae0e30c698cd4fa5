import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { certificates, jobOutbox } from '../src/server/db/schema.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { personName } from '../src/shared/names.ts';
import { untilJobsSettled } from '../src/testing/job-queue.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import {
  authed,
  eventually,
  faultsCanRun,
  freeze,
  json,
  killHard,
  learnerBeforeTheTest,
  onJobActive,
  queueKey,
  sleep,
  startPlatform,
  stopGently,
  thaw,
  type TProcess,
} from './support.ts';

const services = faultsCanRun();
const pdftotext = spawnSync('pdftotext', ['-v']).status === 0;
let db: DatabaseHandle;
const running: TProcess[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (services) db = await openDatabase({ url: services.databaseUrl, maxConnections: 2 });
});
afterAll(async () => {
  // A worker left frozen by a failed expectation would never hear SIGTERM.
  for (const process_ of running) if (process_.child.exitCode === null && process_.child.signalCode === null) thaw(process_);
  await Promise.all(running.map((process_) => stopGently(process_).catch(() => undefined)));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await db?.close();
});

type TCaught = Awaited<ReturnType<typeof learnerBeforeTheTest>> & { certificate: typeof certificates.$inferSelect; renderJobId: string };

/** A render takes about 100 ms: a kill at a guessed moment would mostly land before or after it. */
const TRIES = 3;

describe.runIf(services && pdftotext)('a worker killed with kill -9 during a certificate render', () => {
  it('leaves the job to the next worker, which stores one PDF and mails the learner once', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(smtp.close);
    const { redis, dataDir, portal, worker } = await startPlatform(services!.databaseUrl, { running, cleanups }, { SMTP_URL: smtp.url });
    const queue = new Redis(redis.url, { maxRetriesPerRequest: null });
    cleanups.push(() => queue.quit());
    const certificatesDir = path.join(dataDir, 'files', 'certificates');
    const storedEntries = async () => (await readdir(certificatesDir).catch(() => [] as string[])).sort();

    const first = worker();
    await eventually('the first worker ready', async () => first.log().includes('worker ready'));

    const certificateOf = async (userId: string) => (await db.db.select().from(certificates).where(eq(certificates.userId, userId)))[0];
    const renderRowsOf = (certificateId: string) =>
      db.db
        .select({ id: jobOutbox.id, status: jobOutbox.status })
        .from(jobOutbox)
        .where(and(eq(jobOutbox.name, 'render-certificate'), sql`${jobOutbox.payload}->>'certificateId' = ${certificateId}`));

    /**
     * A pass, and the worker frozen inside the render of its certificate: stopped (SIGSTOP) the
     * moment a job turns active, then let on about a millisecond at a time until the row holds the
     * PDF's name (the render has begun) while the certificate is not ready and nothing is being
     * written yet. When a step went past that point, the job is let finish and `missed` names its PDF.
     */
    async function passFrozenInRender(): Promise<{ caught: TCaught } | { missed: string }> {
      let armed = true;
      let woke!: () => void;
      let activated = new Promise<void>((resolve) => (woke = resolve));
      const watch = await onJobActive(redis.url, () => {
        if (!armed) return;
        armed = false;
        freeze(first);
        woke();
      });
      try {
        const passing = await learnerBeforeTheTest(portal.base, db.db);
        const submitted = await fetch(`${portal.base}/api/submitTest`, { method: 'POST', headers: authed(passing.token), body: JSON.stringify(passing.answer) });
        expect(submitted.status, JSON.stringify(await json(submitted))).toBe(201);
        const issued = (await certificateOf(passing.learner.id))!;
        const [renderJob] = await renderRowsOf(issued.id);
        // The frozen job must be this render (a mail of an earlier try may have turned active first).
        for (;;) {
          await activated;
          if ((await queue.lrange(queueKey('active'), 0, -1)).includes(renderJob!.id)) break;
          activated = new Promise<void>((resolve) => (woke = resolve));
          armed = true;
          thaw(first);
        }

        const deadline = Date.now() + 10_000;
        for (;;) {
          const row = (await certificateOf(passing.learner.id))!;
          // A partial file or the PDF itself: the render is over and the write begun.
          const written = (await storedEntries()).some((name) => name.startsWith('.') || name === row.pdfFile);
          if (row.status === 'ready' || written) break;
          if (row.pdfFile) return { caught: { ...passing, certificate: row, renderJobId: renderJob!.id } };
          if (Date.now() > deadline) throw new Error(`the render never claimed its file name; the worker said:\n${first.log().slice(-4000)}`);
          thaw(first);
          await sleep(1);
          freeze(first);
        }
        thaw(first);
        const done = await eventually('the render let go on', async () => {
          const row = await certificateOf(passing.learner.id);
          return row?.status === 'ready' ? row : undefined;
        });
        return { missed: done.pdfFile! };
      } finally {
        await watch.close();
      }
    }

    // Files of tries whose render got past the window before the kill: finished normally.
    const finishedBefore: string[] = [];
    let caught: TCaught | undefined;
    for (let attempt = 0; attempt < TRIES && !caught; attempt += 1) {
      const outcome = await passFrozenInRender();
      if ('missed' in outcome) finishedBefore.push(outcome.missed);
      else caught = outcome.caught;
    }
    if (!caught) throw new Error(`the render was never caught in progress in ${TRIES} tries: nothing was tested`);
    const { learner, course, token, certificate, renderJobId } = caught;

    killHard(first);
    await first.exited;
    // Killed mid-render: the name was claimed, nothing was stored under it, the job is unfinished.
    expect((await certificateOf(learner.id))!).toMatchObject({ status: 'pending', number: certificate.number, pdfFile: certificate.pdfFile });
    expect(existsSync(path.join(certificatesDir, certificate.pdfFile!))).toBe(false);
    expect(await renderRowsOf(certificate.id)).toEqual([{ id: renderJobId, status: 'pending' }]);
    expect(await queue.lrange(queueKey('active'), 0, -1)).toContain(renderJobId);

    // BullMQ hands the job of a worker that stopped renewing its lock to the next one (decision 024).
    const second = worker();
    const ready = await eventually('the certificate rendered by the next worker', async () => {
      const row = await certificateOf(learner.id);
      return row?.status === 'ready' ? row : undefined;
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}; the worker said:\n${second.log().slice(-4000)}`);
    });

    // One certificate, its number as the pass fixed it, under the name the killed run claimed.
    expect(await db.db.select({ id: certificates.id }).from(certificates).where(and(eq(certificates.userId, learner.id), eq(certificates.courseId, course.id)))).toHaveLength(1);
    expect(ready).toMatchObject({ id: certificate.id, number: certificate.number, pdfFile: certificate.pdfFile });
    // The job is recorded done just after the certificate is marked ready, and completed in BullMQ.
    await eventually('the render job completed', async () => (await queue.zscore(queueKey('completed'), renderJobId)) !== null, 10_000);
    expect(await renderRowsOf(certificate.id)).toEqual([{ id: renderJobId, status: 'done' }]);
    expect(await queue.zscore(queueKey('failed'), renderJobId)).toBeNull();

    // One output: the folder holds this certificate's PDF and the earlier tries' ones, and no
    // partial file (`.…part`) or second copy.
    expect(await storedEntries()).toEqual([...finishedBefore, ready.pdfFile!].sort());

    // One mail, telling the learner their certificate is ready.
    await smtp.waitFor(learner.email, 30_000);
    // Every job queued has run to its end: a second mail would have reached the server.
    await untilJobsSettled(redis.url);
    const mails = smtp.received.filter((mail) => mail.to.includes(learner.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(MESSAGES.certificate.readyMailSubject);
    expect(mails[0]!.text).toContain(certificate.number);

    // The learner finds it, and the PDF is whole: the stored bytes, readable, naming them and the number.
    const mine = await json(await fetch(`${portal.base}/api/certificate/${course.id}`, { headers: authed(token) }));
    expect(mine.data).toEqual({ pdfPath: { filename: ready.pdfFile } });
    const served = await fetch(`${portal.base}/certificates/${ready.pdfFile}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await served.arrayBuffer());
    expect(pdf.equals(await readFile(path.join(certificatesDir, ready.pdfFile!)))).toBe(true);
    const downloaded = path.join(dataDir, 'downloaded-certificate.pdf');
    await writeFile(downloaded, pdf);
    const text = spawnSync('pdftotext', ['-layout', downloaded, '-'], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(personName(learner));
    expect(text.stdout).toContain(certificate.number);
  }, 180_000);
});
