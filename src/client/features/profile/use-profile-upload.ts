import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths.ts';
import { isExpired } from '@/lib/access-token.ts';
import { readAccessToken } from '@/lib/session.ts';
import { readRefreshToken } from '@/lib/session-store.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session-refresh.ts';
import { sendProfileForm, type TUploadAnswer } from '@/features/profile/profile-upload.ts';

/** null while nothing is being sent; else the share of the files sent, 0 to 100. */
export type TUploadPercent = number | null;

/**
 * Uploads a profile form with progress and a way to cancel. The access token is renewed first if it
 * has expired (rather than sending megabytes to be refused), and once more after a 401; when the
 * session cannot be renewed the learner is sent to log in.
 */
export function useProfileUpload() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [percent, setPercent] = useState<TUploadPercent>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen stops an upload in flight.
  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(
    async (method: 'POST' | 'PUT', url: string, body: FormData): Promise<TUploadAnswer> => {
      const abort = new AbortController();
      controller.current = abort;
      setPercent(0);
      const send = (token: string | null) =>
        sendProfileForm({
          method,
          url,
          body,
          token,
          signal: abort.signal,
          onProgress: (fraction) => setPercent(Math.min(100, Math.round(fraction * 100))),
        });
      try {
        let token = readAccessToken();
        if (token && isExpired(token, EXPIRY_MARGIN_MS) && readRefreshToken()) token = await refreshAccessToken();
        let answer = await send(token);
        if (!answer.ok && answer.status === 401 && token) {
          const renewed = await refreshAccessToken();
          if (renewed) {
            setPercent(0);
            answer = await send(renewed);
          }
        }
        if (!answer.ok && answer.status === 401) navigate(paths.login, { replace: true, state: { from: pathname } });
        return answer;
      } finally {
        controller.current = null;
        setPercent(null);
      }
    },
    [navigate, pathname],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { percent, upload, cancel };
}
