import { createHmac } from 'node:crypto';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { FILE_KINDS } from './file-kinds.ts';
import { signFileUrl, verifyFileSignature } from './signed-url.ts';
import { FILE_AREAS, isStoredName, type TFileArea } from './storage.ts';

/** Course images are shown to visitors; every other area needs a signed URL. */
const PUBLIC_AREAS: ReadonlySet<TFileArea> = new Set(['courseImg']);

/** File URLs get a key of their own, derived from the token secret. */
export function fileUrlKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('file-urls').digest('base64url');
}

/**
 * A URL for a stored file. Services call this only after deciding the caller may see the file
 * (its owner, an administrator, an enrolled learner).
 */
export function fileUrl(deps: { jwtSecret: string }, area: TFileArea, name: string, now = new Date()): string {
  if (PUBLIC_AREAS.has(area)) return `/api/uploads/${area}/${name}`;
  return signFileUrl(fileUrlKey(deps.jwtSecret), area, name, now);
}

export type TFileToServe = { area: TFileArea; name: string; mime: string; downloadName: string; image: boolean };

function describe(area: TFileArea, name: string): TFileToServe {
  const ext = name.split('.').pop() ?? '';
  const kind = Object.values(FILE_KINDS).find((k) => k.ext === ext);
  if (!kind) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  return { area, name, mime: kind.mime, downloadName: `${area}-${name}`, image: kind.image };
}

function parseArea(area: string): TFileArea {
  if (!(FILE_AREAS as readonly string[]).includes(area)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  return area as TFileArea;
}

/** Checks a signed file URL; a wrong or altered signature answers like a missing file. */
export function authorizeSignedFile(
  deps: { jwtSecret: string },
  input: { area: string; name: string; expires?: string; signature?: string },
): TFileToServe {
  const area = parseArea(input.area);
  if (!isStoredName(input.name)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  const verdict = verifyFileSignature(fileUrlKey(deps.jwtSecret), area, input.name, input.expires, input.signature);
  if (verdict === 'expired') throw new AppError('FORBIDDEN', MESSAGES.files.linkExpired);
  if (verdict === 'invalid') throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  return describe(area, input.name);
}

export function authorizePublicFile(input: { area: string; name: string }): TFileToServe {
  const area = parseArea(input.area);
  if (!PUBLIC_AREAS.has(area) || !isStoredName(input.name)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  return describe(area, input.name);
}
