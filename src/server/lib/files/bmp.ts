/**
 * Windows bitmaps, which the image library cannot read: uncompressed 24- and 32-bit BMPs (what
 * Paint and most scanners write) decoded to raw RGB(A) pixels. Anything else answers undefined.
 */
export function decodeBmp(file: Buffer, maxPixels: number): { data: Buffer; width: number; height: number; channels: 3 | 4 } | undefined {
  if (file.length < 54 || file.toString('latin1', 0, 2) !== 'BM') return undefined;
  const pixelOffset = file.readUInt32LE(10);
  const headerSize = file.readUInt32LE(14);
  if (headerSize < 40) return undefined;
  const width = file.readInt32LE(18);
  const rawHeight = file.readInt32LE(22);
  const bitsPerPixel = file.readUInt16LE(28);
  const compression = file.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  const bottomUp = rawHeight > 0;
  if (width <= 0 || height === 0 || width * height > maxPixels) return undefined;
  // BI_RGB, or BI_BITFIELDS with the usual masks for 32 bits (blue, green, red, alpha bytes).
  if (!(compression === 0 || (compression === 3 && bitsPerPixel === 32))) return undefined;
  if (bitsPerPixel !== 24 && bitsPerPixel !== 32) return undefined;
  const channels = bitsPerPixel === 32 ? 4 : 3;
  const stride = Math.ceil((bitsPerPixel * width) / 32) * 4;
  if (pixelOffset + stride * height > file.length) return undefined;
  const data = Buffer.alloc(width * height * channels);
  for (let row = 0; row < height; row += 1) {
    const source = pixelOffset + (bottomUp ? height - 1 - row : row) * stride;
    for (let column = 0; column < width; column += 1) {
      const from = source + column * (bitsPerPixel / 8);
      const to = (row * width + column) * channels;
      data[to] = file[from + 2]!;
      data[to + 1] = file[from + 1]!;
      data[to + 2] = file[from]!;
      // Many 32-bit bitmaps leave the fourth byte at zero: treat all-zero alpha as opaque below.
      if (channels === 4) data[to + 3] = file[from + 3]!;
    }
  }
  if (channels === 4 && !data.some((value, index) => index % 4 === 3 && value !== 0)) {
    for (let index = 3; index < data.length; index += 4) data[index] = 255;
  }
  return { data, width, height, channels };
}
