import { isExpired } from '@/lib/access-token.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session-refresh.ts';
import { canRenewSession } from '@/lib/session-store.ts';
import { readAccessToken } from '@/lib/session.ts';

/** Where the export lives: every attempt matching the search, as a CSV file. */
export function resultsCsvUrl(search: string): string {
  return search ? `/api/submitTest.csv?search=${encodeURIComponent(search)}` : '/api/submitTest.csv';
}

export type TCsvDownload = { outcome: 'saved'; fileName: string } | { outcome: 'unauthorized' } | { outcome: 'failed'; message?: string };

function fileNameOf(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'test-results.csv';
}

async function fetchCsv(url: string, token: string | null): Promise<Response> {
  return fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' });
}

/**
 * Downloads the export with the administrator's session (a link cannot carry the bearer token):
 * the file is fetched, then handed to the browser's own download as a blob. An expired token is
 * renewed first, and once more after a 401.
 */
export async function downloadResultsCsv(search: string): Promise<TCsvDownload> {
  const url = resultsCsvUrl(search);
  let token = readAccessToken();
  if (token && isExpired(token, EXPIRY_MARGIN_MS) && canRenewSession()) token = await refreshAccessToken();
  let response: Response;
  try {
    response = await fetchCsv(url, token);
    if (response.status === 401 && token) {
      const renewed = await refreshAccessToken();
      if (renewed) response = await fetchCsv(url, renewed);
    }
  } catch {
    return { outcome: 'failed' };
  }
  if (response.status === 401) return { outcome: 'unauthorized' };
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const message = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : undefined;
    return { outcome: 'failed', message };
  }
  const blob = await response.blob();
  const fileName = fileNameOf(response);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file; the address is released once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  return { outcome: 'saved', fileName };
}
