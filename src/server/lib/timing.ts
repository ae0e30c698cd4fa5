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
    // The global timer (not node:timers/promises), so a test's fake clock can drive it.
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }
}
