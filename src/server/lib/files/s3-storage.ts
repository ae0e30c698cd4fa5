import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { FILE_KINDS } from './file-kinds.ts';
import { describeStorageUrl, type TS3Location } from './storage-url.ts';
import { openScratch } from './scratch.ts';
import { isStoredName, type FileStorageDriver, type TFileArea, type TStorageEntry, type TStorageSink } from './storage.ts';

/** Each part of a multipart upload; at most QUEUE_SIZE of them are held in memory per upload. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

type TS3Error = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as TS3Error).$metadata?.httpStatusCode;
const isMissing = (error: unknown) => {
  const name = (error as TS3Error).name;
  return name === 'NotFound' || name === 'NoSuchKey' || statusOf(error) === 404;
};
const isNotImplemented = (error: unknown) => {
  const name = (error as TS3Error).name ?? (error as TS3Error).Code;
  return name === 'NotImplemented' || name === 'MethodNotAllowed' || statusOf(error) === 501 || statusOf(error) === 405;
};

const mimeOf = (name: string) => Object.values(FILE_KINDS).find((kind) => name.endsWith(`.${kind.ext}`))?.mime ?? 'application/octet-stream';

export type S3Storage = FileStorageDriver & { client: S3Client; bucket: string; keyOf(area: TFileArea, name: string): string };

/**
 * Files in an S3-compatible bucket under `<prefix>/<area>/<name>`. Uploads stream through
 * @aws-sdk/lib-storage (one PUT for a small file, a multipart upload of 8 MB parts beyond), so the
 * process holds at most two parts of a file; an object appears only when its upload completes.
 * Reads are ranged GETs. Tools that need a path get a copy in this process's folder of
 * `scratchDir` (`openScratch`), streamed to disk.
 */
export async function openS3Storage(location: TS3Location, scratchDir: string): Promise<S3Storage> {
  const client = new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    ...(location.credentials ? { credentials: location.credentials } : {}),
    // Checksums only where S3 demands them: other S3-compatible servers do not all know the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const { bucket } = location;
  const root = location.prefix ? `${location.prefix}/` : '';
  const areaPrefix = (area: TFileArea) => `${root}${area}/`;
  const keyOf = (area: TFileArea, name: string) => {
    if (!isStoredName(name)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
    return `${areaPrefix(area)}${name}`;
  };

  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    client.destroy();
    const why = isMissing(error) ? 'does not exist' : `cannot be reached (${(error as Error).name}: ${(error as Error).message})`;
    throw new Error(`STORAGE_URL: the bucket ${describeStorageUrl(location)} ${why}`, { cause: error });
  }
  const scratch = await openScratch(scratchDir);

  function upload(key: string, body: Readable, signal?: AbortSignal) {
    const run = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: body, ContentType: mimeOf(key) },
      partSize: PART_BYTES,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    signal?.addEventListener('abort', () => void run.abort().catch(() => {}));
    return run;
  }

  async function removeKey(key: string) {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  }

  function sink(area: TFileArea, name: () => string): TStorageSink {
    let started: { key: string; body: PassThrough; run: Upload; done: Promise<unknown> } | undefined;
    let completed = false;
    const start = () => {
      const key = keyOf(area, name());
      const body = new PassThrough();
      const run = upload(key, body);
      const done = run.done();
      // A failed upload stops the writer too, or it would wait for room forever.
      done.catch((error: unknown) => stream.destroy(error as Error));
      return { key, body, run, done };
    };
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        started ??= start();
        if (started.body.write(chunk)) callback();
        else started.body.once('drain', () => callback());
      },
      final(callback) {
        started ??= start();
        started.body.end();
        started.done.then(
          () => {
            completed = true;
            callback();
          },
          (error: unknown) => callback(error as Error),
        );
      },
      destroy(error, callback) {
        if (started && !completed) {
          started.body.destroy();
          // The multipart upload's parts go with it; a single PUT never completed.
          void started.run.abort().catch(() => {});
        }
        callback(error);
      },
    });
    return {
      stream,
      commit: async () => {},
      discard: async () => {
        if (!started) return;
        if (!completed) {
          stream.destroy();
          await started.done.catch(() => {});
        }
        // Whatever became of the upload, nothing may stay under its name.
        await removeKey(started.key).catch(() => {});
      },
    };
  }

  let multipartListing = true;

  return {
    kind: 's3',
    location: describeStorageUrl(location),
    client,
    bucket,
    keyOf,
    sink,

    async stat(area, name) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(area, name) }));
        return {
          bytes: head.ContentLength ?? 0,
          modifiedAt: head.LastModified ?? new Date(0),
          etag: head.ETag ?? `"${head.ContentLength ?? 0}-${head.LastModified?.getTime() ?? 0}"`,
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async read(area, name, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: keyOf(area, name), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound, { cause: error });
        throw error;
      }
    },

    async remove(area, name) {
      if (!isStoredName(name)) return;
      await removeKey(keyOf(area, name));
    },

    async *entries(area) {
      const prefix = areaPrefix(area);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length);
          if (!name || name.includes('/')) continue;
          yield { name, modifiedMs: object.LastModified?.getTime() ?? Number.POSITIVE_INFINITY, partial: false } satisfies TStorageEntry;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);

      // Uploads a crash left unfinished hold their parts until aborted. A server that cannot list
      // them leaves that to the bucket's lifecycle rule (AbortIncompleteMultipartUpload).
      if (!multipartListing) return;
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
        } catch (error) {
          if (!isNotImplemented(error)) throw error;
          multipartListing = false;
          return;
        }
        for (const unfinished of page.Uploads ?? []) {
          const name = unfinished.Key?.slice(prefix.length);
          if (!name || !unfinished.UploadId) continue;
          yield { name, modifiedMs: unfinished.Initiated?.getTime() ?? Number.POSITIVE_INFINITY, partial: true, handle: unfinished.UploadId };
        }
        keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (keyMarker);
    },

    async removeEntry(area, entry) {
      if (entry.partial) {
        if (!entry.handle) return;
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: `${areaPrefix(area)}${entry.name}`, UploadId: entry.handle }));
        return;
      }
      if (isStoredName(entry.name)) await removeKey(keyOf(area, entry.name));
    },

    async localCopy(area, name) {
      const key = keyOf(area, name);
      await mkdir(scratch, { recursive: true });
      const dir = await mkdtemp(path.join(scratch, 'copy-'));
      const release = () => rm(dir, { recursive: true, force: true });
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const file = path.join(dir, name);
        await pipeline(answer.Body as Readable, createWriteStream(file, { mode: 0o600 }));
        return { path: file, release };
      } catch (error) {
        await release();
        if (isMissing(error)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound, { cause: error });
        throw error;
      }
    },

    async outputFolder(area) {
      await mkdir(scratch, { recursive: true });
      const dir = await mkdtemp(path.join(scratch, 'out-'));
      return {
        dir,
        async keep(names) {
          const kept: string[] = [];
          try {
            for (const name of names) {
              await upload(keyOf(area, name), createReadStream(path.join(dir, name))).done();
              kept.push(name);
            }
          } catch (error) {
            await Promise.all(kept.map((name) => removeKey(keyOf(area, name)).catch(() => {})));
            throw error;
          }
        },
        release: () => rm(dir, { recursive: true, force: true }),
      };
    },

    async close() {
      client.destroy();
    },
  };
}
