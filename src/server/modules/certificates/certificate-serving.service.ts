import { MESSAGES } from '../../../shared/messages.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { isStoredName } from '../../lib/files/storage.ts';
import { findByPdfFile, findPdfFileNames, findVersionByPdfFile } from './certificates.repository.ts';

const C = MESSAGES.certificate;
type Deps = Pick<AppDeps, 'db'>;

/** What /certificates/{filename} serves: the PDF, or why it no longer does. */
export type TCertificatePdf =
  | { state: 'ready'; name: string; number: string }
  | { state: 'revoked' }
  /** An earlier version's PDF: a re-issue replaced it with `currentVersion`. */
  | { state: 'superseded-version'; currentVersion: number };

/**
 * The PDF behind /certificates/{filename}: whoever holds the unguessable name may read it while
 * it is ready; a revoked certificate's is gone for good, and so is an earlier version's (it says
 * which version replaced it); an unknown name is not found.
 */
export async function certificatePdf(deps: Deps, filename: string): Promise<TCertificatePdf> {
  if (!isStoredName(filename) || !filename.endsWith('.pdf')) throw notFound(C.notFound);
  const row = await findByPdfFile(deps.db, filename);
  if (!row) {
    const earlier = await findVersionByPdfFile(deps.db, filename);
    if (!earlier) throw notFound(C.notFound);
    if (earlier.certificate.revokedAt) return { state: 'revoked' };
    return { state: 'superseded-version', currentVersion: earlier.certificate.version };
  }
  if (row.status !== 'ready') throw notFound(C.notFound);
  if (row.revokedAt) return { state: 'revoked' };
  return { state: 'ready', name: filename, number: row.number };
}

/** Which PDFs rows point to, earlier versions' too (their addresses still answer), for the sweep of left-over files. */
export function storedCertificateFileNames(deps: Pick<AppDeps, 'db'>): Promise<ReadonlySet<string>> {
  return findPdfFileNames(deps.db);
}
