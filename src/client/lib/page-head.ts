import type { TVisitorView } from '../../shared/prerender.ts';

/*
 * The page's title and description as the server renders a page (decision 033). In the browser
 * the hooks set them in effects, which never run on the server, so while the server renders they
 * are noted here and written into the page's head.
 */

type THead = Omit<TVisitorView, 'markup'>;

let noting: THead | undefined;

/** Runs `render` (synchronous, as renderToString is) and hands back what it produced and the head it asked for. */
export function withPageHead(render: () => string): TVisitorView {
  noting = {};
  try {
    const markup = render();
    return { markup, ...noting };
  } finally {
    noting = undefined;
  }
}

/** Called while rendering: on the server it notes the page's head; in the browser it does nothing. */
export function notePageHead(head: THead): void {
  if (noting) Object.assign(noting, head);
}
