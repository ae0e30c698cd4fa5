// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type TSignedRecordFields, offlineRecordText } from '../../../shared/offline-record.ts';
import { signRecord } from '@/lib/offline/record-signing.ts';

const downloadId = '5c4f6a7e-1d2b-4c3a-9e8f-0a1b2c3d4e5f';
const recordKey = 'k3Y_wVt9-aF1bQ2cR7dE8fG0hJ4kL6mN5pS3tU9vX2y';
const record: TSignedRecordFields = {
  id: '0f9e8d7c-6b5a-4a3b-8c2d-1e0f9a8b7c6d',
  seq: 3,
  videoId: '11111111-2222-4333-8444-555555555555',
  from: 12.25,
  to: 41.5,
  startedAt: 1_764_220_000_000,
  endedAt: 1_764_220_029_400,
  playedMs: 29_380,
  prev: 'previous-signature_x',
};

/** What the server computes to check a record (modules/training/offline-credit.ts). */
const serverSignature = (key: string, id: string, fields: TSignedRecordFields) => createHmac('sha256', key).update(offlineRecordText(id, fields)).digest('base64url');

describe('record signing on the device', () => {
  it('signs as the server verifies: HMAC-SHA256 with the key text over the record text, base64url', async () => {
    const signature = await signRecord(recordKey, downloadId, record);
    expect(signature).toBe(serverSignature(recordKey, downloadId, record));
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('signs the first record of a chain (no previous signature) as the server does', async () => {
    const first = { ...record, seq: 1, prev: null };
    expect(await signRecord(recordKey, downloadId, first)).toBe(serverSignature(recordKey, downloadId, first));
  });

  it('gives another signature once any field, the download or the key changes', async () => {
    const signature = await signRecord(recordKey, downloadId, record);
    expect(await signRecord(recordKey, downloadId, { ...record, to: 42 })).not.toBe(signature);
    expect(await signRecord(recordKey, downloadId, { ...record, seq: 4 })).not.toBe(signature);
    expect(await signRecord(recordKey, downloadId.replace('5c', '6c'), record)).not.toBe(signature);
    expect(await signRecord(`${recordKey}x`, downloadId, record)).not.toBe(signature);
  });
});
