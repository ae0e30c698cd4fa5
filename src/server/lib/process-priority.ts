import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers this whole process to `niceness` and answers the value read back, or undefined when the
 * system refused. On Linux a nice value belongs to each thread, so every thread the process has
 * (/proc/self/task: the event loop, V8's and libuv's) is set; a thread or a child process started
 * later takes the value of the thread that starts it. Elsewhere the process's own value is set.
 */
export function lowerProcessPriority(niceness: number): number | undefined {
  try {
    if (process.platform === 'linux') {
      for (const threadId of readdirSync('/proc/self/task')) setPriority(Number(threadId), niceness);
    } else {
      setPriority(niceness);
    }
    return getPriority();
  } catch {
    return undefined;
  }
}
