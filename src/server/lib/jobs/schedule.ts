import type { Logger } from 'pino';

/** Why a task runs: its period came round, or the process that runs the schedule just started. */
export type TTaskOccasion = { atStart: boolean };

/**
 * Work that runs on a schedule rather than because a change asked for it (the file sweep, the
 * outbox's reconciler). Declared once, in src/server/jobs.ts; run by the in-process schedule below
 * on the embedded set-up and by BullMQ job schedulers on Redis (scheduled-queue.ts).
 */
export type TScheduledTask<C> = {
  /** Unique; on Redis also the job scheduler's id and the name of the jobs it makes. */
  name: string;
  /** How often it runs. A run still going when its next period comes is not doubled. */
  everyMs: number;
  /** Also run once as the process that runs the schedule starts (before a whole period passes). */
  runAtStart: boolean;
  /** Throws when the run failed; the failure is logged and the next period runs the task again. */
  run: (ctx: C, occasion: TTaskOccasion) => Promise<unknown>;
};

/** What asking for a run came to: done, failed (logged), or not started (one is under way, or stopping). */
export type TRunOutcome = 'ran' | 'failed' | 'skipped';

export type TaskRunner = {
  /** Runs the named task now, unless a run of it is under way here or the runner is stopping. */
  run(name: string, occasion: TTaskOccasion): Promise<TRunOutcome>;
  /** Starts no more runs and resolves once the runs under way have ended. */
  stop(): Promise<void>;
};

/**
 * Runs named tasks, never two runs of one task at once in this process: a run asked for while one
 * is going is skipped, not queued (the next period catches up, and a slow sweep must not pile up).
 */
export function createTaskRunner<C>(tasks: ReadonlyArray<TScheduledTask<C>>, ctx: C, logger: Logger): TaskRunner {
  const byName = new Map(tasks.map((task) => [task.name, task]));
  const running = new Map<string, Promise<TRunOutcome>>();
  let stopping = false;
  return {
    run(name, occasion) {
      const task = byName.get(name);
      if (!task) {
        logger.warn({ task: name }, 'no scheduled task of that name; skipped');
        return Promise.resolve('skipped');
      }
      if (stopping || running.has(name)) return Promise.resolve('skipped');
      const started = Date.now();
      const run = Promise.resolve()
        .then(() => task.run(ctx, occasion))
        .then(
          (): TRunOutcome => {
            logger.debug({ task: name, ms: Date.now() - started, ...occasion }, 'scheduled task done');
            return 'ran';
          },
          (err: unknown): TRunOutcome => {
            logger.warn({ err, task: name, ...occasion }, 'scheduled task failed');
            return 'failed';
          },
        )
        .finally(() => running.delete(name));
      running.set(name, run);
      return run;
    },
    async stop() {
      stopping = true;
      await Promise.all(running.values());
    },
  };
}

export type Schedule = {
  /** Clears the timers, then waits for the runs under way, so a shutdown lets them finish. */
  stop(): Promise<void>;
};

/**
 * The schedule of a process that runs its tasks itself (the embedded set-up, with no Redis): each
 * task every `everyMs` on a timer that keeps no process alive, those that say so once now.
 */
export function startSchedule<C>(tasks: ReadonlyArray<TScheduledTask<C>>, ctx: C, logger: Logger): Schedule {
  const runner = createTaskRunner(tasks, ctx, logger);
  const timers = tasks.map((task) => {
    const timer = setInterval(() => void runner.run(task.name, { atStart: false }), task.everyMs);
    timer.unref();
    return timer;
  });
  for (const task of tasks) if (task.runAtStart) void runner.run(task.name, { atStart: true });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await runner.stop();
    },
  };
}
