/**
 * File types as the bytes say, never the name or the browser's claim. Each kind knows its
 * extension, media type and signature.
 */
export const FILE_KINDS = {
  pdf: { ext: 'pdf', mime: 'application/pdf', image: false },
  png: { ext: 'png', mime: 'image/png', image: true },
  jpeg: { ext: 'jpg', mime: 'image/jpeg', image: true },
  gif: { ext: 'gif', mime: 'image/gif', image: true },
  webp: { ext: 'webp', mime: 'image/webp', image: true },
  avif: { ext: 'avif', mime: 'image/avif', image: true },
  heic: { ext: 'heic', mime: 'image/heic', image: true },
  tiff: { ext: 'tiff', mime: 'image/tiff', image: true },
  bmp: { ext: 'bmp', mime: 'image/bmp', image: true },
  mp4: { ext: 'mp4', mime: 'video/mp4', image: false },
  mov: { ext: 'mov', mime: 'video/quicktime', image: false },
  webm: { ext: 'webm', mime: 'video/webm', image: false },
} as const;
export type TFileKind = keyof typeof FILE_KINDS;

export const IMAGE_KINDS: TFileKind[] = ['png', 'jpeg', 'gif', 'webp'];
/** Every raster format a picture may arrive in, to be decoded and stored as WebP (course images). */
export const RASTER_KINDS: TFileKind[] = [...IMAGE_KINDS, 'avif', 'heic', 'tiff', 'bmp'];

/** ISO-BMFF brands of still images (AVIF, and HEIC as phones write it). */
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
export const VIDEO_KINDS: TFileKind[] = ['mp4', 'mov', 'webm'];

/** Bytes needed to recognise every kind above. */
export const SNIFF_BYTES = 16;

const ascii = (buffer: Buffer, start: number, end: number) => buffer.subarray(start, end).toString('latin1');

export function detectFileKind(head: Buffer): TFileKind | undefined {
  if (ascii(head, 0, 5) === '%PDF-') return 'pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return 'webm';
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(head, 0, 2) === 'BM' && head.length >= 14 && head.readUInt32LE(10) >= 26) return 'bmp';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (AVIF_BRANDS.has(brand)) return 'avif';
    if (HEIC_BRANDS.has(brand)) return 'heic';
    return ascii(head, 8, 10) === 'qt' ? 'mov' : 'mp4';
  }
  return undefined;
}
