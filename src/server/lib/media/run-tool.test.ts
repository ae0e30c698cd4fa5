import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaError } from './media-error.ts';
import { findExecutable, runTool } from './run-tool.ts';

const quick = { niceness: 0, timeoutMs: 10_000 };

describe('findExecutable', () => {
  it('finds a command on PATH and takes a path as it is', async () => {
    expect(await findExecutable('ffmpeg')).toMatch(/\/ffmpeg$/);
    const sh = await findExecutable('sh');
    expect(await findExecutable(sh!)).toBe(sh);
  });

  it('answers undefined for what is not there or not executable', async () => {
    expect(await findExecutable('no-such-tool-here')).toBeUndefined();
    const dir = await mkdtemp(path.join(tmpdir(), 'media-run-'));
    const plain = path.join(dir, 'notes.txt');
    await writeFile(plain, 'not a program', { mode: 0o644 });
    expect(await findExecutable(plain)).toBeUndefined();
    await rm(dir, { recursive: true });
  });
});

describe('runTool', () => {
  it('answers the exit code, stdout and the end of stderr', async () => {
    const run = await runTool('ffmpeg', 'sh', ['-c', 'echo out; echo trouble >&2; exit 3'], { ...quick, keepStdoutBytes: 100 });
    expect(run).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'trouble' });
  });

  it('hands stdout over line by line', async () => {
    const lines: string[] = [];
    await runTool('ffmpeg', 'sh', ['-c', 'printf "a=1\\nb=2\\nc=3"'], { ...quick, onLine: (line) => lines.push(line) });
    expect(lines).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it.runIf(process.platform === 'linux')('runs the tool at the niceness asked for', async () => {
    const niceOf = async (niceness: number) => {
      const run = await runTool('ffmpeg', 'cat', ['/proc/self/stat'], { ...quick, niceness, keepStdoutBytes: 4096 });
      // Field 19 of /proc/<pid>/stat, counted after the command name in parentheses.
      return Number(run.stdout.slice(run.stdout.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const base = await niceOf(0);
    expect(await niceOf(10)).toBe(Math.min(19, base + 10));
  });

  it('says which tool is missing and how to fix it', async () => {
    const error = await runTool('ffprobe', '/opt/nowhere/ffprobe', [], quick).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'TOOL_MISSING', reason: 'ffprobe is not installed on the server' });
    expect((error as MediaError).detail).toContain('FFPROBE_PATH');
  });

  it('kills the tool when the time runs out', async () => {
    // The tool would run for a minute: answering at all, within the test's own timeout, is the
    // kill. How soon after the 100 ms is not this machine's to promise.
    const error = await runTool('ffmpeg', 'sleep', ['60'], { niceness: 0, timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMED_OUT', reason: 'processing took longer than 0 s', permanent: false });
  });

  it('kills the tool when the caller aborts, and refuses to start after an abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(runTool('ffmpeg', 'sleep', ['5'], { ...quick, signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(runTool('ffmpeg', 'sleep', ['5'], { ...quick, signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('stops a tool that writes more than it may', async () => {
    const run = runTool('ffprobe', 'yes', [], { ...quick, keepStdoutBytes: 10_000 });
    await expect(run).rejects.toMatchObject({ code: 'UNPLAYABLE' });
  });
});
