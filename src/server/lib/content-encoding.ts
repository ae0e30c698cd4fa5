import { Negotiator } from '@fastify/accept-negotiator';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/*
 * Answers made per request are compressed by @fastify/compress (app.ts). The bodies here never
 * change while their version lasts (the catalogue, the pages): compressed once at the highest
 * levels and kept, they cost nothing per request.
 */

/** A body kept plain, brotli- and gzip-compressed. */
export type TPrecompressed = { plain: Buffer; br: Buffer; gzip: Buffer };

export const compressBrotli = (body: Buffer) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
export const compressGzip = (body: Buffer) => gzipSync(body, { level: 9 });

export function precompressed(text: string): TPrecompressed {
  const plain = Buffer.from(text);
  return { plain, br: compressBrotli(plain), gzip: compressGzip(plain) };
}

/** Browsers send a handful of Accept-Encoding values: their answers are kept, a few dozen at most. */
const seen = new Map<string, string>();
const encodings = new Negotiator<'br' | 'gzip'>({
  supportedValues: ['br', 'gzip'],
  cache: { get: (key) => seen.get(key), has: (key) => seen.has(key), set: (key, value) => (seen.size >= 64 && seen.clear(), seen.set(key, value)) },
});

/** The best encoding the client accepts: brotli, else gzip, else none. */
export const pickEncoding = (acceptEncoding: string | undefined) => (acceptEncoding ? (encodings.negotiate(acceptEncoding) ?? undefined) : undefined);

/** The variant of `body` for this request, and the Content-Encoding to send with it. */
export function variantFor(body: TPrecompressed, acceptEncoding: string | undefined): { encoding?: 'br' | 'gzip'; bytes: Buffer } {
  const encoding = pickEncoding(acceptEncoding);
  return encoding ? { encoding, bytes: body[encoding] } : { bytes: body.plain };
}
