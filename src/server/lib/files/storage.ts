import { randomUUID } from 'node:crypto';
import { Readable, Transform, type Writable } from 'node:stream';
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

/** What serving a file needs to know before sending a byte of it. */
export type TStoredObjectInfo = {
  bytes: number;
  modifiedAt: Date;
  /** A validator for conditional and Range requests (`"…"`, or `W/"…"` when weak). */
  etag: string;
};

/** One thing the sweep may look at: a stored file, or what an unfinished upload left. */
export type TStorageEntry = {
  name: string;
  modifiedMs: number;
  /** An upload that never finished (a `.part` file on disk, an unfinished multipart upload on S3). */
  partial: boolean;
  /** The driver's own handle on it (the multipart upload's id on S3). */
  handle?: string;
};

/** A new file being written: visible under its name only after `commit`. */
export type TStorageSink = {
  stream: Writable;
  /** Makes the written file visible under its name (call after `stream` finished). */
  commit(): Promise<void>;
  /** Removes whatever was written; safe to call at any point, and more than once. */
  discard(): Promise<void>;
};

/** A stored file as a file on this machine's disk, for tools that need a path (ffmpeg, sharp). */
export type TLocalCopy = { path: string; release(): Promise<void> };

/** A folder a tool writes its outputs into, and the way to store them under the names it chose. */
export type TOutputFolder = {
  dir: string;
  /** Stores the named files of `dir` in the area, all or none. */
  keep(names: readonly string[]): Promise<void>;
  /** Removes what is left of the folder (nothing on the local disk, where the files already are). */
  release(): Promise<void>;
};

/**
 * Where stored files live: the local disk (the default) or an S3-compatible bucket (STORAGE_URL).
 * Every upload, read, signed-link answer, deletion and sweep goes through one of these; names are
 * generated (isStoredName) and never reused, so a stored file never changes.
 */
export type FileStorageDriver = {
  readonly kind: 'local' | 's3';
  /** The folder or the bucket, for logs. */
  readonly location: string;
  /** A sink for a new file; `name()` is asked once the first bytes are written, or at commit. */
  sink(area: TFileArea, name: () => string): TStorageSink;
  /** Size, time and validator of a stored file; undefined when there is none. */
  stat(area: TFileArea, name: string): Promise<TStoredObjectInfo | undefined>;
  /** The file's bytes, or those from `start` to `end` included. */
  read(area: TFileArea, name: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Removes a stored file; a file already gone is not an error. */
  remove(area: TFileArea, name: string): Promise<void>;
  /** Every file and unfinished upload of an area, for the sweep. */
  entries(area: TFileArea): AsyncIterable<TStorageEntry>;
  removeEntry(area: TFileArea, entry: TStorageEntry): Promise<void>;
  localCopy(area: TFileArea, name: string): Promise<TLocalCopy>;
  outputFolder(area: TFileArea): Promise<TOutputFolder>;
  close(): Promise<void>;
};

export type FileStorage = FileStorageDriver & {
  /**
   * Stores an upload under a generated name. The file's type is decided from its first bytes and
   * its size counted on the way; nothing is written before its type is accepted, and it appears
   * under its name only when complete and accepted: a refused or aborted upload leaves nothing.
   */
  save(area: TFileArea, source: Readable, rules: TFileRules): Promise<TStoredFile>;
  /** A file the server made (a certificate's PDF) under the caller's name, replaced whole if it exists. */
  put(area: TFileArea, name: string, bytes: Uint8Array): Promise<void>;
  size(area: TFileArea, name: string): Promise<number | undefined>;
  /**
   * Set when the nginx in front of the portal sends stored files (STREAM_DELIVERY=x-accel, files on
   * the local disk): the internal address it serves `area/name` at (deploy/nginx.conf).
   */
  internalRedirect?(area: TFileArea, name: string): string;
};

/** Checks size and type as the bytes pass, holding them back until the type is known. */
function inspector(rules: TFileRules) {
  const state: { bytes: number; kind?: TFileKind } = { bytes: 0 };
  let held: Buffer[] = [];
  let heldBytes = 0;
  const wrongType = () => new AppError('UNSUPPORTED_MEDIA_TYPE', rules.wrongType ?? MESSAGES.files.wrongType);
  const decide = (stream: Transform): AppError | undefined => {
    const head = Buffer.concat(held);
    const kind = detectFileKind(head);
    if (!kind || !rules.kinds.includes(kind)) return wrongType();
    state.kind = kind;
    stream.push(head);
    held = [];
    return undefined;
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      state.bytes += chunk.length;
      if (state.bytes > rules.maxBytes) {
        callback(new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge ?? MESSAGES.files.tooLarge));
        return;
      }
      if (state.kind !== undefined) {
        callback(null, chunk);
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      callback(heldBytes >= SNIFF_BYTES ? decide(this) : undefined);
    },
    flush(callback) {
      // A file shorter than the sniffing window is judged on what there is.
      if (state.kind !== undefined) return callback();
      if (state.bytes === 0) return callback(new AppError('BAD_REQUEST', MESSAGES.files.empty));
      callback(decide(this));
    },
  });
  return { stream, state };
}

/** The storage the portal uses: the driver's calls plus the checked, all-or-nothing `save`. */
export function createFileStorage(driver: FileStorageDriver): FileStorage {
  async function save(area: TFileArea, source: Readable, rules: TFileRules): Promise<TStoredFile> {
    const id = randomUUID();
    const inspect = inspector(rules);
    const nameOf = () => `${id}.${FILE_KINDS[inspect.state.kind!].ext}`;
    const sink = driver.sink(area, nameOf);
    try {
      await pipeline(source, inspect.stream, sink.stream);
      // The upload library marks a part cut at its own limit as truncated instead of failing.
      if ((source as Readable & { truncated?: boolean }).truncated) {
        throw new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge ?? MESSAGES.files.tooLarge);
      }
      await sink.commit();
      return { area, name: nameOf(), kind: inspect.state.kind!, bytes: inspect.state.bytes };
    } catch (error) {
      await sink.discard();
      source.resume();
      throw error;
    }
  }

  /**
   * Writes a file the server made itself (a certificate) under a name the caller chose. The name
   * holds the file only once it is complete; writing the same name again replaces it whole.
   */
  async function put(area: TFileArea, name: string, bytes: Uint8Array): Promise<void> {
    const sink = driver.sink(area, () => name);
    try {
      await pipeline(Readable.from([Buffer.from(bytes)]), sink.stream);
      await sink.commit();
    } catch (error) {
      await sink.discard();
      throw error;
    }
  }

  async function size(area: TFileArea, name: string): Promise<number | undefined> {
    if (!isStoredName(name)) return undefined;
    return (await driver.stat(area, name))?.bytes;
  }

  return { ...driver, save, put, size };
}
