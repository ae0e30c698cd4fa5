import { SCREEN_ROUTES, type TAdminPageWidth, type TScreenHeading } from '@/config/routes.ts';

export type { TAdminPageWidth };

/** An admin screen's heading, its one line of explanation, and its width. */
export type TAdminPageHead = TScreenHeading;

/**
 * The headings of the admin screens whose heading does not depend on their data (`heading` in
 * config/routes.ts), by route. The screen draws its heading from here, and so does the frame the
 * server sends for its page (decision 040): the administrator reads where they are before the
 * screen's code has come, and the heading stays where it is when the screen replaces the frame.
 */
const ADMIN_PAGE_HEADS: ReadonlyMap<string, TAdminPageHead> = new Map(
  SCREEN_ROUTES.flatMap(({ pattern, heading }) => (heading ? [[pattern, heading] as const] : [])),
);

/** The heading of the admin screen at `pathname`, when the table gives it one. */
export function adminPageHead(pathname: string): TAdminPageHead | undefined {
  return ADMIN_PAGE_HEADS.get(pathname);
}

/** The heading of the admin screen at route `pattern`, which the table must give it. */
export function adminPageHeadOf(pattern: string): TAdminPageHead {
  const head = ADMIN_PAGE_HEADS.get(pattern);
  if (!head) throw new Error(`config/routes.ts gives ${pattern} no heading`);
  return head;
}
