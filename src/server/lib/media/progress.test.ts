import { describe, expect, it } from 'vitest';
import { createProgressReporter } from './progress.ts';

function clocked(durationSeconds: number) {
  let now = 0;
  const seen: number[] = [];
  const reporter = createProgressReporter(durationSeconds, (percent) => void seen.push(percent), { intervalMs: 250, now: () => now });
  const at = (ms: number, outSeconds: number | string) => {
    now = ms;
    reporter.readLine(`out_time_us=${typeof outSeconds === 'number' ? Math.round(outSeconds * 1e6) : outSeconds}`);
  };
  return { seen, at, reporter };
}

describe('createProgressReporter', () => {
  it('reports whole percentages of the duration, rising only, and 100 only at the end', () => {
    const { seen, at, reporter } = clocked(10);
    at(0, 0);
    at(300, 2.55);
    at(600, 2.0);
    at(900, 10.4);
    at(1200, 'N/A');
    reporter.finish();
    reporter.finish();
    expect(seen).toEqual([0, 25, 99, 100]);
  });

  it('reports at most once per interval however often ffmpeg writes', () => {
    const { seen, at } = clocked(100);
    for (let ms = 0; ms <= 1000; ms += 10) at(ms, ms / 10);
    expect(seen).toEqual([0, 25, 50, 75, 99]);
  });

  it('ignores the other progress keys and partial lines', () => {
    const { seen, reporter } = clocked(10);
    for (const line of ['frame=12', 'out_time_ms=5000000', 'out_time=00:00:05.000000', 'progress=continue', 'out_time_us=']) {
      reporter.readLine(line);
    }
    expect(seen).toEqual([]);
  });

  it('carries on when the listener throws or rejects', async () => {
    let calls = 0;
    const failing = createProgressReporter(10, () => {
      calls += 1;
      throw new Error('progress store down');
    }, { intervalMs: 0 });
    const rejecting = createProgressReporter(10, () => Promise.reject(new Error('progress store down')), { intervalMs: 0 });
    failing.readLine('out_time_us=1000000');
    failing.finish();
    rejecting.readLine('out_time_us=1000000');
    rejecting.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(2);
  });
});
