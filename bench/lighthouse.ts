import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROME } from './page-load.ts';

const run = promisify(execFile);

/** The Lighthouse command line, from the project's development dependencies (lighthouse/ drives the same package through its node API). */
export async function lighthouseCli(): Promise<{ cli?: string; note?: string }> {
  const cli = path.join(import.meta.dirname, '../node_modules/lighthouse/cli/index.js');
  return existsSync(cli) ? { cli } : { note: 'Lighthouse is not installed: run npm install' };
}

export type TLighthouse = { performance: number; accessibility: number; lcp: number; cls: number; tbt: number; fcp: number };

/** One Lighthouse run, mobile form factor and default (simulated) throttling, on the system Chromium. */
export async function lighthouse(cliPath: string, url: string): Promise<TLighthouse> {
  // On a busy machine headless Chromium now and then paints nothing in time (NO_FCP) or loses
  // the trace (NO_NAVSTART): Lighthouse calls these runtime errors; try again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseOnce(cliPath, url);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Runtime error encountered')) throw error;
    }
  }
}

async function lighthouseOnce(cliPath: string, url: string): Promise<TLighthouse> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lh-'));
  const output = path.join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        cliPath,
        url,
        '--quiet',
        '--only-categories=performance,accessibility',
        '--output=json',
        `--output-path=${output}`,
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
      ],
      { env: { ...process.env, CHROME_PATH: CHROME }, timeout: 180_000, maxBuffer: 1 << 24 },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as {
      categories: Record<string, { score: number }>;
      audits: Record<string, { numericValue: number }>;
    };
    return {
      performance: Math.round(report.categories.performance!.score * 100),
      accessibility: Math.round(report.categories.accessibility!.score * 100),
      lcp: report.audits['largest-contentful-paint']!.numericValue,
      cls: report.audits['cumulative-layout-shift']!.numericValue,
      tbt: report.audits['total-blocking-time']!.numericValue,
      fcp: report.audits['first-contentful-paint']!.numericValue,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
