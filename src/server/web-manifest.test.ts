import { describe, expect, it } from 'vitest';
import { shortNameOf, webManifest } from './web-manifest.ts';

const site = {
  name: 'Maritime Training Academy',
  tagline: 'Learn at sea',
  email: 'a@b.c',
  phone: '1',
  city: 'Mumbai',
  social: { facebook: '', linkedin: '', instagram: '' },
};

describe('the web app manifest', () => {
  it("carries the academy's configured name, opens on the dashboard, standalone, with any and maskable icons", () => {
    const manifest = webManifest(site);
    expect(manifest).toMatchObject({ name: 'Maritime Training Academy', short_name: 'Maritime', start_url: '/dashboard', display: 'standalone', theme_color: '#0b2545' });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']);
  });

  it('shortens a long name to fit under an icon', () => {
    expect(shortNameOf('Sea Academy')).toBe('Sea Academy');
    expect(shortNameOf('Mumbai Maritime Institute')).toBe('Mumbai');
    expect(shortNameOf('Oceanographicalschool of Goa')).toBe('Oceanographi');
  });
});
