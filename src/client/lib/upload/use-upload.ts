import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isExpired } from '@/lib/session/access-token.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session/session-refresh.ts';
import { canRenewSession } from '@/lib/session/session-store.ts';
import { loginReturn } from '@/lib/session/login-return.ts';
import { readAccessToken, readStoredUserId } from '@/lib/session/session.ts';
import { sendForm, type TUploadRequest, type TUploadResult } from '@/lib/upload/send-form.ts';

type TSessionUploadOptions = {
  /** The share of the body sent so far, 0 to 1; starts again from 0 when the upload is retried. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

function isUnauthorized(result: TUploadResult): boolean {
  return result.outcome === 'refused' && result.status === 401;
}

/**
 * Sends an upload with the stored session. An expired access token is renewed first, rather than
 * sending megabytes to be refused; after a 401 the token is renewed once more and the upload sent
 * again. A 401 in the result means the session could not be renewed.
 */
async function uploadWithSession(request: TUploadRequest, { onProgress, signal }: TSessionUploadOptions = {}): Promise<TUploadResult> {
  let token = readAccessToken();
  if (token && isExpired(token, EXPIRY_MARGIN_MS) && canRenewSession()) token = await refreshAccessToken();
  let result = await sendForm(request, { token, onProgress, signal });
  if (isUnauthorized(result) && token) {
    const renewed = await refreshAccessToken();
    if (renewed) {
      onProgress?.(0);
      result = await sendForm(request, { token: renewed, onProgress, signal });
    }
  }
  return result;
}

type TUploadOptions = {
  /**
   * Where the user logs in again when the session cannot be renewed (the upload ended in a 401):
   * the login screen of the caller's area. They come back to this page afterwards.
   */
  loginPath: string;
};

/**
 * One upload at a time, with its progress (`percent`: 0 to 100, null while idle) and a way to
 * cancel it; leaving the screen cancels it too. The session is renewed as uploadWithSession says;
 * when it cannot be, the user is sent to `loginPath`. `upload` never throws: it answers how the
 * upload ended.
 *
 * For several files, each with its own bar (training videos), give each file its own component
 * with its own useUpload: they run side by side, and each can be cancelled alone.
 */
export function useUpload({ loginPath }: TUploadOptions) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [percent, setPercent] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(
    async (request: TUploadRequest): Promise<TUploadResult> => {
      const abort = new AbortController();
      controller.current = abort;
      // Whose session it is now: a refusal brings only them back here after logging in again.
      const userId = readStoredUserId();
      setPercent(0);
      try {
        const result = await uploadWithSession(request, {
          signal: abort.signal,
          onProgress: (fraction) => setPercent(Math.min(100, Math.round(fraction * 100))),
        });
        if (isUnauthorized(result)) navigate(loginPath, { replace: true, state: loginReturn(pathname + search, userId) });
        return result;
      } finally {
        if (controller.current === abort) controller.current = null;
        setPercent(null);
      }
    },
    [navigate, loginPath, pathname, search],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { percent, upload, cancel };
}
