import { useState } from 'react';

/** Copies a path of this site as a whole address, and says whether the clipboard took it. */
export function useCopyLink(path: string) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  function copy() {
    navigator.clipboard.writeText(`${window.location.origin}${path}`).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  }
  return { copied, copy };
}
