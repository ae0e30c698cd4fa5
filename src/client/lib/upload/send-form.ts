/** A multipart form for one of the REST upload routes. */
export type TUploadRequest = {
  method: 'POST' | 'PUT';
  url: string;
  body: FormData;
};

/**
 * How an upload ended. `saved`: the server accepted it (2xx) and answered `body`. `refused`: it
 * answered with an error: its `message`, the same text in `error` on the course routes, and for
 * form fields one message each in `errors`. `network`: no answer came (offline, connection
 * dropped). `cancelled`: the upload was stopped here.
 */
export type TUploadResult =
  | { outcome: 'saved'; status: number; body: unknown }
  | { outcome: 'refused'; status: number; message?: string; error?: string; errors?: Record<string, string> }
  | { outcome: 'network' }
  | { outcome: 'cancelled' };

type TSendOptions = {
  /** The access token to send, if any. */
  token: string | null;
  /** Called with the share of the body sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The refusal's words: `message`, `error` and the per-field `errors` (non-text entries dropped). */
function refusal(status: number, body: unknown): TUploadResult {
  const record = body && typeof body === 'object' ? (body as { message?: unknown; error?: unknown; errors?: unknown }) : {};
  const errors =
    record.errors && typeof record.errors === 'object'
      ? Object.fromEntries(Object.entries(record.errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : undefined;
  return { outcome: 'refused', status, message: text(record.message), error: text(record.error), errors };
}

/**
 * Sends a multipart body with XMLHttpRequest, which (unlike fetch) reports how much has been sent.
 * Never rejects: every ending is a TUploadResult.
 */
export function sendForm({ method, url, body }: TUploadRequest, { token, onProgress, signal }: TSendOptions): Promise<TUploadResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ outcome: 'cancelled' });
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    const stop = () => xhr.abort();
    const settle = (result: TUploadResult) => {
      signal?.removeEventListener('abort', stop);
      resolve(result);
    };
    xhr.onload = () => {
      const json = readJson(xhr.responseText);
      settle(xhr.status >= 200 && xhr.status < 300 ? { outcome: 'saved', status: xhr.status, body: json } : refusal(xhr.status, json));
    };
    xhr.onerror = () => settle({ outcome: 'network' });
    xhr.onabort = () => settle({ outcome: 'cancelled' });
    signal?.addEventListener('abort', stop, { once: true });
    xhr.send(body);
  });
}
