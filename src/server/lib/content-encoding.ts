import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export type TContentEncoding = 'br' | 'gzip';

/** The best encoding the client accepts of those we keep: brotli, else gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): TContentEncoding | undefined {
  const accepted = (name: string) =>
    (acceptEncoding ?? '').split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      return token?.trim().toLowerCase() === name && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    });
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return undefined;
}

export const compressBrotli = (body: Buffer) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
export const compressGzip = (body: Buffer) => gzipSync(body, { level: 9 });

/** A body that never changes while the process runs, kept plain, brotli- and gzip-compressed. */
export type TPrecompressed = { plain: Buffer; br: Buffer; gzip: Buffer };

export function precompressed(text: string): TPrecompressed {
  const plain = Buffer.from(text);
  return { plain, br: compressBrotli(plain), gzip: compressGzip(plain) };
}

/** The variant of `body` for this request, and the Content-Encoding to send with it. */
export function variantFor(body: TPrecompressed, acceptEncoding: string | undefined): { encoding?: TContentEncoding; bytes: Buffer } {
  const encoding = pickEncoding(acceptEncoding);
  return encoding ? { encoding, bytes: body[encoding] } : { bytes: body.plain };
}
