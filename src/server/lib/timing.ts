import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and answers no sooner than `ms` after it started, whether it succeeded or failed,
 * so how long an answer took says nothing about which path the work took.
 */
export async function atLeast<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    const left = ms - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
}
