import sharp from 'sharp';

/** A real image of the given size and format, drawn with two colours so crops are visible. */
export async function imageOf(format: 'png' | 'jpeg' | 'gif' | 'webp', width: number, height: number): Promise<Buffer> {
  const half = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#0b3d5c"/><rect width="${Math.ceil(width / 2)}" height="${height}" fill="#1aa39a"/></svg>`,
  );
  return sharp(half).toFormat(format).toBuffer();
}

/** Width, height and format of an image, read from its bytes. */
export async function imageInfo(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}
