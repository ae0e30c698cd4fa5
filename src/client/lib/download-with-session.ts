import { isExpired } from '@/lib/session/access-token.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session/session-refresh.ts';
import { canRenewSession } from '@/lib/session/session-store.ts';
import { readAccessToken } from '@/lib/session/session.ts';
import { readCounting } from '@/lib/read-counting.ts';

/** How a download ended: saved under its name, the session gone (sign in again), or refused. */
export type TFileDownload = { outcome: 'saved'; fileName: string } | { outcome: 'unauthorized' } | { outcome: 'failed'; message?: string };

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallback;
}

async function fetchWith(url: string, token: string | null): Promise<Response> {
  return fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' });
}

/**
 * Downloads a file the server gives only to a signed-in caller (an administrator's export): a link
 * cannot carry the bearer token, so the file is fetched, then handed to the browser's own download
 * as a blob. An expired token is renewed first, and once more after a 401. The file keeps the name
 * the server gives it (Content-Disposition), else `fallbackName`; a refusal keeps its message.
 * `onProgress` is told the bytes received as they arrive.
 */
export async function downloadWithSession(url: string, fallbackName: string, options: { onProgress?: (receivedBytes: number) => void } = {}): Promise<TFileDownload> {
  let token = readAccessToken();
  if (token && isExpired(token, EXPIRY_MARGIN_MS) && canRenewSession()) token = await refreshAccessToken();
  let response: Response;
  try {
    response = await fetchWith(url, token);
    if (response.status === 401 && token) {
      const renewed = await refreshAccessToken();
      if (renewed) response = await fetchWith(url, renewed);
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
  let blob: Blob;
  try {
    blob = options.onProgress ? await readCounting(response, options.onProgress) : await response.blob();
  } catch {
    // The connection broke while the file was coming.
    return { outcome: 'failed' };
  }
  const fileName = fileNameOf(response, fallbackName);
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
