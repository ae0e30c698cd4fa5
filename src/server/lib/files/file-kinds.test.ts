import { describe, expect, it } from 'vitest';
import { detectFileKind } from './file-kinds.ts';

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

describe('detectFileKind', () => {
  it('recognises documents and images by their signature', () => {
    expect(detectFileKind(bytes('%PDF-1.7\n'))).toBe('pdf');
    expect(detectFileKind(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('png');
    expect(detectFileKind(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(detectFileKind(bytes('GIF89a'))).toBe('gif');
    expect(detectFileKind(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('webp');
  });

  it('recognises videos', () => {
    expect(detectFileKind(bytes(0, 0, 0, 0x20, 'ftypisom'))).toBe('mp4');
    expect(detectFileKind(bytes(0, 0, 0, 0x14, 'ftypqt  '))).toBe('mov');
    expect(detectFileKind(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f))).toBe('webm');
  });

  it('does not trust a name: HTML, SVG and executables are unknown', () => {
    expect(detectFileKind(Buffer.from('<!doctype html><script>alert(1)</script>'))).toBeUndefined();
    expect(detectFileKind(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">'))).toBeUndefined();
    expect(detectFileKind(bytes(0x7f, 'ELF', 2, 1, 1))).toBeUndefined();
    expect(detectFileKind(bytes('MZ', 0x90, 0))).toBeUndefined();
    expect(detectFileKind(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('detectFileKind for the pictures phones and scanners send', () => {
  it('tells AVIF and HEIC from MP4, and knows TIFF and BMP', () => {
    expect(detectFileKind(bytes(0, 0, 0, 0x1c, 'ftypavif'))).toBe('avif');
    expect(detectFileKind(bytes(0, 0, 0, 0x18, 'ftypheic'))).toBe('heic');
    expect(detectFileKind(bytes(0, 0, 0, 0x18, 'ftypmif1'))).toBe('heic');
    expect(detectFileKind(bytes('II*', 0, 8, 0, 0, 0))).toBe('tiff');
    expect(detectFileKind(bytes('MM', 0, '*', 0, 0, 0, 8))).toBe('tiff');
    expect(detectFileKind(bytes('BM', 0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0))).toBe('bmp');
    expect(detectFileKind(bytes(0, 0, 0, 0x20, 'ftypisom'))).toBe('mp4');
  });
});
