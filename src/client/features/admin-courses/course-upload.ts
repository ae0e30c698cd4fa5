import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths.ts';
import { isExpired } from '@/lib/access-token.ts';
import { readAccessToken } from '@/lib/session.ts';
import { readRefreshToken } from '@/lib/session-store.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session-refresh.ts';

/** The server's answer: its message, and on a refusal the error per field. */
export type TCourseUploadAnswer = {
  ok: boolean;
  status: number;
  message?: string;
  errors?: Record<string, string>;
};

/** No answer came (offline, connection dropped). */
export class CourseUploadNetworkError extends Error {
  override name = 'CourseUploadNetworkError';
}

function readAnswer(status: number, text: string): TCourseUploadAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const record = body && typeof body === 'object' ? (body as { message?: unknown; error?: unknown; errors?: unknown }) : {};
  // The course routes carry the error's text in `error` as well as `message`.
  const message =
    typeof record.error === 'string' ? record.error : typeof record.message === 'string' ? record.message : undefined;
  const errors =
    record.errors && typeof record.errors === 'object'
      ? Object.fromEntries(
          Object.entries(record.errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : undefined;
  return { ok: status >= 200 && status < 300, status, message, errors };
}

/** Sends the course form with XMLHttpRequest, which (unlike fetch) reports how much has been sent. */
function sendCourseForm(
  method: 'POST' | 'PUT',
  url: string,
  body: FormData,
  token: string | null,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<TCourseUploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve(readAnswer(xhr.status, xhr.responseText));
    xhr.onerror = () => reject(new CourseUploadNetworkError('No answer from the server.'));
    xhr.onabort = () => reject(new CourseUploadNetworkError('The upload was stopped.'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * Uploads the course form with progress (0 to 100, null when idle). An expired access token is
 * renewed first rather than sending megabytes to be refused, and once more after a 401; if the
 * session cannot be renewed the administrator is sent to log in again.
 */
export function useCourseUpload() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [percent, setPercent] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen stops an upload in flight.
  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(
    async (method: 'POST' | 'PUT', url: string, body: FormData): Promise<TCourseUploadAnswer> => {
      const abort = new AbortController();
      controller.current = abort;
      setPercent(0);
      const send = (token: string | null) =>
        sendCourseForm(method, url, body, token, (fraction) => setPercent(Math.min(100, Math.round(fraction * 100))), abort.signal);
      try {
        let token = readAccessToken();
        if (token && isExpired(token, EXPIRY_MARGIN_MS) && readRefreshToken()) token = await refreshAccessToken();
        let answer = await send(token);
        if (answer.status === 401 && token) {
          const renewed = await refreshAccessToken();
          if (renewed) {
            setPercent(0);
            answer = await send(renewed);
          }
        }
        if (answer.status === 401) navigate(paths.adminLogin, { replace: true, state: { from: pathname + search } });
        return answer;
      } finally {
        controller.current = null;
        setPercent(null);
      }
    },
    [navigate, pathname, search],
  );

  return { percent, upload };
}
