import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, type TBenchmark, type TBenchRow } from './support.ts';

type TRow =
  | { screen: string; error?: undefined; performance: number; accessibility: number; fcp: number; lcp: number; tbt: number; cls: number; bytes: number; scriptBytes: number; runs: number[]; loads: number[] }
  | { screen: string; error: string };

/**
 * Lighthouse on every main screen as its command line runs it (`npm run bench:lighthouse`,
 * lighthouse/screens.ts, run here as its own Vitest run: it seeds the portal the way the tests
 * do). One row per screen: the median run's performance, and the rest of its figures.
 */
export const lighthouseScreensBenchmark: TBenchmark = {
  name: 'Lighthouse screens',
  async run() {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-'));
    const table = path.join(dir, 'rows.json');
    try {
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'lighthouse/vitest.config.ts'], {
          cwd: ROOT,
          env: { ...process.env, LIGHTHOUSE_TABLE: table },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        child.on('error', reject);
        child.on('exit', () => resolve());
      });
      const { aims, rows } = JSON.parse(readFileSync(table, 'utf8')) as { aims: { performance: number; cls: number; accessibility: number }; rows: TRow[] };
      return rows.map((row): TBenchRow => {
        if (row.error !== undefined) return { figure: `Lighthouse ${row.screen}`, value: 'not measured', note: row.error };
        const meets = row.performance >= aims.performance && row.cls < aims.cls && row.accessibility >= aims.accessibility;
        return {
          figure: `Lighthouse ${row.screen} (mobile, CLI-like)`,
          value: `performance ${row.performance}`,
          note: `accessibility ${row.accessibility}, FCP ${row.fcp} ms, LCP ${row.lcp} ms, TBT ${row.tbt} ms, CLS ${row.cls}, ${(row.bytes / 1024).toFixed(1)} KB (JS ${(row.scriptBytes / 1024).toFixed(1)} KB); runs ${row.runs.join(', ')} at load ${row.loads.join(', ')}; ${meets ? 'meets the aims' : 'misses the aims'}`,
        };
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
