import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openScratch } from './scratch.ts';

const host = os.hostname().replace(/[^\w.]/g, '_');
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe("a process's scratch folder", () => {
  let scratchDir: string;
  let running: ReturnType<typeof spawn> | undefined;
  beforeEach(async () => {
    scratchDir = await mkdtemp(path.join(tmpdir(), 'scratch-'));
  });
  afterEach(async () => {
    running?.kill();
    await rm(scratchDir, { recursive: true, force: true });
  });

  /** A folder as a process leaves it mid-transcode: a copy of the source inside. */
  async function leftBy(name: string) {
    await mkdir(path.join(scratchDir, name, 'copy-abc'), { recursive: true });
    await writeFile(path.join(scratchDir, name, 'copy-abc', 'source.mp4'), 'video bytes');
  }

  it("removes what processes of this machine left when they died, and nothing of a running one's or another machine's", async () => {
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    running = spawn('sleep', ['30']);
    await once(running, 'spawn');
    const live = running.pid!;

    await leftBy(`${host}-${ended.pid}-${startOf(live)}`); // its process is gone
    await leftBy(`${host}-${live}-1`); // an earlier process with the id a running one has now
    await leftBy(`${host}-${live}-${startOf(live)}`); // a running process's
    await leftBy(`other-host-${ended.pid}-1`); // another machine's, on a shared disk
    await writeFile(path.join(scratchDir, 'notes.txt'), 'not a folder of ours');

    const own = await openScratch(scratchDir);

    expect(path.basename(own)).toBe(`${host}-${process.pid}-${startOf(process.pid)}`);
    expect((await readdir(scratchDir)).sort()).toEqual(
      [path.basename(own), `${host}-${live}-${startOf(live)}`, `other-host-${ended.pid}-1`, 'notes.txt'].sort(),
    );
    expect(await readdir(path.join(scratchDir, `${host}-${live}-${startOf(live)}`, 'copy-abc'))).toEqual(['source.mp4']);
  });

  it('is opened again by the same process without losing what it holds', async () => {
    const own = await openScratch(scratchDir);
    await writeFile(path.join(own, 'in-use.mp4'), 'video bytes');
    expect(await openScratch(scratchDir)).toBe(own);
    expect(await readdir(own)).toEqual(['in-use.mp4']);
  });
});
