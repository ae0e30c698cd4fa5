import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the browser downloads; source maps are fetched only by developer tools. */
const TEXT_FILES = /\.(?:js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 512;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file of the
 * build, so the server sends them as they are instead of compressing on every request. A copy
 * that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'academy:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const work: Array<Promise<void>> = [];
      for await (const file of filesUnder(outDir)) {
        if (!TEXT_FILES.test(file) || (await stat(file)).size < MIN_BYTES) continue;
        work.push(
          (async () => {
            const source = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } }),
              gzipAsync(source, { level: 9 }),
            ]);
            if (br.length < source.length) await writeFile(`${file}.br`, br);
            if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
          })(),
        );
      }
      await Promise.all(work);
    },
  };
}
