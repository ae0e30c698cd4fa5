import path from 'node:path';
import type { Plugin } from 'vite';
import { ROUTE_CODE } from '../src/client/app/route-code.ts';

/** The file the server reads: each route pattern with the chunk files to preload for it. */
export const ROUTE_CHUNKS_FILE = 'route-chunks.json';

type TChunk = { type: 'chunk'; fileName: string; isEntry: boolean; imports: string[]; moduleIds: string[] };

/**
 * Writes route-chunks.json beside index.html: for every route of src/client/app/route-code.ts,
 * the chunks holding its modules and everything they import statically, less what the entry
 * already loads. Fails the build when a listed module is in no chunk (renamed or moved), or when
 * files import each other (their modules would run out of order).
 */
export function routeChunks(clientRoot: string): Plugin {
  return {
    name: 'academy:route-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is typeof item & TChunk => item.type === 'chunk') as TChunk[];
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const withImports = (files: string[]) => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        files.forEach(visit);
        return seen;
      };
      const cycle = chunks.find((chunk) => [...withImports(chunk.imports)].includes(chunk.fileName));
      if (cycle) throw new Error(`route-chunks: ${cycle.fileName} imports itself through other files; chunk-groups.ts must place its modules otherwise`);
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('route-chunks: the build has no entry chunk');
      const loadedByEntry = withImports([entry.fileName]);

      const routes: Record<string, string[]> = {};
      for (const [pattern, modules] of Object.entries(ROUTE_CODE)) {
        const files = modules.map((module) => {
          const id = path.join(clientRoot, module);
          const chunk = chunks.find((candidate) => candidate.moduleIds.includes(id));
          if (!chunk) throw new Error(`route-chunks: ${module} (route ${pattern}) is in no chunk`);
          return chunk.fileName;
        });
        routes[pattern] = [...withImports(files)].filter((file) => !loadedByEntry.has(file)).map((file) => `/${file}`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: `${JSON.stringify(routes, null, 1)}\n` });
    },
  };
}
