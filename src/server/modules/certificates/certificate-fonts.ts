import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { Font } from '@react-pdf/renderer';

/*
 * The certificate's fonts, embedded in every PDF: Noto Serif and Noto Sans for Latin (with its
 * extensions and Vietnamese), Greek and Cyrillic, and Noto Serif/Sans Devanagari, so a name prints
 * as written. The files come from the @fontsource packages, which split each font by script into
 * subsets; each subset is a family of its own and a style names them all as a fallback list, which
 * react-pdf resolves character by character (the first family that has the glyph), shaping each
 * run with its font (Devanagari conjuncts and matras included).
 */

/** Resolved through node_modules from this file: the same from src (tsx, vitest) and from the server bundle. */
const fromHere = createRequire(import.meta.url);

type TFace = { weight: 400 | 700; style: 'normal' | 'italic' };

/** The subsets the Noto Serif and Noto Sans packages ship, most common first (the order of the fallback). */
const SUBSETS = ['latin', 'latin-ext', 'vietnamese', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext'] as const;

/** The packages of each typeface, and the faces the certificate sets in it (only these are read). */
const TYPEFACES = {
  serif: {
    latin: 'noto-serif',
    devanagari: 'noto-serif-devanagari',
    faces: [
      { weight: 700, style: 'normal' },
      { weight: 400, style: 'italic' },
    ],
  },
  sans: {
    latin: 'noto-sans',
    devanagari: 'noto-sans-devanagari',
    faces: [
      { weight: 400, style: 'normal' },
      { weight: 700, style: 'normal' },
    ],
  },
} as const satisfies Record<string, { latin: string; devanagari: string; faces: TFace[] }>;

export type TTypeface = keyof typeof TYPEFACES;

function familyName(typeface: TTypeface, subset: string): string {
  return `certificate-${typeface}-${subset}`;
}

/**
 * react-pdf's last resort, which it adds to the end of every list: here Noto Sans (see
 * registerCertificateFonts). Named in the lists too, so the render loads it like the others.
 */
const LAST_RESORT = 'Helvetica';

/** The fallback list a style names as its `fontFamily`. */
export const FONT_STACKS: Record<TTypeface, string[]> = {
  serif: [...[...SUBSETS, 'devanagari'].map((subset) => familyName('serif', subset)), LAST_RESORT],
  sans: [...[...SUBSETS, 'devanagari'].map((subset) => familyName('sans', subset)), LAST_RESORT],
};

/**
 * A WOFF file as the TrueType font it wraps (its tables inflated once). fontkit reads a WOFF's
 * compressed tables again for every glyph it draws or embeds, which made each render take a
 * second; and it cannot subset WOFF2's composite glyphs.
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const entry = 44 + index * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compressed = woff.readUInt32BE(entry + 8);
    const length = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return { tag: woff.readUInt32BE(entry), checksum: woff.readUInt32BE(entry + 16), data: compressed < length ? inflateSync(stored) : stored };
  });
  const searchRange = 2 ** Math.floor(Math.log2(count)) * 16;
  const header = Buffer.alloc(12 + count * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(Math.floor(Math.log2(count)), 8);
  header.writeUInt16BE(count * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    header.writeUInt32BE(table.tag, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/** A font file of a package, as react-pdf takes a font already in memory: a data URL. */
function fontSource(pkg: string, subset: string, face: TFace): string {
  const file = fromHere.resolve(`@fontsource/${pkg}/files/${pkg}-${subset}-${face.weight}-${face.style}.woff`);
  return `data:font/ttf;base64,${sfntOfWoff(readFileSync(file)).toString('base64')}`;
}

let registered = false;

/**
 * Registers the fonts with react-pdf, once per process. Devanagari has no italic: its italic face
 * is the upright one, as typesetters set it. react-pdf ends every fallback list with 'Helvetica', a
 * standard font it never embeds; its defaults are cleared first and that name becomes Noto Sans,
 * so even a character none of the fonts has comes out of an embedded font (as the empty glyph).
 */
export function registerCertificateFonts(): void {
  if (registered) return;
  Font.clear();
  for (const [typeface, { latin, devanagari, faces }] of Object.entries(TYPEFACES) as Array<[TTypeface, (typeof TYPEFACES)[TTypeface]]>) {
    for (const subset of SUBSETS) {
      Font.register({ family: familyName(typeface, subset), fonts: faces.map((face) => ({ src: fontSource(latin, subset, face), fontWeight: face.weight, fontStyle: face.style })) });
    }
    Font.register({
      family: familyName(typeface, 'devanagari'),
      fonts: faces.map((face) => ({ src: fontSource(devanagari, 'devanagari', { ...face, style: 'normal' }), fontWeight: face.weight, fontStyle: face.style })),
    });
  }
  // Every face the certificate sets, since the last resort is asked for the same weight and style.
  const lastResort: TFace[] = [...new Map(Object.values(TYPEFACES).flatMap(({ faces }) => faces.map((face): [string, TFace] => [`${face.weight}${face.style}`, face]))).values()];
  Font.register({ family: LAST_RESORT, fonts: lastResort.map((face) => ({ src: fontSource('noto-sans', 'latin', face), fontWeight: face.weight, fontStyle: face.style })) });
  // Names are never hyphenated; other text breaks between words only.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}

type TLoadedFont = NonNullable<ReturnType<typeof Font.getFont>['data']>;

/** A typeface's fonts at one weight and style, loaded (react-pdf keeps them: the render reuses them). */
export async function loadedFonts(typeface: TTypeface, weight: TFace['weight'], style: TFace['style'] = 'normal'): Promise<TLoadedFont[]> {
  registerCertificateFonts();
  return Promise.all(
    FONT_STACKS[typeface].map(async (fontFamily) => {
      const source = Font.getFont({ fontFamily, fontWeight: weight, fontStyle: style });
      await source.load();
      return source.data!;
    }),
  );
}

/** The text cut into runs of one font each, chosen as react-pdf chooses: the first font with the glyph. */
function runsOf(fonts: TLoadedFont[], text: string): Array<{ font: TLoadedFont; text: string }> {
  const runs: Array<{ font: TLoadedFont; text: string }> = [];
  for (const char of text) {
    const font = fonts.find((candidate) => candidate.hasGlyphForCodePoint(char.codePointAt(0)!)) ?? fonts[0]!;
    const last = runs.at(-1);
    if (last?.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}

/** The shaped width of `text` at a size of one point. */
function widthOf(fonts: TLoadedFont[], text: string): number {
  return runsOf(fonts, text).reduce((sum, run) => sum + run.font.layout(run.text).advanceWidth / run.font.unitsPerEm, 0);
}

/** A line's height at one point: the tallest font the text uses (Devanagari's matras reach far above and below). */
function lineHeightOf(fonts: TLoadedFont[], text: string): number {
  return Math.max(...runsOf(fonts, text).map(({ font }) => (font.ascent - font.descent + font.lineGap) / font.unitsPerEm));
}

/** Characters of a name none of the fonts has (a script they do not cover): they print as an empty box. */
export async function charactersWithoutGlyph(text: string): Promise<string[]> {
  const fonts = await loadedFonts('serif', 700);
  return [...new Set([...text.normalize('NFC')].filter((char) => /\S/u.test(char) && !fonts.some((font) => font.hasGlyphForCodePoint(char.codePointAt(0)!))))];
}

export type TTextBox = { width: number; height: number; maxSize: number; maxLines: number };

/** Room left for the difference between this measure and the layout's own line breaking. */
const SAFETY = 0.95;
/** Where shrinking stops: only a word of dozens of letters gets near it; the style's line limit is the last guard. */
const SMALLEST_SIZE = 4;

/**
 * The largest font size (half-point steps) at which `text` fits its box, broken between words into
 * at most `maxLines` lines: every word fits the width, and the lines the height. One line is
 * preferred while it keeps at least four fifths of the largest size.
 */
export function fittedFontSize(fonts: TLoadedFont[], text: string, box: TTextBox): number {
  const words = text.split(/\s+/u).filter(Boolean);
  if (words.length === 0) return box.maxSize;
  const wordWidths = words.map((word) => widthOf(fonts, word));
  const space = widthOf(fonts, ' ');
  const lineHeight = lineHeightOf(fonts, text);
  const width = box.width * SAFETY;

  const linesAt = (size: number): number => {
    let lines = 1;
    let used = 0;
    for (const wordWidth of wordWidths) {
      const needed = wordWidth * size;
      if (needed > width) return Number.POSITIVE_INFINITY;
      if (used === 0) used = needed;
      else if (used + (space + wordWidth) * size <= width) used += (space + wordWidth) * size;
      else {
        lines += 1;
        used = needed;
      }
    }
    return lines;
  };
  const fits = (size: number, maxLines: number): boolean => {
    const lines = linesAt(size);
    return lines <= maxLines && lines * lineHeight * size <= box.height;
  };

  const sizes: number[] = [];
  for (let size = box.maxSize; size >= SMALLEST_SIZE; size -= 0.5) sizes.push(size);
  const oneLine = sizes.find((size) => fits(size, 1));
  if (oneLine !== undefined && oneLine >= box.maxSize * 0.8) return oneLine;
  return sizes.find((size) => fits(size, box.maxLines)) ?? SMALLEST_SIZE;
}
