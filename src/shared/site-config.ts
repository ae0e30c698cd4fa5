import { z } from 'zod';

/** What the public pages show about the academy; set by the operator through the environment. */
export const ZSiteConfig = z.object({
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
export type TSiteConfig = z.infer<typeof ZSiteConfig>;

/** The id of the JSON script element the server fills in index.html. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';
/** The marker in index.html that the server replaces with the configuration. */
export const SITE_CONFIG_MARKER = '<!--site-config-->';
