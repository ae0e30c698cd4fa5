import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TScreenRoute } from '../client/config/routes.ts';
import { loadClientCode, loadStylesheets, pageCode, withFrame, withVisitorView } from './spa.ts';

/** index.html as the build writes it: a template with no script or stylesheet of Vite's. */
const INDEX = `<!doctype html><html><head>
<title>Academy</title>
</head><body><div id="root"></div></body></html>`;

/**
 * A build's manifest (Vite's build.manifest): the entry with its framework file and stylesheets,
 * screens placed in files named after their chunk, one screen kept in a file of its own, the
 * frames (`app`, `admin`) and a file two screens share.
 */
const MANIFEST = {
  'main.tsx': { file: 'assets/main-1.js', name: 'main', isEntry: true, imports: ['_framework.js'] },
  '_framework.js': { file: 'assets/framework-2.js', name: 'framework', css: ['assets/framework-a1.css', 'assets/broken-b2.css'] },
  '_app.js': { file: 'assets/app-3.js', name: 'app', imports: ['_framework.js'] },
  '_admin.js': { file: 'assets/admin-4.js', name: 'admin', imports: ['_app.js', '_framework.js'] },
  '_account.js': { file: 'assets/account-5.js', name: 'account', imports: ['_forms.js', '_framework.js'] },
  '_forms.js': { file: 'assets/forms-6.js', name: 'account+admin-forms', imports: ['_framework.js'] },
  '_admin-forms.js': { file: 'assets/admin-forms-7.js', name: 'admin-forms', imports: ['_admin.js', '_forms.js'] },
  'features/about/about-page.tsx': { file: 'assets/about-page-8.js', name: 'about-page', isDynamicEntry: true, imports: ['_framework.js'] },
};

const route = (pattern: string, module: string, chunk: string, more: Partial<TScreenRoute> = {}): TScreenRoute => ({
  pattern,
  module,
  component: 'Screen',
  area: 'public',
  chunk,
  ...more,
});

const ROUTES: TScreenRoute[] = [
  route('/', 'features/home/home-page.tsx', 'entry', { dataProviders: false }),
  route('/about', 'features/about/about-page.tsx', 'public', { dataProviders: false }),
  route('/login', 'features/auth/login-page.tsx', 'account'),
  route('/verify/*', 'features/certificates/verify-page.tsx', 'verify'),
  route('/admin-dashboard/test-form', 'features/admin-tests/test-form-page.tsx', 'admin-forms', { area: 'admin' }),
];

function clientDir(files: Record<string, string>, manifest: object = MANIFEST): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'assets', name), text);
  return dir;
}

describe("the client's code, from the build's manifest", () => {
  const code = loadClientCode(clientDir({}), ROUTES)!;

  it("names the entry's script and the stylesheets it loads", () => {
    expect(code.entry).toEqual({
      script: '/assets/main-1.js',
      imports: ['/assets/framework-2.js'],
      stylesheets: ['/assets/framework-a1.css', '/assets/broken-b2.css'],
    });
  });

  it("preloads a route's file, the frames it comes inside and what they import, less what the entry loads", () => {
    // The account screens, inside the data providers, with the forms' file they import.
    expect(code.match('/login')).toEqual({ pattern: '/login', files: ['/assets/account-5.js', '/assets/forms-6.js', '/assets/app-3.js'] });
    // An admin screen: its group, the admin frame and the providers it imports.
    expect(code.match('/admin-dashboard/test-form')?.files.sort()).toEqual(
      ['/assets/admin-forms-7.js', '/assets/admin-4.js', '/assets/app-3.js', '/assets/forms-6.js'].sort(),
    );
    // A module the build kept in a file of its own is found by its path; no providers for a screen without data.
    expect(code.match('/about')?.files).toEqual(['/assets/about-page-8.js']);
    // The home page is all in the entry.
    expect(code.match('/')).toEqual({ pattern: '/', files: [] });
  });

  it('matches paths as the router does: without regard to case, with a trailing slash, a splat also matching nothing', () => {
    expect(code.match('/LOGIN/')?.pattern).toBe('/login');
    expect(code.match('/verify')?.pattern).toBe('/verify/*');
    expect(code.match('/verify/MTA/2026/000123')?.pattern).toBe('/verify/*');
    expect(code.match('/verifying')).toBeUndefined();
    expect(code.match('/login/more')).toBeUndefined();
  });

  it('names the routes whose screen the build placed nowhere', () => {
    expect(code.unplaced).toEqual(['/verify/*']);
  });

  it('is undefined without a manifest: the page is then sent as index.html is', () => {
    expect(loadClientCode(undefined, ROUTES)).toBeUndefined();
    expect(loadClientCode(mkdtempSync(path.join(tmpdir(), 'client-')), ROUTES)).toBeUndefined();
  });
});

describe('a server-drawn page (decision 037)', () => {
  const dir = clientDir({ 'framework-a1.css': '.a{color:red}', 'broken-b2.css': '.b{content:"</style><script>"}' });
  const code = loadClientCode(dir, ROUTES)!;
  const sheets = loadStylesheets(dir, code);

  it('carries its stylesheet inline and names its code without fetching it', () => {
    const html = withVisitorView(INDEX, { markup: '<h1>Login</h1>' }, pageCode(code, code.match('/login')!.files), sheets);

    // Its link stays, disabled: the browser fetches nothing, the code's loader sees it is there.
    expect(html).toContain('<style>.a{color:red}</style><link rel="stylesheet" crossorigin href="/assets/framework-a1.css" disabled>');
    expect(html).not.toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
    // A text that could close the element stays a link.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/broken-b2.css">');
    expect(html).not.toContain('</style><script>');
    // The entry and the route's files are named for the head script, without a rel that would fetch them before the paint.
    expect(html).toContain('<link data-code crossorigin fetchpriority="low" href="/assets/main-1.js" data-entry>');
    expect(html).toContain('<link data-code crossorigin fetchpriority="low" href="/assets/framework-2.js">');
    expect(html).toContain('<link data-code crossorigin fetchpriority="low" href="/assets/account-5.js">');
    expect(html).not.toMatch(/<script type="module"|<link rel="modulepreload"/);
    expect(html).toContain('<div id="root" data-prerendered><h1>Login</h1></div>');
  });

  it('without a view is a page the browser draws, and without stylesheets to inline it links them', () => {
    const page = withVisitorView(INDEX, undefined, pageCode(code), sheets);
    expect(page).toContain('<script type="module" crossorigin src="/assets/main-1.js"></script>');
    // What the entry imports downloads beside it, not after it.
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/framework-2.js">');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
    expect(page).not.toContain('<style>');
    expect(page).toContain('<div id="root"></div>');
    const html = withVisitorView(INDEX, { markup: '' }, pageCode(code), loadStylesheets(undefined, code));
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
  });
});

describe("a signed-in page's frame (decision 038)", () => {
  const dir = clientDir({ 'framework-a1.css': '.a{color:red}' });
  const code = loadClientCode(dir, ROUTES)!;
  const sheets = loadStylesheets(dir, code);

  it('sits in the root, marked for the app to replace, with the stylesheet inline and the code run at once', () => {
    const html = withFrame(INDEX, '<header>Academy</header><main>Loading…</main>', pageCode(code, code.match('/login')!.files), sheets);
    expect(html).toContain('<div id="root" data-frame><header>Academy</header><main>Loading…</main></div>');
    expect(html).toContain('<style>.a{color:red}</style><link rel="stylesheet" crossorigin href="/assets/framework-a1.css" disabled>');
    // The code runs at once, as on any page the browser draws: no head script, no held links.
    expect(html).toContain('<script type="module" crossorigin src="/assets/main-1.js"></script>');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/account-5.js">');
    expect(html).not.toContain('data-code');
    expect(html).not.toContain('data-prerendered');
  });

  it('leaves a page without one as the browser draws it', () => {
    const html = withFrame(INDEX, undefined, pageCode(code), sheets);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
    expect(html).not.toContain('<style>');
  });
});
