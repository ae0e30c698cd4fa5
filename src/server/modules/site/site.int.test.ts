import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_CONFIG_MARKER } from '../../../shared/site-config.ts';
import { describe, expect, it, test } from '../../../testing/portal-test.ts';

// eslint-disable-next-line no-empty-pattern -- Vitest reads what a fixture needs from its first parameter's pattern
test.override('portalOptions', { scope: 'file' }, ({}) => {
  const clientDir = path.join(process.env.TMPDIR ?? '/tmp', `client-site-${process.pid}-${Date.now()}`);
  mkdirSync(clientDir, { recursive: true });
  writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><script>${SITE_CONFIG_MARKER}</script>`);
  return { clientDir, env: { PUBLIC_URL: 'https://academy.example/' } };
});

describe('what crawlers read', () => {
  it('/robots.txt is plain text that keeps the private areas out and names the sitemap', async ({ portal }) => {
    const res = await portal.app.inject({ url: '/robots.txt', headers: { accept: 'text/html,*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^User-agent: \*$/m);
    for (const path of ['/api/', '/trpc/', '/admin-dashboard', '/dashboard', '/profile']) {
      expect(res.body).toContain(`Disallow: ${path}\n`);
    }
    expect(res.body).toContain('Sitemap: https://academy.example/sitemap.xml');
    expect(res.body).not.toContain('<');
  });

  it('/sitemap.xml lists the public pages at PUBLIC_URL', async ({ portal }) => {
    const res = await portal.app.inject({ url: '/sitemap.xml', headers: { accept: 'text/html,*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locations = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual([
      'https://academy.example/',
      'https://academy.example/courses',
      'https://academy.example/about',
      'https://academy.example/contact',
      'https://academy.example/registration',
      'https://academy.example/login',
    ]);
  });
});
