import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { detectFileKind, FILE_KINDS, SNIFF_BYTES, type TFileKind } from './file-kinds.ts';

/** Where each kind of upload lives; the names are the spec's folder names. */
export const FILE_AREAS = [
  'id_documents',
  'profile_pictures',
  'signatures',
  'courseImg',
  'trainingVideo',
  'certificates',
] as const;
export type TFileArea = (typeof FILE_AREAS)[number];

export type TStoredFile = {
  area: TFileArea;
  name: string;
  kind: TFileKind;
  bytes: number;
  /** The name the file had on the sender's device, when it came from an upload form. */
  originalName?: string;
};
export type TFileRules = { maxBytes: number; kinds: readonly TFileKind[]; tooLarge?: string; wrongType?: string };

const NAME = /^[0-9a-f-]{36}\.[a-z0-9]{2,4}$/;

export function isStoredName(name: string): boolean {
  return NAME.test(name);
}

/**
 * Files on local disk under DATA_DIR/files/<area>/ with generated names. A file is streamed to a
 * temporary name, its type decided from its first bytes and its size counted on the way, and it is
 * renamed only when complete and accepted: a refused or aborted upload leaves nothing behind.
 */
export function createFileStorage(root: string) {
  mkdirSync(root, { recursive: true });
  const areaDir = (area: TFileArea) => path.join(root, area);

  function absolutePath(area: TFileArea, name: string): string {
    if (!isStoredName(name)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
    return path.join(areaDir(area), name);
  }

  async function save(area: TFileArea, source: Readable, rules: TFileRules): Promise<TStoredFile> {
    await mkdir(areaDir(area), { recursive: true });
    const id = randomUUID();
    const temporary = path.join(areaDir(area), `.${id}.part`);
    let bytes = 0;
    let head = Buffer.alloc(0);
    let kind: TFileKind | undefined;

    const inspect = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > rules.maxBytes) {
          callback(new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge ?? MESSAGES.files.tooLarge));
          return;
        }
        if (kind === undefined && head.length < SNIFF_BYTES) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= SNIFF_BYTES) {
            kind = detectFileKind(head);
            if (!kind || !rules.kinds.includes(kind)) {
              callback(new AppError('UNSUPPORTED_MEDIA_TYPE', rules.wrongType ?? MESSAGES.files.wrongType));
              return;
            }
          }
        }
        callback(null, chunk);
      },
      flush(callback) {
        // A file shorter than the sniffing window is judged on what there is.
        if (kind === undefined) {
          kind = detectFileKind(head);
          if (bytes === 0) return callback(new AppError('BAD_REQUEST', MESSAGES.files.empty));
          if (!kind || !rules.kinds.includes(kind)) {
            return callback(new AppError('UNSUPPORTED_MEDIA_TYPE', rules.wrongType ?? MESSAGES.files.wrongType));
          }
        }
        callback();
      },
    });

    try {
      await pipeline(source, inspect, createWriteStream(temporary, { mode: 0o600 }));
      // The upload library marks a part cut at its own limit as truncated instead of failing.
      if ((source as Readable & { truncated?: boolean }).truncated) {
        throw new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge ?? MESSAGES.files.tooLarge);
      }
      const name = `${id}.${FILE_KINDS[kind!].ext}`;
      await rename(temporary, path.join(areaDir(area), name));
      return { area, name, kind: kind!, bytes };
    } catch (error) {
      await rm(temporary, { force: true });
      source.resume();
      throw error;
    }
  }

  /**
   * Writes a file the server made itself (a certificate) under a name the caller chose: to a
   * temporary name first, renamed when complete, so the name never holds half a file. Writing the
   * same name again replaces the file whole.
   */
  async function put(area: TFileArea, name: string, bytes: Uint8Array): Promise<void> {
    const target = absolutePath(area, name);
    await mkdir(areaDir(area), { recursive: true });
    const temporary = path.join(areaDir(area), `.${randomUUID()}.part`);
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** Removes a stored file; a file already gone is not an error. */
  async function remove(area: TFileArea, name: string): Promise<void> {
    if (!isStoredName(name)) return;
    await rm(path.join(areaDir(area), name), { force: true });
  }

  async function size(area: TFileArea, name: string): Promise<number | undefined> {
    try {
      return (await stat(absolutePath(area, name))).size;
    } catch {
      return undefined;
    }
  }

  return { root, areaDir, absolutePath, save, put, remove, size };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
