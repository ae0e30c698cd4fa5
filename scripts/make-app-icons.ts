import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/*
 * The installed app's icons (src/client/public/icons), drawn from the favicon. Run once when the
 * favicon changes: `npx tsx scripts/make-app-icons.ts`; the PNGs are committed.
 * "any": the favicon as it is (its rounded navy square). "maskable": the launcher crops to its own
 * shape, keeping only a circle of 80 % of the side, so the navy fills the whole square and the
 * emblem is drawn at 60 % inside it.
 */
const root = path.resolve(import.meta.dirname, '..');
const favicon = readFileSync(path.join(root, 'src/client/public/favicon.svg'), 'utf8');
const outDir = path.join(root, 'src/client/public/icons');

const emblem = /<g[\s\S]*<\/g>/.exec(favicon)?.[0];
const navy = /fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
if (!emblem || !navy) throw new Error('favicon.svg no longer has its navy square and emblem group');
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${navy}"/><g transform="translate(12.8 12.8) scale(0.6)">${emblem}</g></svg>`;

const icons: Array<[string, string, number]> = [
  ['icon-192.png', favicon, 192],
  ['icon-512.png', favicon, 512],
  ['maskable-192.png', maskable, 192],
  ['maskable-512.png', maskable, 512],
  ['apple-touch-icon-180.png', maskable, 180],
];
for (const [name, svg, size] of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(outDir, name));
}
