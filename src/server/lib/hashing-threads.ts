import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { concurrencyLimit } from './concurrency.ts';

/** The lowest CPU priority there is: such a thread runs on what every other thread leaves. */
export const LOWEST_PRIORITY = 19;

export type THashingTask = { kind: 'hash'; password: string } | { kind: 'verify'; hash: string; password: string };

/** What a hashing thread can tell about itself once started (for tests and logs). */
export type THashingThread = {
  /** The kernel's id for the thread (Linux), undefined where the platform has none to give. */
  readonly osThreadId: number | undefined;
  /** Its nice value as read back after lowering it; undefined if it could not be set. */
  readonly priority: number | undefined;
  /** Ends the thread as a crash would: a task on it is run again on a new one. */
  terminate(): Promise<number>;
};

/** Answered (as its code) when hashing cannot be done for now: the request may be tried again. */
export const HASHING_UNAVAILABLE = 'HASHING_UNAVAILABLE';

/**
 * The thread's whole program. It is handed to the Worker as source, not as a file, so it runs the
 * same whether the server runs from src/ (tsx, Vitest) or from the bundle in dist/, with no build
 * step of its own; argon2 is required by the absolute path the server resolved.
 *
 * /proc/thread-self names the calling thread's /proc/<pid>/task/<tid>: its id, which
 * setpriority() takes to set the nice value of that one thread on Linux (nice is per thread
 * there). Elsewhere the priority stays as it is and the pool is sized for that.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { getPriority, setPriority } = require('node:os');
const { hashSync, verifySync } = require(workerData.argon2);

let osThreadId;
let priority;
if (process.platform === 'linux') {
  try {
    osThreadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(osThreadId, workerData.priority);
    priority = getPriority(osThreadId);
  } catch {}
}
parentPort.postMessage({ started: true, osThreadId, priority });

parentPort.on('message', ({ id, task }) => {
  try {
    const value = task.kind === 'hash' ? hashSync(task.password, workerData.options) : verifySync(task.hash, task.password);
    parentPort.postMessage({ id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
`;

type TReply = { started: true; osThreadId?: number; priority?: number } | { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };

class ThreadEnded extends Error {}

function unavailable(message: string, cause?: unknown) {
  return Object.assign(new Error(`password hashing is unavailable: ${message}`, { cause }), { code: HASHING_UNAVAILABLE });
}

/**
 * argon2 on threads of their own, each at the lowest CPU priority where the platform allows it
 * (Linux): the kernel then gives the event loop, the database and everything else a core first, and
 * hashing runs on what is left, so a burst of sign-ups uses idle cores without slowing the
 * requests that hash nothing. At most `size` tasks run at once; the others wait their turn in
 * order of arrival. Threads start on first use, one per task running, up to `size`; one that ends
 * (a crash) is replaced, and the task it was running is run again once on the new thread.
 */
export function createHashingThreads(options: { size: number; argon2Options: object; priority?: number }) {
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const limit = concurrencyLimit(options.size);
  const idle: HashingThread[] = [];
  const threads = new Set<HashingThread>();

  function startThread() {
    const thread = hashingThread({ argon2, options: options.argon2Options, priority: options.priority ?? LOWEST_PRIORITY }, () => {
      threads.delete(thread);
      const at = idle.indexOf(thread);
      if (at >= 0) idle.splice(at, 1);
    });
    threads.add(thread);
    return thread;
  }

  async function runOnIdleThread(task: THashingTask) {
    // The limit keeps the tasks running to at most `size`, so a thread is idle or may be started.
    const thread = idle.pop() ?? startThread();
    try {
      return await thread.run(task);
    } finally {
      // Back to work, unless it ended meanwhile (then it was taken out of the pool).
      if (threads.has(thread)) idle.push(thread);
    }
  }

  return {
    run(task: THashingTask): Promise<string | boolean> {
      return limit.run(async () => {
        try {
          return await runOnIdleThread(task);
        } catch (error) {
          if (!(error instanceof ThreadEnded)) throw error;
          try {
            return await runOnIdleThread(task);
          } catch (again) {
            throw again instanceof ThreadEnded ? unavailable('its thread ended twice on one task', again) : again;
          }
        }
      });
    },
    /** Tasks running and waiting now. */
    get load() {
      return limit.load;
    },
    threads(): THashingThread[] {
      return [...threads].map((thread) => thread.info);
    },
    /** Ends every thread (a task still running on one fails); a task given afterwards starts new ones. */
    async close() {
      const closing = [...threads];
      threads.clear();
      idle.length = 0;
      await Promise.all(closing.map((thread) => thread.close()));
    },
  };
}

export type HashingThreads = ReturnType<typeof createHashingThreads>;

type HashingThread = ReturnType<typeof hashingThread>;

function hashingThread(workerData: { argon2: string; options: object; priority: number }, onEnd: () => void) {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData });
  // An idle thread does not keep the process alive; one running a task does, until it answers.
  worker.unref();
  let current: { id: number; resolve(value: string | boolean): void; reject(error: Error): void } | undefined;
  let nextId = 0;
  let osThreadId: number | undefined;
  let priority: number | undefined;
  let closing = false;

  worker.on('message', (reply: TReply) => {
    if ('started' in reply) {
      osThreadId = reply.osThreadId;
      priority = reply.priority;
      return;
    }
    if (!current || reply.id !== current.id) return;
    const { resolve, reject } = current;
    current = undefined;
    worker.unref();
    if (reply.ok) resolve(reply.value);
    else reject(new Error(reply.message));
  });
  // An uncaught error ends the thread: 'exit' follows, and settles the task.
  worker.on('error', () => {});
  worker.on('exit', (exitCode) => {
    onEnd();
    current?.reject(closing ? unavailable('the server is stopping') : new ThreadEnded(`the hashing thread ended with code ${exitCode}`));
    current = undefined;
  });

  return {
    run(task: THashingTask) {
      return new Promise<string | boolean>((resolve, reject) => {
        current = { id: (nextId += 1), resolve, reject };
        worker.ref();
        worker.postMessage({ id: current.id, task });
      });
    },
    async close() {
      closing = true;
      await worker.terminate();
    },
    info: {
      get osThreadId() {
        return osThreadId;
      },
      get priority() {
        return priority;
      },
      terminate: () => worker.terminate(),
    } satisfies THashingThread,
  };
}
