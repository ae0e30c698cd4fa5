import { describe, expect, it } from 'vitest';
import { parseRange } from './send-file.ts';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
  ])('%s of 1000 bytes', (header, range) => {
    expect(parseRange(header, 1000)).toEqual(range);
  });

  it('cannot satisfy a range past the end, or an empty suffix', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('ignores what it does not understand, and several ranges at once (the whole file is sent)', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-9', 'bytes=0-1,4-5', 'bytes=9-0', 'bytes=a-b']) {
      expect(parseRange(header, 1000), String(header)).toBeUndefined();
    }
  });
});
