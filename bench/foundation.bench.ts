import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadClientCode } from '../src/server/spa.ts';
import {
  freePort,
  ms,
  ROOT,
  startProcess,
  stopProcess,
  throughput,
  waitForOk,
  withFreshPostgres,
  BENCH_DATABASE_URL,
  type TBenchmark,
} from './support.ts';

const CLIENT = path.join(ROOT, 'dist/client');

/** Gzip size of the JavaScript the home page loads (its entry and what it imports, from the build's manifest). */
function homePageJs(): { files: string[]; gzipBytes: number; cssGzipBytes: number } {
  const code = loadClientCode(CLIENT);
  if (!code) throw new Error('dist/client has no manifest: run npm run build');
  const gz = (file: string) => gzipSync(readFileSync(path.join(CLIENT, file))).length;
  const files = [code.entry.script, ...code.entry.imports];
  return {
    files,
    gzipBytes: files.reduce((sum, file) => sum + gz(file), 0),
    cssGzipBytes: code.entry.stylesheets.reduce((sum, file) => sum + gz(file), 0),
  };
}

async function startToReady(env: Record<string, string | undefined>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = startProcess('dist/server/index.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  try {
    return await waitForOk(`http://127.0.0.1:${port}/readyz`, started);
  } finally {
    await stopProcess(child);
  }
}

export const foundationBenchmark: TBenchmark = {
  name: 'Foundation',
  async run() {
    const rows = [];

    const js = homePageJs();
    rows.push({
      figure: 'Home page JavaScript before first paint (gzip)',
      value: `${(js.gzipBytes / 1024).toFixed(1)} KB`,
      note: `budget 100 KB; ${js.files.length} file(s); CSS ${(js.cssGzipBytes / 1024).toFixed(1)} KB gzip`,
    });

    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
    try {
      const embedded = await startToReady({ DATA_DIR: dataDir });
      rows.push({ figure: 'Start to /readyz, new embedded database', value: ms(embedded), note: 'includes creating and migrating PGlite' });
      const again = await startToReady({ DATA_DIR: dataDir });
      rows.push({ figure: 'Start to /readyz, existing embedded database', value: ms(again) });

      const base = BENCH_DATABASE_URL;
      if (base) {
        const onPostgres = await withFreshPostgres(base, (url) => startToReady({ DATA_DIR: dataDir, DATABASE_URL: url }));
        rows.push({ figure: 'Start to /readyz on PostgreSQL', value: ms(onPostgres), note: 'new database, migrations applied' });
      } else {
        rows.push({ figure: 'Start to /readyz on PostgreSQL', value: 'not measured', note: 'set BENCH_DATABASE_URL' });
      }

      // Throughput of the same small JSON answer: the portal's full stack against bare Fastify.
      const portalPort = await freePort();
      const portal = startProcess('dist/server/index.js', { DATA_DIR: dataDir, PORT: String(portalPort), HOST: '127.0.0.1' });
      const helloPort = await freePort();
      const hello = startProcess('bench/hello-world.mjs', { PORT: String(helloPort) });
      try {
        await waitForOk(`http://127.0.0.1:${portalPort}/readyz`, performance.now());
        await waitForOk(`http://127.0.0.1:${helloPort}/api/site-config`, performance.now());
        await throughput(`http://127.0.0.1:${helloPort}/api/site-config`, { seconds: 2 });
        await throughput(`http://127.0.0.1:${portalPort}/api/site-config`, { seconds: 2 });
        const bare = await throughput(`http://127.0.0.1:${helloPort}/api/site-config`);
        const full = await throughput(`http://127.0.0.1:${portalPort}/api/site-config`);
        rows.push({ figure: 'Bare Fastify hello-world', value: `${Math.round(bare.rps)} req/s`, note: `p99 ${bare.p99Ms} ms` });
        rows.push({ figure: 'GET /api/site-config, full middleware stack', value: `${Math.round(full.rps)} req/s`, note: `p99 ${full.p99Ms} ms` });
        rows.push({ figure: '/api throughput ratio (portal / bare Fastify)', value: (full.rps / bare.rps).toFixed(2) });
      } finally {
        await stopProcess(portal);
        await stopProcess(hello);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};
