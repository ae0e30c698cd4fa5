import { useEffect } from 'react';
import { useSiteConfig } from '@/lib/site-config.ts';

/** Sets the tab title to "<page> · <academy>", or just the academy's name when no page title is given. */
export function useDocumentTitle(pageTitle?: string): void {
  const { name } = useSiteConfig();
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${name}` : name;
  }, [pageTitle, name]);
}
