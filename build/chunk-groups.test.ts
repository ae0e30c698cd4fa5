import { describe, expect, it } from 'vitest';
import type { TScreenRoute } from '../src/client/config/routes.ts';
import { chunkGroups } from './chunk-groups.ts';

const ROOT = '/client';
const at = (module: string) => `${ROOT}/${module}`;

/** A module of the fake graph: who imports it, statically or with import(), what it imports, its size. */
type TModule = { importers?: string[]; dynamicImporters?: string[]; imports?: string[]; size?: number };

/** Where chunkGroups puts each module of `graph`, asked as the bundler asks: every `test`, then `name`. */
function placement(graph: Record<string, TModule>, routes: TScreenRoute[]): Record<string, string | null> {
  const ids = Object.keys(graph).map(at);
  const context = {
    getModuleInfo(id: string) {
      const module = graph[id.slice(ROOT.length + 1)];
      if (!module) return null;
      return {
        importers: (module.importers ?? []).map(at),
        dynamicImporters: (module.dynamicImporters ?? []).map(at),
        importedIds: (module.imports ?? []).map(at),
        code: 'x'.repeat(module.size ?? 100),
      };
    },
  };
  const [group] = chunkGroups(ROOT, routes).groups;
  for (const id of ids) group!.test(id);
  return Object.fromEntries(ids.map((id) => [id.slice(ROOT.length + 1), group!.name(id, context)]));
}

const screen = (module: string, chunk: string): TScreenRoute => ({ pattern: `/${chunk}`, module, component: 'Screen', area: 'learner', chunk });
const ROUTES = [
  screen('features/tests/test-page.tsx', 'tests'),
  screen('features/profile/profile-page.tsx', 'profile'),
  screen('features/contact/contact-page.tsx', 'contact'),
];

/** The entry, the router that loads the screens, the providers, three screens and what they share. */
const GRAPH: Record<string, TModule> = {
  'main.tsx': { imports: ['app/router.tsx'] },
  'app/router.tsx': { importers: ['main.tsx'], imports: ['lib/react.ts'] },
  'lib/react.ts': { importers: ['app/router.tsx', 'features/tests/test-page.tsx'] },
  'app/providers.tsx': { dynamicImporters: ['app/router.tsx'], imports: ['lib/trpc.ts'] },
  'lib/trpc.ts': { importers: ['app/providers.tsx', 'features/tests/test-page.tsx'] },
  'features/tests/test-page.tsx': { dynamicImporters: ['app/router.tsx'], imports: ['lib/react.ts', 'lib/trpc.ts', 'components/card.tsx', 'lib/forms.ts'] },
  'features/profile/profile-page.tsx': { dynamicImporters: ['app/router.tsx'], imports: ['components/card.tsx'], size: 200 },
  'features/contact/contact-page.tsx': { dynamicImporters: ['app/router.tsx'], imports: ['lib/forms.ts'] },
  // Shared by two screens' groups: small, so it joins the providers' file; large, it has its own.
  'components/card.tsx': { importers: ['features/tests/test-page.tsx', 'features/profile/profile-page.tsx'], size: 500 },
  'lib/forms.ts': { importers: ['features/tests/test-page.tsx', 'features/contact/contact-page.tsx'], size: 30_000 },
  // Loaded with import() but in no list: a file of its own, not the providers'.
  'features/tests/answer-sheet.tsx': { dynamicImporters: ['features/tests/test-page.tsx'] },
};

describe('where the code split puts each module', () => {
  const placed = placement(GRAPH, ROUTES);

  it("puts the entry module and what it imports in one file (which the manifest names as the entry)", () => {
    expect(placed['main.tsx']).toBe('framework');
    expect(placed['app/router.tsx']).toBe('framework');
    // Imported by the entry and by a screen: the entry's file, which every page loads first.
    expect(placed['lib/react.ts']).toBe('framework');
  });

  it("puts each screen in the file of its chunk in the route table, however small, and the providers' code in app", () => {
    expect(placed['features/tests/test-page.tsx']).toBe('tests');
    expect(placed['features/profile/profile-page.tsx']).toBe('profile');
    expect(placed['features/contact/contact-page.tsx']).toBe('contact');
    expect(placed['app/providers.tsx']).toBe('app');
    // Reached by the providers: every screen with data has it already.
    expect(placed['lib/trpc.ts']).toBe('app');
  });

  it('gives what several screen groups share a file of its own when it is large, and the providers file when it is not', () => {
    expect(placed['lib/forms.ts']).toBe('contact+tests');
    expect(placed['components/card.tsx']).toBe('app');
  });

  it('gives a lazily loaded module the table does not list a file of its own, never the providers file', () => {
    expect(placed['features/tests/answer-sheet.tsx']).toBe('answer-sheet');
  });
});
