import { open, rename } from 'node:fs/promises';
import path from 'node:path';

/** Flushes a file or a folder's entries to the disk (fsync). */
export async function flush(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Gives a complete file its name for good: its bytes are on the disk before the name points at
 * them, and the name is on the disk before the caller answers 2xx. Without the two flushes a power
 * cut after the answer could leave the database naming an empty or missing file.
 */
export async function commitDurably(temporary: string, dir: string, name: string): Promise<void> {
  await flush(temporary);
  await rename(temporary, path.join(dir, name));
  await flush(dir);
}
