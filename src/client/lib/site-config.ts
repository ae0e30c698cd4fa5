import {
  SITE_CONFIG_ELEMENT_ID,
  SITE_CONFIG_MARKER,
  type TSiteConfig,
  ZSiteConfig,
} from '../../shared/site-config.ts';

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
  const result = ZSiteConfig.safeParse(json);
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
