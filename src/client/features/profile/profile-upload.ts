import { ZProfileSaved, type TProfileSaved } from '../../../shared/schemas/profile.ts';

export const PROFILE_CREATE_URL = '/api/userProfile';
export const PROFILE_UPDATE_URL = '/api/userProfile/update';

/** The server's answer to a refused submission: a message and, for form fields, one per field. */
export type TUploadRefusal = { status: number; message?: string; errors?: Record<string, string> };

export type TUploadAnswer = { ok: true; saved: TProfileSaved } | ({ ok: false } & TUploadRefusal);

/** The upload was cancelled by the learner. */
export class UploadCancelledError extends Error {
  override name = 'UploadCancelledError';
}

/** No answer came (offline, connection dropped). */
export class UploadNetworkError extends Error {
  override name = 'UploadNetworkError';
}

type TSendOptions = {
  method: 'POST' | 'PUT';
  url: string;
  body: FormData;
  token: string | null;
  /** Called with the share of the body sent so far, 0 to 1. */
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
};

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function refusal(status: number, body: unknown): TUploadRefusal {
  if (!body || typeof body !== 'object') return { status };
  const record = body as { message?: unknown; errors?: unknown };
  const errors =
    record.errors && typeof record.errors === 'object'
      ? Object.fromEntries(Object.entries(record.errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : undefined;
  return { status, message: typeof record.message === 'string' ? record.message : undefined, errors };
}

/**
 * Sends a multipart body with XMLHttpRequest, which (unlike fetch) reports upload progress.
 * Resolves with the saved profile or the server's refusal; rejects when cancelled or unanswered.
 */
export function sendProfileForm({ method, url, body, token, onProgress, signal }: TSendOptions): Promise<TUploadAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new UploadCancelledError());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const json = readJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = ZProfileSaved.safeParse(json);
        if (parsed.success) resolve({ ok: true, saved: parsed.data });
        else resolve({ ok: false, status: xhr.status });
        return;
      }
      resolve({ ok: false, ...refusal(xhr.status, json) });
    };
    xhr.onerror = () => reject(new UploadNetworkError('No answer from the server.'));
    xhr.onabort = () => reject(new UploadCancelledError('The upload was cancelled.'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
