import path from 'node:path';
import { Piscina } from 'piscina';
import { PROJECT_ROOT } from './paths.ts';

/** The lowest CPU priority there is: such a thread runs on what every other thread leaves. */
export const LOWEST_PRIORITY = 19;

export type THashingTask = { kind: 'hash'; password: string } | { kind: 'verify'; hash: string; password: string };

/** What a hashing thread can tell about itself once started (for tests and logs). */
export type THashingThread = {
  /** The kernel's id for the thread (Linux), undefined where the platform has none to give. */
  readonly osThreadId: number | undefined;
  /** Its nice value as read back after lowering it; undefined if it could not be read. */
  readonly priority: number | undefined;
  /** Ends the thread as a crash would: a task on it is run again on a new one. */
  terminate(): Promise<number>;
};

/** Answered (as its code) when hashing cannot be done for now: the request may be tried again. */
export const HASHING_UNAVAILABLE = 'HASHING_UNAVAILABLE';

// The threads' program: the source under tsx and Vitest (Node strips its types), its bundle in dist/.
const PROGRAM = import.meta.url.endsWith('.ts') ? 'src/server/lib/hashing-worker.ts' : 'dist/server/lib/hashing-worker.js';

function unavailable(message: string, cause?: unknown) {
  return Object.assign(new Error(`password hashing is unavailable: ${message}`, { cause }), { code: HASHING_UNAVAILABLE });
}

/**
 * argon2 on a piscina pool whose threads run at the lowest CPU priority where the platform allows it
 * (Linux): the kernel gives the event loop, the database and everything else a core first, and
 * hashing runs on what is left. At most `size` tasks run at once, the others wait in order of
 * arrival; threads start on first use and stay. A task whose thread ends (a crash) is run once more
 * on a new one; a second end, or the pool closing, answers HASHING_UNAVAILABLE (a 503).
 */
export function createHashingThreads(options: { size: number; argon2Options: object; priority?: number }) {
  let pool: Piscina | undefined;
  let given = 0;
  const about = new Map<number, { osThreadId?: number; priority?: number }>();

  function open() {
    const opened = new Piscina({
      filename: path.join(PROJECT_ROOT, PROGRAM),
      minThreads: 0,
      maxThreads: options.size,
      idleTimeout: Infinity,
      niceIncrement: options.priority ?? LOWEST_PRIORITY,
      workerData: { argon2Options: options.argon2Options },
    });
    opened.on('message', (told: { threadId: number; osThreadId?: number; priority?: number }) => about.set(told.threadId, told));
    // A thread that ends with no task is replaced at the next one.
    opened.on('error', () => {});
    return opened;
  }

  async function attempt(on: Piscina, task: THashingTask, retries: number): Promise<{ value: string | boolean } | { refused: string }> {
    try {
      return await on.run(task);
    } catch (error) {
      if (on !== pool) throw unavailable('the server is stopping', error);
      if (retries === 0) throw unavailable('its thread ended twice on one task', error);
      return attempt(on, task, retries - 1);
    }
  }

  return {
    async run(task: THashingTask): Promise<string | boolean> {
      given += 1;
      try {
        const answer = await attempt((pool ??= open()), task, 1);
        if ('refused' in answer) throw new Error(answer.refused);
        return answer.value;
      } finally {
        given -= 1;
      }
    },
    /** Tasks running and waiting now. */
    get load() {
      const running = Math.min(given, options.size);
      return { running, waiting: given - running };
    },
    threads(): THashingThread[] {
      return (pool?.threads ?? []).map((worker) => {
        const told = about.get(worker.threadId);
        return { osThreadId: told?.osThreadId, priority: told?.priority, terminate: () => worker.terminate() };
      });
    },
    /** Ends every thread (a task still running on one fails); a task given afterwards starts new ones. */
    async close() {
      const closing = pool;
      pool = undefined;
      about.clear();
      await closing?.destroy();
    },
  };
}

export type HashingThreads = ReturnType<typeof createHashingThreads>;
