import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import type { TFileToServe } from './file-urls.ts';
import type { FileStorage, TStoredObjectInfo } from './storage.ts';

export type TByteRange = { start: number; end: number };

/**
 * The one range a `Range` header asks for, within a file of `size` bytes: `bytes=a-b`, `bytes=a-`
 * or `bytes=-n`. Undefined when the header is absent, not understood or asks for several ranges
 * (the whole file is sent); 'unsatisfiable' when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): TByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const sameTag = (a: string, b: string) => a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** A request whose copy is still good (If-None-Match, If-Modified-Since) gets 304. */
function isFresh(request: FastifyRequest, info: TStoredObjectInfo): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch) return noneMatch.split(',').some((tag) => tag.trim() === '*' || sameTag(tag.trim(), info.etag));
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(info.modifiedAt.getTime() / 1000) * 1000 <= since;
}

/** If-Range: the range holds only while the file is the one the client has part of. */
function rangeStillApplies(request: FastifyRequest, info: TStoredObjectInfo): boolean {
  const header = request.headers['if-range'];
  if (!header) return true;
  const ifRange = String(header);
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return !info.etag.startsWith('W/') && ifRange === info.etag;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(info.modifiedAt.getTime() / 1000) * 1000 <= date;
}

/**
 * nginx answers a Range header itself: the request is handed over only when it would answer it as
 * the portal does (no Range, or one range the portal takes). An If-Range, or a Range the portal
 * reads as the whole file (several ranges, a malformed one), is answered here.
 */
function handsOverRange(request: FastifyRequest, range: TByteRange | undefined): boolean {
  if (request.headers['if-range']) return false;
  return request.headers.range === undefined || range !== undefined;
}

/**
 * Stored files are served as data, never as something a browser would run. Range requests are
 * answered (206 with Content-Range), so a video can be sought without downloading it whole; the
 * bytes come from the storage driver (a file on disk, or a ranged GET on the bucket), or, when the
 * nginx in front sends the files on the disk (`files.internalRedirect`), from nginx by sendfile:
 * the portal answers the headers with an X-Accel-Redirect and nginx answers the same Range
 * (deploy/nginx.conf, decision 054).
 */
export async function sendStoredFile(files: FileStorage, request: FastifyRequest, reply: FastifyReply, file: TFileToServe, cache: string) {
  const info = await files.stat(file.area, file.name);
  if (!info) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  reply
    .header('content-type', file.mime)
    .header('content-disposition', `${file.image || file.mime === 'application/pdf' || file.mime.startsWith('video/') ? 'inline' : 'attachment'}; filename="${file.downloadName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', cache)
    .header('accept-ranges', 'bytes')
    .header('etag', info.etag)
    .header('last-modified', info.modifiedAt.toUTCString());

  if (isFresh(request, info)) return reply.code(304).send();

  const range = rangeStillApplies(request, info) ? parseRange(request.headers.range, info.bytes) : undefined;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${info.bytes}`).header('content-type', 'text/plain').send('');
  }
  if (files.internalRedirect && handsOverRange(request, range)) {
    // nginx keeps the headers above (its location copies those it would drop) and sends the file.
    return reply.header('x-accel-redirect', files.internalRedirect(file.area, file.name)).send();
  }
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.bytes}`);
  const length = range ? range.end - range.start + 1 : info.bytes;
  reply.header('content-length', length);
  // A HEAD answer keeps the length it announces: an empty stream stands in for the bytes.
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await files.read(file.area, file.name, range));
}
