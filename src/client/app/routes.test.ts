import { describe, expect, it } from 'vitest';
import { SCREEN_LOADERS, routeAt } from '@/app/screens.tsx';
import { ADMIN_MENU, UNKNOWN_MENU_GROUPS } from '@/components/layouts/admin-menu.ts';
import { paths } from '@/config/paths.ts';
import { SCREEN_ROUTES, type TScreenRoute } from '@/config/routes.ts';

/*
 * The route table (config/routes.ts) against what the app can reach: every address of paths.ts is
 * a screen of the table, and every entry of the table is a screen the app can load.
 */

/**
 * Addresses of paths.ts that are links to another entry's screen rather than screens of their
 * own: the spec's spelling of a page (paths match without regard to case), a page with a query,
 * the bare /verify of the /verify/* splat.
 */
const LINKS_ONLY = ['signUp', 'verify', 'courseCertificate', 'admin.courses.edit'];

/** The not-found pages: every other address. An address they alone match has no screen. */
const CATCH_ALL = ['*', `${paths.admin.root}/*`];

/** Every leaf of paths.ts by its dotted name: a string, or a function with or without `.pattern`. */
function leavesOf(tree: object, prefix = ''): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, unknown]> => {
    const name = `${prefix}${key}`;
    return typeof value === 'object' && value !== null ? leavesOf(value, `${name}.`) : [[name, value]];
  });
}

/** The address a leaf of paths.ts names: itself, its pattern, or a link made with a sample value. */
function addressOf(leaf: unknown): string {
  if (typeof leaf === 'string') return leaf;
  if (typeof leaf === 'function') {
    if ('pattern' in leaf && typeof leaf.pattern === 'string') return leaf.pattern;
    return new URL((leaf as (value: string) => string)('sample'), 'http://academy.test').pathname;
  }
  throw new Error(`paths.ts has a leaf that names no address: ${String(leaf)}`);
}

/** A path the pattern matches (each parameter and the splat given a sample). */
const samplePath = (pattern: string) => `/${pattern.replace(/:\w+/g, 'sample').replace(/\*$/, 'sample/more')}`.replace(/^\/\//, '/');

describe('the route table', () => {
  it('has an entry for every address of paths.ts that is a screen, and the links lead to one', () => {
    const patterns = new Set(SCREEN_ROUTES.map((route) => route.pattern));
    const leaves = leavesOf(paths);
    const unlisted = leaves.filter(([name, leaf]) => !LINKS_ONLY.includes(name) && !patterns.has(addressOf(leaf))).map(([name]) => name);
    expect(unlisted, 'screens without an entry in config/routes.ts').toEqual([]);

    const deadLinks = leaves
      .filter(([name]) => LINKS_ONLY.includes(name))
      .filter(([, leaf]) => {
        const route = routeAt(addressOf(leaf));
        return !route || CATCH_ALL.includes(route.pattern);
      })
      .map(([name]) => name);
    expect(deadLinks, 'links that lead to no screen').toEqual([]);
    // The list of links stays true: each of them is still in paths.ts.
    expect(LINKS_ONLY.filter((name) => !leaves.some(([leaf]) => leaf === name))).toEqual([]);
  });

  it('gives each pattern one entry, which the server and the first render find at its addresses', () => {
    const patterns = SCREEN_ROUTES.map((route) => route.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    // The first matching entry is the one: nothing earlier in the table hides it (the not-found
    // pages come last).
    const hidden = SCREEN_ROUTES.filter((route) => routeAt(samplePath(route.pattern)) !== route).map((route) => route.pattern);
    expect(hidden).toEqual([]);
  });

  it('points every entry at a module of the loader map whose named export is a component', async () => {
    const missing = SCREEN_ROUTES.filter((route) => !SCREEN_LOADERS.has(route.module)).map((route) => route.module);
    expect(missing, 'modules the loader map (app/screens.tsx) does not have').toEqual([]);
    const withoutComponent: string[] = [];
    for (const route of SCREEN_ROUTES) {
      const module = await SCREEN_LOADERS.get(route.module)!();
      if (typeof module[route.component] !== 'function') withoutComponent.push(`${route.module} ${route.component}`);
    }
    expect(withoutComponent).toEqual([]);
  }, 60_000);

  it('loads no module that is not a screen of the table (each one the build splits off)', () => {
    const modules = new Set(SCREEN_ROUTES.map((route) => route.module));
    expect([...SCREEN_LOADERS.keys()].filter((module) => !modules.has(module))).toEqual([]);
  });

  it('keeps what belongs to an area in that area', () => {
    const misplaced = (test: (route: TScreenRoute) => boolean) => SCREEN_ROUTES.filter(test).map((route) => route.pattern);
    expect(misplaced((route) => (route.heading !== undefined || route.menu !== undefined) && route.area !== 'admin')).toEqual([]);
    expect(misplaced((route) => route.prerendered === true && route.area !== 'public')).toEqual([]);
    expect(misplaced((route) => route.area === 'admin' && !route.pattern.startsWith(paths.admin.root))).toEqual([]);
    // Every admin screen names the staff permission it needs (the area's not-found page is any
    // member's); no other screen names one.
    expect(misplaced((route) => !CATCH_ALL.includes(route.pattern) && (route.area === 'admin') !== (route.permission !== undefined))).toEqual([]);
    expect(misplaced((route) => route.area !== 'admin' && route.pattern.toLowerCase().startsWith(paths.admin.root.toLowerCase()))).toEqual([]);
    // The home page is drawn without waiting for code: it is the entry file's.
    expect(SCREEN_ROUTES.filter((route) => route.chunk === 'entry').map((route) => route.pattern)).toEqual([paths.home]);
  });

  it('puts every menu entry in the admin menu, in the table order', () => {
    expect(UNKNOWN_MENU_GROUPS).toEqual([]);
    const inMenu = ADMIN_MENU.flatMap((group) => group.items.map((item) => item.to));
    const inTable = SCREEN_ROUTES.filter((route) => route.menu).map((route) => route.pattern);
    expect(new Set(inMenu)).toEqual(new Set(inTable));
    expect(inMenu).toHaveLength(inTable.length);
  });
});
