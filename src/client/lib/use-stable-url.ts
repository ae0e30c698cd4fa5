import { useCallback, useState } from 'react';

/**
 * A signed link that stays the same while it still works. The server signs media links afresh on
 * every read (their expiry moves with the clock), and a <video> whose src changes starts over: so
 * the first link for `identity` (a video and its size) is kept until `identity` changes or the
 * caller takes the newest with `renew` (after a media error: the link expired).
 */
export function useStableUrl(identity: string, latest: string | undefined): [string | undefined, (url?: string) => void] {
  const [held, setHeld] = useState({ identity, url: latest });
  let current = held;
  if (held.identity !== identity || (held.url === undefined && latest !== undefined)) {
    current = { identity, url: latest };
    setHeld(current);
  }
  const renew = useCallback((url?: string) => setHeld({ identity, url: url ?? latest }), [identity, latest]);
  return [current.url, renew];
}
