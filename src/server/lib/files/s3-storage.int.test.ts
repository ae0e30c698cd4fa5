import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { createTestBucket } from '../../../testing/storage.ts';
import { openFileStorage } from './open-storage.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-s3-open-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('opening the S3 storage', () => {
  it('checks the bucket at start and says when it is missing', async () => {
    const endpoint = inject('s3Endpoint');
    await expect(
      openFileStorage({ storageUrl: `s3://S3RVER:S3RVER@no-such-bucket?endpoint=${endpoint}&forcePathStyle=true`, dataDir }),
    ).rejects.toThrow(`STORAGE_URL: the bucket s3://no-such-bucket at ${endpoint} does not exist`);
  });

  it('refuses credentials the server does not know', async () => {
    const url = (await createTestBucket(inject('s3Endpoint'))).replace('S3RVER:S3RVER@', 'someone:wrong@');
    await expect(openFileStorage({ storageUrl: url, dataDir })).rejects.toThrow(/STORAGE_URL: the bucket .* cannot be reached/);
  });

  it('keeps files under the URL\'s key prefix', async () => {
    const url = (await createTestBucket(inject('s3Endpoint'))).replace('?', '/academy/one?');
    const files = await openFileStorage({ storageUrl: url, dataDir });
    try {
      const stored = await files.save('id_documents', Readable.from(Buffer.from('%PDF-1.7\nhello')), { maxBytes: 100, kinds: ['pdf'] });
      const { client, bucket } = files as typeof files & { client: S3Client; bucket: string };
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `academy/one/id_documents/${stored.name}` }));
      expect(head.ContentLength).toBe(14);
      expect(head.ContentType).toBe('application/pdf');
    } finally {
      await files.close();
    }
  });
});
