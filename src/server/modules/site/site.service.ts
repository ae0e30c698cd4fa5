import type { TSiteConfig } from '../../../shared/site-config.ts';
import { escapeMarkup } from '../../lib/markup.ts';

/** The academy's public details, from the operator's configuration (see env.ts for the defaults). */
export function siteConfigFromEnv(env: {
  ACADEMY_NAME: string;
  ACADEMY_TAGLINE: string;
  ACADEMY_EMAIL: string;
  ACADEMY_PHONE: string;
  ACADEMY_CITY: string;
  ACADEMY_FACEBOOK_URL: string;
  ACADEMY_LINKEDIN_URL: string;
  ACADEMY_INSTAGRAM_URL: string;
}): TSiteConfig {
  return {
    name: env.ACADEMY_NAME,
    tagline: env.ACADEMY_TAGLINE,
    email: env.ACADEMY_EMAIL,
    phone: env.ACADEMY_PHONE,
    city: env.ACADEMY_CITY,
    social: {
      facebook: env.ACADEMY_FACEBOOK_URL,
      linkedin: env.ACADEMY_LINKEDIN_URL,
      instagram: env.ACADEMY_INSTAGRAM_URL,
    },
  };
}

/** The public pages search engines may list; everything behind a login stays out. */
const INDEXED_PAGES = ['/', '/courses', '/about', '/contact', '/registration', '/login'] as const;
const UNINDEXED_PATHS = ['/api/', '/trpc/', '/admin-dashboard', '/backend', '/admin-setup', '/dashboard', '/profile', '/updateUserProfile', '/EnrollmentRequest', '/UserCource', '/training/', '/testPage/', '/certificate-report', '/my-certificates', '/otp', '/reset-password'] as const;

export function robotsTxt(baseUrl: string): string {
  return ['User-agent: *', ...UNINDEXED_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${baseUrl}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(baseUrl: string): string {
  const urls = INDEXED_PAGES.map((path) => `  <url><loc>${escapeMarkup(baseUrl + path)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}
