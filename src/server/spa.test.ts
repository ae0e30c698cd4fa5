import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStylesheets, withFrame, withVisitorView } from './spa.ts';

const INDEX = `<!doctype html><html><head>
<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">
<link rel="stylesheet" crossorigin href="/assets/broken-b2.css">
<script type="module" crossorigin src="/assets/entry-c3.js"></script>
</head><body><div id="root"></div></body></html>`;

function clientDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-'));
  mkdirSync(path.join(dir, 'assets'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'assets', name), text);
  return dir;
}

describe('a server-drawn page (decision 037)', () => {
  it('carries its stylesheet inline and names its code without fetching it', () => {
    const dir = clientDir({ 'framework-a1.css': '.a{color:red}', 'broken-b2.css': '.b{content:"</style><script>"}' });
    const sheets = loadStylesheets(dir, INDEX);
    const html = withVisitorView(INDEX, { markup: '<h1>Login</h1>' }, sheets);

    // Its link stays, disabled: the browser fetches nothing, the code's loader sees it is there.
    expect(html).toContain('<style>.a{color:red}</style><link rel="stylesheet" crossorigin href="/assets/framework-a1.css" disabled>');
    expect(html).not.toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
    // A text that could close the element stays a link.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/broken-b2.css">');
    expect(html).not.toContain('</style><script>');
    // The entry is named for the head script, without a rel that would fetch it before the paint.
    expect(html).toContain('<link data-code crossorigin fetchpriority="low" href="/assets/entry-c3.js" data-entry>');
    expect(html).not.toMatch(/<script type="module"/);
    expect(html).toContain('<div id="root" data-prerendered><h1>Login</h1></div>');
  });

  it('is left as it is without a view, and without stylesheets to inline it links them', () => {
    expect(withVisitorView(INDEX, undefined, loadStylesheets(clientDir({ 'framework-a1.css': '.a{}' }), INDEX))).toBe(INDEX);
    const html = withVisitorView(INDEX, { markup: '' }, loadStylesheets(undefined, INDEX));
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/framework-a1.css">');
  });
});

describe("a signed-in page's frame (decision 038)", () => {
  it('sits in the root, marked for the app to replace, with the stylesheet inline and the code left as it is', () => {
    const sheets = loadStylesheets(clientDir({ 'framework-a1.css': '.a{color:red}' }), INDEX);
    const html = withFrame(INDEX, '<header>Academy</header><main>Loading…</main>', sheets);
    expect(html).toContain('<div id="root" data-frame><header>Academy</header><main>Loading…</main></div>');
    expect(html).toContain('<style>.a{color:red}</style><link rel="stylesheet" crossorigin href="/assets/framework-a1.css" disabled>');
    // The code runs at once, as on any page the browser draws: no head script, no held links.
    expect(html).toContain('<script type="module" crossorigin src="/assets/entry-c3.js"></script>');
    expect(html).not.toContain('data-code');
    expect(html).not.toContain('data-prerendered');
  });

  it('leaves a page without one as it is', () => {
    expect(withFrame(INDEX, undefined, new Map([['/assets/framework-a1.css', '.a{}']]))).toBe(INDEX);
  });
});
