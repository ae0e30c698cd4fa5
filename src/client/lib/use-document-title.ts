import { useEffect } from 'react';
import { notePageHead } from '@/lib/page-head.ts';
import { useSiteConfig } from '@/lib/site-config.ts';

/** Sets the tab title to "<page> · <academy>", or just the academy's name when no page title is given. */
export function useDocumentTitle(pageTitle?: string): void {
  const { name } = useSiteConfig();
  const title = pageTitle ? `${pageTitle} · ${name}` : name;
  notePageHead({ title });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
