import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export type TContentEncoding = 'br' | 'gzip';

/** The Accept-Encoding values seen lately and their answer: browsers send a handful of strings. */
const pickedFor = new Map<string, TContentEncoding | undefined>();
const PICKED_KEPT = 64;

/** The best encoding the client accepts of those we keep: brotli, else gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): TContentEncoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  if (pickedFor.has(acceptEncoding)) return pickedFor.get(acceptEncoding);
  const accepted = (name: string) =>
    acceptEncoding.split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      return token?.trim().toLowerCase() === name && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    });
  const picked = accepted('br') ? 'br' : accepted('gzip') ? 'gzip' : undefined;
  if (pickedFor.size >= PICKED_KEPT) pickedFor.clear();
  pickedFor.set(acceptEncoding, picked);
  return picked;
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

/** Answers smaller than this are sent as they are: compressing saves less than it costs. */
const MIN_COMPRESSED_BYTES = 512;

type TReplyHeaders = {
  getHeader(name: string): unknown;
  header(name: string, value: string): unknown;
  removeHeader(name: string): unknown;
  code(status: number): unknown;
};
type TAcceptingRequest = { headers: { 'accept-encoding'?: string } };

/**
 * An onSend hook compressing the JSON answers made per request (tRPC and REST), brotli at a
 * quality cheap enough to run on every answer, else gzip. Streams and answers already encoded
 * (the catalogue, files) are left alone. Only tRPC's answer (a fetch Response, read
 * asynchronously) makes it wait: every other answer goes on at once, so a handler that returns
 * its reply finds it sent, and Fastify puts no listener on the response to wait for its end.
 */
export function compressJsonAnswer(request: TAcceptingRequest, reply: TReplyHeaders, payload: unknown): unknown {
  if (payload instanceof Response) return compressFetchAnswer(request, reply, payload);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (!/\bjson\b/.test(String(reply.getHeader('content-type') ?? ''))) return payload;
  if (reply.getHeader('content-encoding') !== undefined) return payload;
  return compressBody(request, reply, typeof payload === 'string' ? Buffer.from(payload) : payload);
}

/** The tRPC adapter answers with a fetch Response: its headers and status become the reply's. */
async function compressFetchAnswer(request: TAcceptingRequest, reply: TReplyHeaders, payload: Response): Promise<unknown> {
  if (!/\bjson\b/.test(payload.headers.get('content-type') ?? '') || payload.headers.has('content-encoding')) return payload;
  const body = Buffer.from(await payload.arrayBuffer());
  reply.code(payload.status);
  payload.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return compressBody(request, reply, body);
}

function compressBody(request: TAcceptingRequest, reply: TReplyHeaders, body: Buffer): Buffer {
  if (body.length < MIN_COMPRESSED_BYTES) return body;
  const encoding = pickEncoding(request.headers['accept-encoding']);
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  if (!encoding) return body;
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(body, { level: 6 });
}
