import { describe, expect, it } from 'vitest';
import {
  SPACE_MARGIN_BYTES,
  availableText,
  carryOver,
  chunkCount,
  chunkRange,
  downloadPercent,
  firstMissingChunk,
  formatBytes,
  progressText,
  rangeHeader,
  resumePoint,
  spaceProblem,
  storedTotal,
} from '@/lib/offline/download-plan.ts';
import { CHUNK_BYTES } from '@/lib/offline/offline-db.ts';

const MB = 1_000_000;

describe('chunks of a part', () => {
  it('cover every byte once, the last one shorter', () => {
    const bytes = 2 * CHUNK_BYTES + 12_345;
    expect(chunkCount(bytes)).toBe(3);
    const ranges = [0, 1, 2].map((index) => chunkRange(bytes, index));
    expect(ranges).toEqual([
      { start: 0, end: CHUNK_BYTES - 1 },
      { start: CHUNK_BYTES, end: 2 * CHUNK_BYTES - 1 },
      { start: 2 * CHUNK_BYTES, end: bytes - 1 },
    ]);
    expect(ranges.reduce((sum, range) => sum + range.end - range.start + 1, 0)).toBe(bytes);
    expect(rangeHeader(bytes, 2)).toBe(`bytes=${2 * CHUNK_BYTES}-${bytes - 1}`);
  });

  it('a part of exactly one chunk, and one smaller', () => {
    expect(chunkCount(CHUNK_BYTES)).toBe(1);
    expect(rangeHeader(CHUNK_BYTES, 0)).toBe(`bytes=0-${CHUNK_BYTES - 1}`);
    expect(chunkCount(1)).toBe(1);
    expect(rangeHeader(1, 0)).toBe('bytes=0-0');
    expect(chunkCount(0)).toBe(0);
  });
});

describe('where a download resumes', () => {
  const parts = [
    { id: 'p1', bytes: 2 * CHUNK_BYTES + 10 },
    { id: 'p2', bytes: CHUNK_BYTES + 5 },
  ];

  it('at the first missing chunk of the first part not complete', () => {
    expect(resumePoint(parts, {})).toEqual({ videoId: 'p1', partIndex: 0, chunk: 0 });
    expect(resumePoint(parts, { p1: CHUNK_BYTES })).toEqual({ videoId: 'p1', partIndex: 0, chunk: 1 });
    expect(resumePoint(parts, { p1: 2 * CHUNK_BYTES })).toEqual({ videoId: 'p1', partIndex: 0, chunk: 2 });
    expect(resumePoint(parts, { p1: 2 * CHUNK_BYTES + 10 })).toEqual({ videoId: 'p2', partIndex: 1, chunk: 0 });
    expect(resumePoint(parts, { p1: 2 * CHUNK_BYTES + 10, p2: CHUNK_BYTES })).toEqual({ videoId: 'p2', partIndex: 1, chunk: 1 });
  });

  it('nowhere once every byte is here', () => {
    expect(resumePoint(parts, { p1: 2 * CHUNK_BYTES + 10, p2: CHUNK_BYTES + 5 })).toBeNull();
  });

  it('counts whole chunks only', () => {
    expect(firstMissingChunk(0)).toBe(0);
    expect(firstMissingChunk(CHUNK_BYTES - 1)).toBe(0);
    expect(firstMissingChunk(3 * CHUNK_BYTES)).toBe(3);
  });

  it('stored bytes never count more than a part holds, nor parts gone from the package', () => {
    expect(storedTotal(parts, { p1: 5 * CHUNK_BYTES, p2: 7, gone: 99 })).toBe(2 * CHUNK_BYTES + 10 + 7);
  });
});

describe('the package given again', () => {
  it('keeps what is unchanged, restarts a part re-made since, drops a part gone', () => {
    const before = [
      { id: 'p1', bytes: 3 * CHUNK_BYTES },
      { id: 'p2', bytes: 2 * CHUNK_BYTES },
      { id: 'p3', bytes: 100 },
    ];
    const after = [
      { id: 'p1', bytes: 3 * CHUNK_BYTES },
      { id: 'p2', bytes: 2 * CHUNK_BYTES + 7 },
      { id: 'p4', bytes: 50 },
    ];
    expect(carryOver(before, { p1: 2 * CHUNK_BYTES, p2: CHUNK_BYTES, p3: 100 }, after)).toEqual({
      partBytes: { p1: 2 * CHUNK_BYTES, p2: 0, p4: 0 },
      drop: ['p2'],
      gone: ['p3'],
    });
  });
});

describe('progress and sizes in words', () => {
  it('100 % only when every byte is here', () => {
    expect(downloadPercent(0, 100)).toBe(0);
    expect(downloadPercent(45, 100)).toBe(45);
    expect(downloadPercent(999_999, 1_000_000)).toBe(99);
    expect(downloadPercent(1_000_000, 1_000_000)).toBe(100);
  });

  it('sizes as phones show them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(850_000)).toBe('850 KB');
    expect(formatBytes(4_200_000)).toBe('4.2 MB');
    expect(formatBytes(3_000_000)).toBe('3 MB');
    expect(formatBytes(38_400_000)).toBe('38 MB');
    expect(formatBytes(123 * MB)).toBe('123 MB');
    expect(formatBytes(1_340_000_000)).toBe('1.3 GB');
  });

  it('the progress line and the downloaded state', () => {
    expect(progressText(17_200_000, 38 * MB)).toBe('17 MB of 38 MB · 45 %');
    const pkg = { parts: [{}, {}] } as never;
    expect(availableText({ package: pkg, storedBytes: 38 * MB })).toBe('Available offline · 2 parts · 38 MB');
    expect(availableText({ package: { parts: [{}] } as never, storedBytes: 4_200_000 })).toBe('Available offline · 1 part · 4.2 MB');
  });
});

describe('free space', () => {
  it('fits, with room kept for the app', () => {
    expect(spaceProblem(100 * MB, { quota: 1000 * MB, usage: 10 * MB }, 360)).toBeNull();
    expect(spaceProblem(100 * MB, { quota: 100 * MB + SPACE_MARGIN_BYTES, usage: 0 }, 360)).toBeNull();
  });

  it('says how much is needed and how much is free when it does not fit', () => {
    expect(spaceProblem(123 * MB, { quota: 200 * MB, usage: 155 * MB }, 360)).toBe(
      'This download needs 123 MB, and this device has 45 MB free for the portal. Free some space on the device and try again.',
    );
    // At 720p, the smaller download is offered.
    expect(spaceProblem(300 * MB, { quota: 200 * MB, usage: 0 }, 720)).toBe(
      'This download needs 300 MB, and this device has 200 MB free for the portal. Choose 360p for a smaller download, or free some space on the device and try again.',
    );
    // Over quota already: nothing free.
    expect(spaceProblem(1 * MB, { quota: 10 * MB, usage: 12 * MB }, 360)).toContain('this device has 0 B free');
  });

  it('no word when the browser does not say', () => {
    expect(spaceProblem(100 * MB, null, 360)).toBeNull();
    expect(spaceProblem(100 * MB, {}, 360)).toBeNull();
  });
});
