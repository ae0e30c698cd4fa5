import { useEffect } from 'react';
import { notePageHead } from '@/lib/page-head.ts';

function metaTag(name: string): HTMLMetaElement {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = name;
    document.head.append(tag);
  }
  return tag;
}

/**
 * The page's description for search engines and link previews, and whether it may be indexed
 * (a page about one person, such as a certificate's check, may not). Both are put back when the
 * page is left.
 */
export function usePageMeta({ description, noIndex = false }: { description: string; noIndex?: boolean }): void {
  notePageHead({ description });
  useEffect(() => {
    const tag = metaTag('description');
    const before = tag.content;
    tag.content = description;
    return () => {
      tag.content = before;
    };
  }, [description]);

  useEffect(() => {
    if (!noIndex) return;
    const tag = metaTag('robots');
    tag.content = 'noindex';
    return () => tag.remove();
  }, [noIndex]);
}
