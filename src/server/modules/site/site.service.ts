import type { TSiteConfig } from '../../../shared/site-config.ts';

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
