import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A process start time this machine cannot tell (no /proc): the process id alone decides. */
const UNKNOWN_START = 'na';
const FOLDER = /^(.+)-(\d+)-(\w+)$/;

/** When process `pid` started, in clock ticks since the machine booted (Linux's /proc), if known. */
function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name (the second field) may hold spaces and brackets: count after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that made a folder still runs: the same id and the same start time. */
function isRunning(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return started === UNKNOWN_START || startTicks(pid) === started;
}

/**
 * This process's folder under `scratchDir`, where tools get copies of stored files (a video's copy
 * can be gigabytes): `<host>-<pid>-<start time>`. Opening it removes the folders that processes of
 * this machine left when they died without cleaning up (kill -9, a power cut): a folder whose
 * process no longer runs, or whose id now belongs to a process started later. Folders of other
 * machines sharing the disk, and of processes still running, are left alone.
 */
export async function openScratch(scratchDir: string): Promise<string> {
  const host = os.hostname().replace(/[^\w.]/g, '_');
  const own = path.join(scratchDir, `${host}-${process.pid}-${startTicks(process.pid) ?? UNKNOWN_START}`);
  await mkdir(own, { recursive: true });
  for (const entry of await readdir(scratchDir, { withFileTypes: true })) {
    const match = entry.isDirectory() ? FOLDER.exec(entry.name) : null;
    if (!match || match[1] !== host || isRunning(Number(match[2]), match[3]!)) continue;
    await rm(path.join(scratchDir, entry.name), { recursive: true, force: true });
  }
  return own;
}
