import { randomUUID } from 'node:crypto';
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * A power cut cannot be staged here, so this test watches the file system calls themselves: the
 * file's bytes are flushed before its name appears, and the folder's entry before commit resolves
 * (a 2xx means committed, including the file). Every call still goes to the real disk.
 */
const calls: string[] = [];
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      const target = String(args[0]);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        calls.push(`sync ${path.basename(target).endsWith('.part') ? 'file' : path.basename(target)}`);
        return sync();
      };
      return handle;
    },
    rename: async (from: string, to: string) => {
      calls.push(`rename to ${path.basename(to)}`);
      return real.rename(from, to);
    },
  };
});

/** How long opening a new file takes (a slow disk), when a test says so. */
let openDelayMs = 0;
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const realOpen = real.open as (...args: unknown[]) => void;
  const open = (...args: unknown[]) => setTimeout(() => realOpen(...args), openDelayMs);
  return {
    ...real,
    createWriteStream: (file: string, options: Record<string, unknown>) =>
      real.createWriteStream(file, { ...options, fs: { open, write: real.write, writev: real.writev, close: real.close } }),
  };
});

const { createLocalStorage } = await import('./local-storage.ts');

describe('local storage: a committed file survives a power cut', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'local-storage-'));
    calls.length = 0;
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** A new identity document named `name`, its bytes written and the stream closed. */
  async function written(name: string, text: string) {
    const sink = createLocalStorage(root).sink('id_documents', () => name);
    sink.stream.end(Buffer.from(text));
    await finished(sink.stream);
    return sink;
  }

  it('flushes the bytes, then renames, then flushes the folder, before commit resolves', async () => {
    await (await written('passport.pdf', '%PDF-1.7 passport')).commit();

    expect(calls).toEqual(['sync file', 'rename to passport.pdf', 'sync id_documents']);
    expect(await readFile(path.join(root, 'id_documents', 'passport.pdf'), 'utf8')).toBe('%PDF-1.7 passport');
    expect(await readdir(path.join(root, 'id_documents'))).toEqual(['passport.pdf']);
  });

  it("a tool's kept outputs are flushed, then their folder, before keep resolves", async () => {
    const storage = createLocalStorage(root);
    const output = await storage.outputFolder('trainingVideo');
    const { writeFile, rename } = await import('node:fs/promises');
    const names = [`${randomUUID()}.mp4`, `${randomUUID()}.jpg`];
    // As the transcoder leaves them: written under temporary names, renamed when all are good.
    for (const name of names) {
      await writeFile(path.join(output.dir, `.${name}.tmp`), name);
      await rename(path.join(output.dir, `.${name}.tmp`), path.join(output.dir, name));
    }
    calls.length = 0;

    await output.keep(names);

    expect(calls).toEqual([`sync ${names[0]}`, `sync ${names[1]}`, 'sync trainingVideo']);
    expect(await readFile(path.join(root, 'trainingVideo', names[1]!), 'utf8')).toBe(names[1]);
  });

  it('a file discarded while it is still being opened is not left behind', async () => {
    // As when an upload is refused on its first bytes, before the disk has opened its file.
    openDelayMs = 50;
    try {
      const sink = createLocalStorage(root).sink('courseImg', () => 'never.webp');
      sink.stream.destroy();
      await sink.discard();

      expect(sink.stream.closed).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2 * openDelayMs));
      expect(await readdir(path.join(root, 'courseImg'))).toEqual([]);
    } finally {
      openDelayMs = 0;
    }
  });

  it('a discarded file is neither flushed nor named', async () => {
    await (await written('never.pdf', 'half')).discard();

    expect(calls).toEqual([]);
    expect(await readdir(path.join(root, 'id_documents'))).toEqual([]);
  });
});
