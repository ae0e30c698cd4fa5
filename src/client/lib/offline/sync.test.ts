import { describe, expect, it } from 'vitest';
import { OFFLINE_SYNC_MAX_RECORDS } from '../../../shared/schemas/offline.ts';
import { RECORDS_PER_SYNC } from '@/lib/offline/sync.ts';

describe('offline sync', () => {
  it('sends no more records at once than the server takes', () => {
    expect(RECORDS_PER_SYNC).toBe(OFFLINE_SYNC_MAX_RECORDS);
  });
});
