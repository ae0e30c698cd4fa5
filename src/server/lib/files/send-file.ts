import type { FastifyReply } from 'fastify';
import type { TFileToServe } from './file-urls.ts';
import type { FileStorage } from './storage.ts';

/**
 * Stored files are served as data, never as something a browser would run. Range requests are
 * answered (206), so a video can be sought without downloading it whole.
 */
export function sendStoredFile(files: FileStorage, reply: FastifyReply, file: TFileToServe, cache: string) {
  reply
    .header('content-type', file.mime)
    .header('content-disposition', `${file.image || file.mime === 'application/pdf' || file.mime.startsWith('video/') ? 'inline' : 'attachment'}; filename="${file.downloadName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', cache);
  return reply.sendFile(file.name, files.areaDir(file.area), { contentType: false, cacheControl: false });
}
