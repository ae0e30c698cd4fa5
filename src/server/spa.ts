import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_CONFIG_MARKER, type TSiteConfig } from '../shared/site-config.ts';

/**
 * The client's index.html with the academy's configuration written into it, read once at start.
 * `<` is escaped so no configured value can close the script element.
 */
export function loadIndexHtml(clientDir: string | undefined, site: TSiteConfig): string | undefined {
  if (!clientDir) return undefined;
  const file = path.join(clientDir, 'index.html');
  if (!existsSync(file)) return undefined;
  const json = JSON.stringify(site).replace(/</g, '\\u003c');
  return readFileSync(file, 'utf8').replace(SITE_CONFIG_MARKER, json);
}
