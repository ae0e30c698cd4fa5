import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { commitDurably, flush } from './durable.ts';
import { isStoredName, type FileStorageDriver, type TFileArea, type TStorageEntry } from './storage.ts';

/** What an upload in progress is written to; the sweep knows the name. */
export const PARTIAL_NAME = /^\.[0-9a-f-]{36}\.part$/;

/**
 * Files on this machine's disk under `root/<area>/` (DATA_DIR/files). A new file is written to a
 * `.<uuid>.part` name beside its area's files and renamed when complete, so it appears whole or not
 * at all, and flushed to the disk on both sides of the rename (`commitDurably`). Tools that need a
 * path (ffmpeg, sharp) use the stored file where it is, and their outputs are flushed when kept.
 */
export function createLocalStorage(root: string): FileStorageDriver & { root: string } {
  mkdirSync(root, { recursive: true });
  const areaDir = (area: TFileArea) => path.join(root, area);

  function filePath(area: TFileArea, name: string): string {
    if (!isStoredName(name)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
    return path.join(areaDir(area), name);
  }

  return {
    kind: 'local',
    location: root,
    root,

    sink(area, name) {
      const temporary = path.join(areaDir(area), `.${randomUUID()}.part`);
      mkdirSync(areaDir(area), { recursive: true });
      const stream = createWriteStream(temporary, { mode: 0o600 });
      return {
        stream,
        commit: () => commitDurably(temporary, areaDir(area), name()),
        async discard() {
          // A stream cut short may still be opening its file: closed first, or its open could
          // create the file again after the removal and leave it behind.
          if (!stream.closed) {
            await new Promise((resolve) => {
              stream.once('close', resolve);
              stream.destroy();
            });
          }
          await rm(temporary, { force: true });
        },
      };
    },

    async stat(area, name) {
      const info = await stat(filePath(area, name)).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      // The validator the static file server gave them before: size and time, weak.
      return { bytes: info.size, modifiedAt: info.mtime, etag: `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"` };
    },

    async read(area, name, range) {
      const stream = createReadStream(filePath(area, name), range ? { start: range.start, end: range.end } : {});
      // Opened before it is handed over, so a missing file is an answer and not a broken stream.
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (error) => reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new AppError('NOT_FOUND', MESSAGES.common.notFound) : error));
      });
      return stream;
    },

    async remove(area, name) {
      if (!isStoredName(name)) return;
      await rm(path.join(areaDir(area), name), { force: true });
    },

    async *entries(area) {
      let dir;
      try {
        dir = await opendir(areaDir(area));
      } catch {
        return;
      }
      for await (const entry of dir) {
        if (!entry.isFile()) continue;
        const modifiedMs = await stat(path.join(areaDir(area), entry.name)).then((info) => info.mtimeMs, () => Number.POSITIVE_INFINITY);
        yield { name: entry.name, modifiedMs, partial: PARTIAL_NAME.test(entry.name) } satisfies TStorageEntry;
      }
    },

    async removeEntry(area, entry) {
      if (!entry.partial && !isStoredName(entry.name)) return;
      if (entry.partial && !PARTIAL_NAME.test(entry.name)) return;
      await rm(path.join(areaDir(area), entry.name), { force: true });
    },

    async localCopy(area, name) {
      return { path: filePath(area, name), release: async () => {} };
    },

    async outputFolder(area) {
      // Tools write temporary names beside the stored files and rename them when done; keeping
      // them flushes their bytes and their names to the disk before the caller records them.
      const dir = areaDir(area);
      await mkdir(dir, { recursive: true });
      return {
        dir,
        async keep(names) {
          for (const name of names) await flush(filePath(area, name));
          await flush(dir);
        },
        release: async () => {},
      };
    },

    async close() {},
  };
}
