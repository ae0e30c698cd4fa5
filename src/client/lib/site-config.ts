import type {
  SITE_CONFIG_ELEMENT_ID as SHARED_ELEMENT_ID,
  SITE_CONFIG_MARKER as SHARED_MARKER,
  TSiteConfig,
} from '../../shared/site-config.ts';

// Importing these values would also evaluate the shared module's classic zod schema and ship it
// with the home page; `typeof` makes the compiler check that they still equal the shared ones.
const SITE_CONFIG_ELEMENT_ID: typeof SHARED_ELEMENT_ID = 'site-config';
const SITE_CONFIG_MARKER: typeof SHARED_MARKER = '<!--site-config-->';

/** For each field of T, 'string' or the nested object's own shape. */
type Shape<T> = { [K in keyof T]-?: T[K] extends string ? 'string' : Shape<T[K]> };

/**
 * The shared ZSiteConfig, restated as a plain description checked by hand: even zod's "mini" API
 * costs the home page about 4 KB gzip before its first paint, and the site configuration is all
 * strings. The annotation makes the compiler reject any drift from the shared TSiteConfig type.
 */
const SITE_CONFIG_SHAPE: Shape<TSiteConfig> = {
  name: 'string',
  tagline: 'string',
  email: 'string',
  phone: 'string',
  city: 'string',
  social: { facebook: 'string', linkedin: 'string', instagram: 'string' },
};

type ShapeNode = 'string' | { [key: string]: ShapeNode };

/** A copy of `value` holding only the fields `shape` names; the path of each missing or mistyped one goes to `problems`. */
function pick(shape: ShapeNode, value: unknown, path: string, problems: string[]): unknown {
  if (shape === 'string') {
    if (typeof value !== 'string') problems.push(path || '(root)');
    return value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(path || '(root)');
    return undefined;
  }
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(shape).map(([key, inner]) => [key, pick(inner, record[key], path ? `${path}.${key}` : key, problems)]),
  );
}

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
  const problems: string[] = [];
  const config = pick(SITE_CONFIG_SHAPE, json, '', problems);
  if (problems.length > 0) {
    throw new SiteConfigError(`The academy's configuration in the page is incomplete or invalid (${problems.join(', ')}).`);
  }
  return config as TSiteConfig;
}

/** The academy's details where there is no page to read them from (the server's rendering, prerender.tsx). */
export function provideSiteConfig(config: TSiteConfig): void {
  cached = config;
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
