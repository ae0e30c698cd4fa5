import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority } from 'node:os';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type * as Argon2 from '@node-rs/argon2';
import type { THashingTask } from './hashing-threads.ts';

/**
 * A hashing thread's program (piscina loads it on each thread). Piscina has already lowered this
 * thread's priority (niceIncrement); /proc/thread-self names the kernel's id for the thread, so the
 * value can be read back and told to the pool (for tests and logs).
 */
const { hashSync, verifySync } = createRequire(import.meta.url)('@node-rs/argon2') as typeof Argon2;

let osThreadId: number | undefined;
let priority: number | undefined;
try {
  osThreadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  priority = getPriority(osThreadId);
} catch {
  // Not Linux: the thread has no id of its own to read a priority by.
}
parentPort?.postMessage({ threadId, osThreadId, priority });

/** argon2 refusing a value is answered, not thrown: a task that throws is taken for a failed thread. */
export default function run(task: THashingTask): { value: string | boolean } | { refused: string } {
  try {
    return { value: task.kind === 'hash' ? hashSync(task.password, workerData.argon2Options) : verifySync(task.hash, task.password) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}
