/**
 * At most `limit` of the calls run at once; the others wait their turn in order of arrival.
 * Used where work competes for the machine's cores (password hashing), so a burst of it leaves
 * the rest of the server room to answer.
 */
export function concurrencyLimit(limit: number) {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a whole number ≥ 1, got ${limit}`);
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next();
    }
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    /** Calls running and waiting now (for tests and logs). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
