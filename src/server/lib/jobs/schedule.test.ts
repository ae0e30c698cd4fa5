import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskRunner, startSchedule, type TScheduledTask, type TTaskOccasion } from './schedule.ts';

const logger = pino({ level: 'silent' });

/** A promise and the function that settles it: a task's run held open until the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A task that records each run's occasion; `hold` keeps every run going until its gate opens. */
function recordingTask(overrides: Partial<TScheduledTask<unknown>> = {}, hold?: Promise<void>) {
  const runs: TTaskOccasion[] = [];
  let ended = 0;
  const task: TScheduledTask<unknown> = {
    name: 'count',
    everyMs: 1000,
    runAtStart: false,
    run: async (_ctx, occasion) => {
      runs.push(occasion);
      await hold;
      ended += 1;
    },
    ...overrides,
  };
  return { task, runs, ended: () => ended };
}

describe('the in-process schedule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a task once per period, and at start only when the task says so', async () => {
    const every = recordingTask({ name: 'every' });
    const atStart = recordingTask({ name: 'at-start', runAtStart: true, everyMs: 5000 });
    const schedule = startSchedule([every.task, atStart.task], undefined, logger);

    await vi.advanceTimersByTimeAsync(0);
    expect(every.runs).toEqual([]);
    expect(atStart.runs).toEqual([{ atStart: true }]);

    await vi.advanceTimersByTimeAsync(999);
    expect(every.runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(every.runs).toEqual([{ atStart: false }]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(every.runs).toHaveLength(5);
    expect(atStart.runs).toEqual([{ atStart: true }, { atStart: false }]);

    await schedule.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(every.runs).toHaveLength(5);
    expect(atStart.runs).toHaveLength(2);
  });

  it('never starts a run of a task while its last run is going; the first period after it ends runs it', async () => {
    const slow = gate();
    const task = recordingTask({ runAtStart: true }, slow.opened);
    const schedule = startSchedule([task.task], undefined, logger);

    // Three periods pass while the start's run is still going: none of them starts another.
    await vi.advanceTimersByTimeAsync(3500);
    expect(task.runs).toEqual([{ atStart: true }]);
    slow.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(task.ended()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(task.runs).toEqual([{ atStart: true }, { atStart: false }]);
    await schedule.stop();
  });

  it('logs a failed run and runs the task again on its next period', async () => {
    let calls = 0;
    const warn = vi.spyOn(logger, 'warn');
    const schedule = startSchedule(
      [
        {
          name: 'flaky',
          everyMs: 1000,
          runAtStart: true,
          run: async () => {
            calls += 1;
            if (calls === 1) throw new Error('storage unreachable');
          },
        },
      ],
      undefined,
      logger,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ task: 'flaky', err: expect.objectContaining({ message: 'storage unreachable' }) }),
      'scheduled task failed',
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    await schedule.stop();
  });

  it('stop() waits for the run under way to end, and starts none after', async () => {
    const slow = gate();
    const task = recordingTask({ runAtStart: true }, slow.opened);
    const schedule = startSchedule([task.task], undefined, logger);
    await vi.advanceTimersByTimeAsync(0);

    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    expect(task.runs).toHaveLength(1);

    slow.open();
    await stopping;
    expect(task.ended()).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(task.runs).toHaveLength(1);
  });

  it('keeps no process alive: its timers are unref’d', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const schedule = startSchedule([recordingTask().task], undefined, logger);
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    setIntervalSpy.mockRestore();
    expect(timer.hasRef()).toBe(false);
    await schedule.stop();
  });
});

describe('the task runner', () => {
  it('answers skipped for a run asked while one of the same task is going, and runs other tasks meanwhile', async () => {
    const slow = gate();
    const sweep = recordingTask({ name: 'sweep' }, slow.opened);
    const reconcile = recordingTask({ name: 'reconcile' });
    const runner = createTaskRunner([sweep.task, reconcile.task], undefined, logger);

    const first = runner.run('sweep', { atStart: false });
    expect(await runner.run('sweep', { atStart: false })).toBe('skipped');
    expect(await runner.run('reconcile', { atStart: false })).toBe('ran');
    expect(await runner.run('unknown', { atStart: false })).toBe('skipped');
    slow.open();
    expect(await first).toBe('ran');
    expect(sweep.runs).toHaveLength(1);
    expect(await runner.run('sweep', { atStart: false })).toBe('ran');
  });
});
