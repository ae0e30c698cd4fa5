import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import sharp, { type OutputInfo } from 'sharp';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { decodeBmp } from './bmp.ts';
import type { FileStorage, TStoredFile } from './storage.ts';

/** Beyond this many pixels an upload is refused before it is decoded (a decompression bomb). */
const MAX_INPUT_PIXELS = 50_000_000;
const WEBP_QUALITY = 80;

export type TStoredImage = TStoredFile & { width: number; height: number };

/** The box to crop to: the wanted one, made smaller (same shape) when the source is smaller. */
function boxWithin(source: { width: number; height: number }, box: { width: number; height: number }) {
  const scale = Math.min(1, source.width / box.width, source.height / box.height);
  return {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
}

/**
 * Stores an uploaded image once more, cropped to fill `box` (never enlarged), turned upright and
 * stripped of metadata, as WebP. The original stays where it is: the caller removes it. A file
 * that only looks like an image is refused with 415.
 */
export async function storeImageCover(
  storage: FileStorage,
  source: TStoredFile,
  box: { width: number; height: number },
  options: { unreadable?: string } = {},
): Promise<TStoredImage> {
  const copy = await storage.localCopy(source.area, source.name);
  const path = copy.path;
  let output: { data: Buffer; info: OutputInfo };
  try {
    try {
      const decoded = source.kind === 'bmp' ? decodeBmp(await readFile(path), MAX_INPUT_PIXELS) : undefined;
      if (source.kind === 'bmp' && !decoded) throw new Error('a bitmap this server cannot read');
      const open = () =>
        decoded
          ? sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels } })
          : sharp(path, { limitInputPixels: MAX_INPUT_PIXELS });
      const meta = await open().metadata();
      if (!meta.width || !meta.height) throw new Error('image without dimensions');
      // EXIF orientations 5 to 8 turn the picture a quarter: width and height trade places.
      const upright =
        (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
      const target = boxWithin(upright, box);
      output = await open()
        .rotate()
        .resize(target.width, target.height, { fit: 'cover', position: 'centre' })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.files.tooLarge, { cause: error });
      }
      // Phones' HEIC photos are HEVC-compressed, which this build of the image library cannot decode.
      const message = source.kind === 'heic' ? MESSAGES.files.heicUnreadable : (options.unreadable ?? MESSAGES.files.wrongType);
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', message, { cause: error });
    }
  } finally {
    await copy.release();
  }
  const stored = await storage.save(source.area, Readable.from(output.data), {
    maxBytes: output.data.length,
    kinds: ['webp'],
  });
  return { ...stored, width: output.info.width, height: output.info.height };
}

/**
 * Stores a picture again, decoded and encoded anew in its own format: upright, without EXIF or any
 * other metadata (a phone writes the GPS position of the learner's home into it) and without bytes
 * after the image, so a picture can never also be an HTML or script file. The original is removed.
 * A file that only looks like an image is refused with 415.
 */
export async function storeImageClean(storage: FileStorage, source: TStoredFile, unreadable?: string): Promise<TStoredFile> {
  const copy = await storage.localCopy(source.area, source.name).catch(async (error: unknown) => {
    await storage.remove(source.area, source.name);
    throw error;
  });
  let data: Buffer;
  try {
    const image = sharp(copy.path, { limitInputPixels: MAX_INPUT_PIXELS, animated: source.kind === 'gif' || source.kind === 'webp' }).rotate();
    const encoded =
      source.kind === 'png' ? image.png() : source.kind === 'gif' ? image.gif() : source.kind === 'webp' ? image.webp({ quality: 90 }) : image.jpeg({ quality: 90 });
    data = await encoded.toBuffer();
  } catch (error) {
    await storage.remove(source.area, source.name);
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.files.tooLarge, { cause: error });
    }
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', unreadable ?? MESSAGES.files.wrongType, { cause: error });
  } finally {
    await copy.release();
  }
  try {
    return await storage.save(source.area, Readable.from(data), { maxBytes: data.length, kinds: [source.kind] });
  } finally {
    await storage.remove(source.area, source.name);
  }
}
