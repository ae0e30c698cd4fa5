import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { FileStorage, TFileArea } from '../server/lib/files/storage.ts';

/** The storage drivers the file tests run on: the local disk and an S3-compatible server (s3rver). */
export const STORAGE_DRIVERS = ['local', 's3'] as const;
export type TStorageDriver = (typeof STORAGE_DRIVERS)[number];

/** s3rver's built-in account. */
const S3RVER_KEY = 'S3RVER';

/** An S3-compatible server on a free port of this machine, its objects in a temporary folder. */
export async function startS3Server(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function clientFor(endpoint: string) {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
  });
}

/** A new, empty bucket on the test server, and the STORAGE_URL that names it. */
export async function createTestBucket(endpoint: string): Promise<string> {
  const bucket = `portal-test-${randomBytes(5).toString('hex')}`;
  const client = clientFor(endpoint);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return `s3://${S3RVER_KEY}:${S3RVER_KEY}@${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`;
}

/** Every name an area holds, whichever the driver (temporary `.part` files included on disk). */
export async function storedNames(storage: FileStorage, area: TFileArea): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of storage.entries(area)) names.push(entry.name);
  return names.sort();
}

/** Every name the areas hold together. */
export async function storedNamesIn(storage: FileStorage, areas: readonly TFileArea[]): Promise<string[]> {
  return (await Promise.all(areas.map((area) => storedNames(storage, area)))).flat();
}

export async function readStored(storage: FileStorage, area: TFileArea, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await storage.read(area, name)) as Readable) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function isStored(storage: FileStorage, area: TFileArea, name: string): Promise<boolean> {
  return (await storage.stat(area, name)) !== undefined;
}

/**
 * What an upload cut off by a crash leaves on the local disk: a `.part` file. (In a bucket it is an
 * unfinished multipart upload, which s3rver cannot list, so the sweep of those is not tested here.)
 */
export function leavePartialFile(storage: FileStorage, area: TFileArea): { name: string; exists(): boolean } {
  if (storage.kind !== 'local') throw new Error('partial files are a local-disk matter');
  const name = `.${randomUUID()}.part`;
  const file = path.join((storage as FileStorage & { root: string }).root, area, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'half an upload');
  return { name, exists: () => existsSync(file) };
}
