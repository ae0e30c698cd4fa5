import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openFileStorage } from '../src/server/lib/files/open-storage.ts';
import type { FileStorage } from '../src/server/lib/files/storage.ts';
import { createTestBucket, startS3Server, STORAGE_DRIVERS, type TStorageDriver } from '../src/testing/storage.ts';
import { ms, percentile, type TBenchmark, type TBenchRow } from './support.ts';

const FILE_MB = 200;
const CHUNK = 64 * 1024;

/** A PDF-looking body of FILE_MB, made as it is read (the bench holds one chunk, not the file). */
function body(): Readable {
  const block = randomBytes(CHUNK);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= FILE_MB * 1024 * 1024) return this.push(null);
      this.push(sent === 0 ? Buffer.concat([Buffer.from('%PDF-1.7\n'), block.subarray(9)]) : block);
      sent += CHUNK;
    },
  });
}

const sink = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

/** The largest growth of this process's resident memory while `work` runs. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; mb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    return { result, mb: Math.round((peak - base) / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

async function measure(driver: TStorageDriver, files: FileStorage): Promise<TBenchRow[]> {
  const started = performance.now();
  const { result: stored, mb } = await peakGrowth(() => files.save('trainingVideo', body(), { maxBytes: (FILE_MB + 1) * 2 ** 20, kinds: ['pdf'] }));
  const uploadMs = performance.now() - started;

  const readStarted = performance.now();
  await pipeline(await files.read('trainingVideo', stored.name), sink());
  const readMs = performance.now() - readStarted;

  const ranged: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const start = Math.floor(Math.random() * (stored.bytes - 2 ** 20));
    const t = performance.now();
    await files.stat('trainingVideo', stored.name);
    await pipeline(await files.read('trainingVideo', stored.name, { start, end: start + 2 ** 20 - 1 }), sink());
    ranged.push(performance.now() - t);
  }

  const copyStarted = performance.now();
  const copy = await files.localCopy('trainingVideo', stored.name);
  const copyMs = performance.now() - copyStarted;
  await copy.release();
  await files.remove('trainingVideo', stored.name);

  const where = driver === 'local' ? 'local disk' : 'S3 (s3rver on this machine)';
  return [
    { figure: `Storage, ${where}: ${FILE_MB} MB upload streamed in`, value: ms(uploadMs), note: `${Math.round((FILE_MB / uploadMs) * 1000)} MB/s; resident memory grew at most ${mb} MB` },
    { figure: `Storage, ${where}: ${FILE_MB} MB read whole`, value: ms(readMs), note: `${Math.round((FILE_MB / readMs) * 1000)} MB/s` },
    { figure: `Storage, ${where}: 1 MB Range read (stat + ranged read), 50 times`, value: `p50 ${ms(percentile(ranged, 50))}`, note: `p95 ${ms(percentile(ranged, 95))}` },
    { figure: `Storage, ${where}: local copy for ffmpeg`, value: ms(copyMs), note: driver === 'local' ? 'the stored file itself' : 'streamed to DATA_DIR/scratch' },
  ];
}

export const storageBenchmark: TBenchmark = {
  name: 'Storage',
  async run() {
    const rows: TBenchRow[] = [];
    const s3 = await startS3Server();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-storage-'));
    try {
      for (const driver of STORAGE_DRIVERS) {
        const files = await openFileStorage({ storageUrl: driver === 's3' ? await createTestBucket(s3.endpoint) : undefined, dataDir });
        try {
          rows.push(...(await measure(driver, files)));
        } finally {
          await files.close();
        }
      }
    } finally {
      await s3.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};
