import { type ComponentType, createElement } from 'react';
import { matchPath } from 'react-router-dom';
import { type TLazyComponent, lazyNamed } from '@/lib/lazy-component.tsx';
import { SCREEN_ROUTES, type TScreenRoute } from '@/config/routes.ts';
import * as homePage from '@/features/home/home-page.tsx';

/*
 * The code of every screen of config/routes.ts, by the entry's `module`: the one place a screen's
 * module is loaded from. The router and the admin area draw each entry's screen from here, and a
 * page's first screen is loaded from here before the first render.
 */

type TScreenModule = Record<string, unknown>;

/** Screens whose module is part of the entry file (chunk 'entry'): drawn without waiting for code. */
const ENTRY_MODULES: Record<string, TScreenModule> = { 'features/home/home-page.tsx': homePage };

/*
 * Every other screen's module, fetched when first needed. The patterns take the screens' files
 * and nothing else: each file here becomes a lazily loaded root of the build, so a page that is
 * part of another screen (the dashboard's and the catalogue's, which the app's *-screen.tsx
 * compose) or of the entry (the error page, the home page) is left out. routes.test.ts holds this
 * map to the table.
 */
const LAZY_MODULES = import.meta.glob<TScreenModule>([
  '../features/**/*-page.tsx',
  './*-screen.tsx',
  '!../features/home/**',
  '!../features/dashboard/dashboard-page.tsx',
  '!../features/catalogue/catalogue-page.tsx',
  '!../features/errors/route-error-page.tsx',
]);

/** A module's path under src/client from its path relative to this file. */
const underClient = (relative: string) => (relative.startsWith('../') ? relative.slice('../'.length) : `app/${relative.slice('./'.length)}`);

/** Loaders of the screens' modules by their path under src/client (config/routes.ts's `module`). */
export const SCREEN_LOADERS: ReadonlyMap<string, () => Promise<TScreenModule>> = new Map([
  ...Object.entries(LAZY_MODULES).map(([relative, load]) => [underClient(relative), load] as const),
  ...Object.entries(ENTRY_MODULES).map(([module, loaded]) => [module, () => Promise.resolve(loaded)] as const),
]);

/** A screen of the entry file, with the lazy screens' preload() (it has nothing to load). */
function entryScreen(Component: ComponentType): TLazyComponent {
  return Object.assign(() => createElement(Component), { preload: () => Promise.resolve() });
}

function screenFor(route: TScreenRoute): TLazyComponent {
  const inEntry = ENTRY_MODULES[route.module];
  if (inEntry) return entryScreen(inEntry[route.component] as ComponentType);
  const load = SCREEN_LOADERS.get(route.module);
  if (!load) throw new Error(`config/routes.ts: no screen module ${route.module} (pattern ${route.pattern})`);
  return lazyNamed(load, route.component);
}

const SCREENS = new Map(SCREEN_ROUTES.map((route) => [route, screenFor(route)]));

/** The screen of an entry of config/routes.ts: drawn once its code has come, which preload() fetches ahead. */
export function screenOf(route: TScreenRoute): TLazyComponent {
  return SCREENS.get(route)!;
}

/**
 * The entry of the screen at `pathname`, as the server picks it: the first pattern that matches
 * (the table lists the not-found pages last), without regard to case.
 */
export function routeAt(pathname: string): TScreenRoute | undefined {
  return SCREEN_ROUTES.find((route) => matchPath(route.pattern, pathname));
}

/** The entries of one area, in the table's order. */
export function routesOf(area: TScreenRoute['area']): TScreenRoute[] {
  return SCREEN_ROUTES.filter((route) => route.area === area);
}
