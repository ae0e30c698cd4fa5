import { z } from 'zod/mini';
import type {
  SITE_CONFIG_ELEMENT_ID as SHARED_ELEMENT_ID,
  SITE_CONFIG_MARKER as SHARED_MARKER,
  TSiteConfig,
} from '../../shared/site-config.ts';

// Importing these values would also evaluate the shared module's classic zod schema and ship it
// with the home page; `typeof` makes the compiler check that they still equal the shared ones.
const SITE_CONFIG_ELEMENT_ID: typeof SHARED_ELEMENT_ID = 'site-config';
const SITE_CONFIG_MARKER: typeof SHARED_MARKER = '<!--site-config-->';

/**
 * The shared ZSiteConfig, restated with zod's tree-shakable "mini" API: the classic API would add
 * about 20 KB gzip to the home page, which reads this before its first paint. The annotation makes
 * the compiler reject any drift from the shared TSiteConfig type.
 */
const ZSiteConfigMini: z.ZodMiniType<TSiteConfig, TSiteConfig> = z.object({
  name: z.string(),
  tagline: z.string(),
  email: z.string(),
  phone: z.string(),
  city: z.string(),
  social: z.object({
    facebook: z.string(),
    linkedin: z.string(),
    instagram: z.string(),
  }),
});

/** Raised when the page was served without the academy's configuration filled in. */
export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

let cached: TSiteConfig | undefined;

function parseSiteConfig(): TSiteConfig {
  const element = document.getElementById(SITE_CONFIG_ELEMENT_ID);
  if (!element) {
    throw new SiteConfigError(
      `The page has no <script id="${SITE_CONFIG_ELEMENT_ID}"> element, so the academy's details cannot be shown.`,
    );
  }
  const text = (element.textContent ?? '').trim();
  if (text === '' || text === SITE_CONFIG_MARKER) {
    throw new SiteConfigError(
      `The academy's configuration was not filled in: the server must replace ${SITE_CONFIG_MARKER} in index.html with the site configuration JSON.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SiteConfigError('The academy\'s configuration in the page is not valid JSON.');
  }
  const result = ZSiteConfigMini.safeParse(json);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
    throw new SiteConfigError(`The academy's configuration in the page is incomplete or invalid (${fields}).`);
  }
  return result.data;
}

/** The academy's public details, read from the page once. Throws SiteConfigError if they are missing. */
export function getSiteConfig(): TSiteConfig {
  cached ??= parseSiteConfig();
  return cached;
}

/**
 * The academy's name, tagline, contact details and social links. A render that calls it while the
 * configuration is missing throws, and the nearest error boundary explains what went wrong.
 */
export function useSiteConfig(): TSiteConfig {
  return getSiteConfig();
}
