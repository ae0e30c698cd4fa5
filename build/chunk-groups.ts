import path from 'node:path';
import { FRAME_CHUNKS, SCREEN_ROUTES, type TScreenRoute } from '../src/client/config/routes.ts';

/*
 * How the browser's code is cut into files (decisions 032 and 035). Left to itself the bundler
 * makes a file for every set of lazy screens sharing a module: about a hundred files, fifteen to
 * forty-five per screen, each a request and a task on the page's main thread. Instead:
 *   - the entry and everything it imports are one file (React, the router, the home page and the
 *     public layout; the manifest names it as the entry);
 *   - the lazy screens are gathered in a few areas (account, courses, training, tests, profile and
 *     its form, contact, the certificate check, the admin area's frame and its groups of screens,
 *     the other public pages), and every other module goes to the file of the set of areas that
 *     reach it, so a screen loads only code it can run: a screen that only shows data does not
 *     load the forms' library and zod;
 *   - a set whose modules are small together is not worth a request: its modules join `app`, the
 *     file of the providers that every screen with data loads anyway, the admin frame's when only
 *     admin screens need them, or the entry's when the public pages (which never load `app`) need
 *     them too; but not the code an admin screen fetches only when a dialog opens.
 * A screen then loads four to eight scripts, all named in its page (the server reads them from
 * the build's manifest, where each file carries its area's name). Rolldown's own options cannot
 * do this placement: see decision 047.
 */

type TModuleInfo = { importers: readonly string[]; dynamicImporters: readonly string[]; importedIds: readonly string[]; code: string | null };
type TContext = { getModuleInfo(id: string): TModuleInfo | null };
type TReach = Set<string> | 'entry';

/**
 * The lazily loaded modules (`import()` targets) that are not screens of config/routes.ts, by
 * area: the data providers and what mounts with them (the toaster, signing out), the admin area's
 * frame, the code an admin screen fetches when the person opens something (the menu's drawer, a
 * confirm or form dialog), the phone's menu of the public pages, and the profile's creation form.
 * One not listed here gets a file of its own, named after it: never silently the file every
 * signed-in screen loads.
 */
const LAZY_MODULES: Record<string, readonly string[]> = {
  [FRAME_CHUNKS.dataProviders]: ['app/providers.tsx', 'components/ui/sonner.tsx', 'lib/session/log-out.ts', 'lib/session/session-monitor.ts'],
  [FRAME_CHUNKS.admin]: ['app/admin-area.tsx'],
  'admin-dialogs': ['components/layouts/admin-menu-drawer.tsx', 'components/ui/confirm-dialog-box.tsx', 'components/ui/form-dialog-box.tsx'],
  public: ['components/layouts/mobile-nav-drawer.tsx'],
  'profile-form': ['features/profile/profile-create-form.tsx'],
  // Study without a link (decision 050), fetched once someone is signed in: one file, not five.
  offline: [
    'lib/pwa/register-service-worker.ts',
    'lib/pwa/query-persistence.ts',
    'lib/offline/offline-sync.tsx',
    'lib/offline/downloads.ts',
    'features/enrolments/offline-download-panel.tsx',
  ],
};

/** The area of each lazily loaded module: a screen's is its `chunk` in config/routes.ts. */
export function areasOf(clientRoot: string, routes: readonly TScreenRoute[] = SCREEN_ROUTES): Map<string, string> {
  const areas = new Map<string, string>();
  for (const route of routes) if (route.chunk !== 'entry') areas.set(path.join(clientRoot, route.module), route.chunk);
  for (const [area, modules] of Object.entries(LAZY_MODULES)) for (const module of modules) areas.set(path.join(clientRoot, module), area);
  return areas;
}

/** What the entry imports, the lazy screens' shared modules among it (React) included. */
const ENTRY = 'framework';
/** The lazy modules every screen with data loads (the providers, the toaster, signing out). */
const SHARED = FRAME_CHUNKS.dataProviders;
/** The other public pages' area. They never load `app`, so small sets they share go to the entry. */
const PUBLIC = 'public';
/** The admin area's frame, which every admin screen loads. */
const ADMIN = FRAME_CHUNKS.admin;
/** Below this much source code (before minifying) a set of areas gets no file of its own. */
const SMALLEST_FILE = 24 * 1024;

const isAdminArea = (area: string) => area === ADMIN || area.startsWith(`${ADMIN}-`);

/** Where a small set's modules go: a file every screen of the set loads anyway. */
function homeOfSmallSet(areas: string[]): string {
  if (areas.includes(PUBLIC)) return ENTRY;
  if (areas.every(isAdminArea)) return ADMIN;
  return SHARED;
}

/** The files each home may import: those loaded before it wherever it is loaded. */
const LOADED_BEFORE: Record<string, readonly string[]> = { [ENTRY]: [], [SHARED]: [ENTRY], [ADMIN]: [ENTRY, SHARED] };


/** The areas whose lazy modules reach `id` through static imports, or 'entry' when the entry does. */
function reach(id: string, context: TContext, entry: string, areas: ReadonlyMap<string, string>, memo: Map<string, TReach>): TReach {
  const known = memo.get(id);
  if (known) return known;
  memo.set(id, new Set()); // an import cycle adds nothing more
  const info = context.getModuleInfo(id);
  let result: TReach = new Set();
  if (id === entry) result = 'entry';
  else if (info) {
    const reached = new Set<string>();
    if (info.dynamicImporters.length > 0) reached.add(areas.get(id) ?? path.basename(id).replace(/\.[^.]+$/, ''));
    result = reached;
    for (const importer of info.importers) {
      const fromImporter = reach(importer, context, entry, areas, memo);
      if (fromImporter === 'entry') {
        result = 'entry';
        break;
      }
      fromImporter.forEach((area) => reached.add(area));
    }
  }
  memo.set(id, result);
  return result;
}

/** The bundler's code-splitting options: one group whose name function places every module. */
export function chunkGroups(clientRoot: string, routes: readonly TScreenRoute[] = SCREEN_ROUTES) {
  const entry = path.join(clientRoot, 'main.tsx');
  const areas = areasOf(clientRoot, routes);
  const memo = new Map<string, TReach>();
  const candidates: string[] = [];
  let files: Map<string, string | null> | undefined;

  /** Every module's file, decided once all modules are known (the bundler asks `test` first). */
  const place = (context: TContext) => {
    const sets = new Map<string, string>();
    const sizes = new Map<string, number>();
    for (const id of candidates) {
      const reached = reach(id, context, entry, areas, memo);
      if (reached === 'entry' || reached.size === 0) continue;
      const name = reached.has(SHARED) ? SHARED : [...reached].sort().join('+');
      sets.set(id, name);
      sizes.set(name, (sizes.get(name) ?? 0) + (context.getModuleInfo(id)?.code?.length ?? 0));
    }
    const placed = new Map<string, string | null>();
    for (const id of candidates) placed.set(id, memo.get(id) === 'entry' ? ENTRY : (sets.get(id) ?? null));
    // A small set's modules join `app` (or the entry, when public pages need them) if everything
    // they import is in that file or the entry: moving them must not make that file load another
    // one (zod, say). Files only ever import files shared by more screens than their own, and
    // these two import no other, so no two files import each other (which would break the order
    // modules run in).
    // An area's own modules always keep their file: a screen group of config/routes.ts, or the
    // code an admin screen fetches when a dialog opens (joining a file loaded earlier would put it
    // back on the way to the screen).
    const wanted = new Map<string, string>();
    for (const [id, name] of sets) {
      if ((sizes.get(name) ?? 0) < SMALLEST_FILE && name.includes('+')) wanted.set(id, homeOfSmallSet(name.split('+')));
    }
    // The files a module's code needs; a module the bundler dropped (a barrel that only
    // re-exports) is seen through to what it imports.
    const filesNeeded = (id: string, seen = new Set<string>()): Array<string | null> => {
      if (placed.has(id)) return [placed.get(id)!];
      if (seen.has(id)) return [];
      seen.add(id);
      return (context.getModuleInfo(id)?.importedIds ?? []).flatMap((dependency) => filesNeeded(dependency, seen));
    };
    for (let moved = true; moved; ) {
      moved = false;
      for (const [id, target] of wanted) {
        const imports = context.getModuleInfo(id)?.importedIds ?? [];
        const allowed = [target, ...LOADED_BEFORE[target]!];
        if (imports.flatMap((dependency) => filesNeeded(dependency)).every((file) => file === null || file === ENTRY || allowed.includes(file))) {
          placed.set(id, target);
          wanted.delete(id);
          moved = true;
        }
      }
    }
    return placed;
  };

  return {
    // Each module is placed by itself: a group must not pull the entry's modules (React) along.
    includeDependenciesRecursively: false,
    groups: [
      {
        test: (id: string) => {
          candidates.push(id);
          return true;
        },
        name: (id: string, context: TContext) => {
          files ??= place(context);
          return files.get(id) ?? null;
        },
      },
    ],
  };
}
