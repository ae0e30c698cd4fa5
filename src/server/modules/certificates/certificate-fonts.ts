import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { Font } from '@react-pdf/renderer';
import { fontSubstitution, scriptItemizer, type AttributedString } from '@react-pdf/textkit';

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
  // No word is hyphenated. The layout still breaks a line where a word's letters change font (see
  // fittedText), so the name and the course title come to it already broken into lines.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}

type TLoadedFont = NonNullable<ReturnType<typeof Font.getFont>['data']>;
type TGlyph = { codePoints: number[] };

/** The fonts whose glyphs keep their characters (see keepGlyphCharacters). */
const keepingCharacters = new WeakSet<object>();

/**
 * fontkit keeps one object per glyph for the life of a font, holding the characters it was first
 * asked for, and react-pdf writes the PDF's ToUnicode map (what copying, searching and a machine
 * reading the PDF get) from those characters. Embedding a font asks for the parts of its composite
 * glyphs by number alone (the A under Á), so once one PDF of the process had embedded an Á, every
 * later PDF drew A as a glyph standing for no character: "Marina leksandra". A glyph asked for with
 * its characters gets them, whatever was asked before.
 */
function keepGlyphCharacters(font: TLoadedFont): void {
  if (keepingCharacters.has(font)) return;
  const getGlyph = font.getGlyph.bind(font) as (id: number, characters?: number[]) => TGlyph | null;
  font.getGlyph = (id: number, characters: number[] = []) => {
    const glyph = getGlyph(id, characters);
    if (glyph && glyph.codePoints.length === 0 && characters.length > 0) glyph.codePoints = characters;
    return glyph;
  };
  keepingCharacters.add(font);
}

/** A typeface's fonts at one weight and style, loaded (react-pdf keeps them: the render reuses them). */
export async function loadedFonts(typeface: TTypeface, weight: TFace['weight'], style: TFace['style'] = 'normal'): Promise<TLoadedFont[]> {
  registerCertificateFonts();
  return Promise.all(
    FONT_STACKS[typeface].map(async (fontFamily) => {
      const source = Font.getFont({ fontFamily, fontWeight: weight, fontStyle: style });
      await source.load();
      keepGlyphCharacters(source.data!);
      return source.data!;
    }),
  );
}

/** Every face the certificate sets, loaded before a render lays anything out (so each keeps its glyphs' characters). */
export async function loadCertificateFonts(): Promise<void> {
  await Promise.all(
    (Object.entries(TYPEFACES) as Array<[TTypeface, (typeof TYPEFACES)[TTypeface]]>).flatMap(([typeface, { faces }]) =>
      faces.map((face) => loadedFonts(typeface, face.weight, face.style)),
    ),
  );
}

/**
 * The text cut into the runs react-pdf draws it in, each drawn apart with one font: where the font
 * changes (the first font of the list that has the character, as react-pdf chooses) and where the
 * script changes (Latin to Devanagari; spaces and punctuation go with the script before them).
 * The same functions of react-pdf's text layout, so the cut is its own.
 */
export function drawnRuns(fonts: TLoadedFont[], text: string): Array<{ font: TLoadedFont; text: string }> {
  if (text.length === 0) return [];
  const whole = { string: text, runs: [{ start: 0, end: text.length, attributes: { font: fonts, fontSize: 1 } }] } as unknown as AttributedString;
  const byScript = scriptItemizer()(whole).runs;
  const byFont = fontSubstitution()(whole).runs;
  const cuts = [...new Set([0, ...[...byScript, ...byFont].flatMap((run) => [run.start, run.end]), text.length])].sort((a, b) => a - b);
  return cuts.slice(0, -1).map((start, index) => ({
    font: (byFont.find((run) => run.start <= start && start < run.end)!.attributes.font as unknown as TLoadedFont[])[0]!,
    text: text.slice(start, cuts[index + 1]),
  }));
}

/** The shaped width of `text` at a size of one point. */
function widthOf(fonts: TLoadedFont[], text: string): number {
  return drawnRuns(fonts, text).reduce((sum, run) => sum + run.font.layout(run.text).advanceWidth / run.font.unitsPerEm, 0);
}

/** A line's height at one point: the tallest font the text uses (Devanagari's matras reach far above and below). */
function lineHeightOf(fonts: TLoadedFont[], text: string): number {
  return Math.max(...drawnRuns(fonts, text).map(({ font }) => (font.ascent - font.descent + font.lineGap) / font.unitsPerEm));
}

/** Characters of a name none of the fonts has (a script they do not cover): they print as an empty box. */
export async function charactersWithoutGlyph(text: string): Promise<string[]> {
  const fonts = await loadedFonts('serif', 700);
  return [...new Set([...text.normalize('NFC')].filter((char) => /\S/u.test(char) && !fonts.some((font) => font.hasGlyphForCodePoint(char.codePointAt(0)!))))];
}

export type TTextBox = { width: number; height: number; maxSize: number; maxLines: number };
/** A line of fitted text, with the runs react-pdf will draw it in. */
export type TFittedLine = { text: string; runs: string[] };
export type TFittedText = { size: number; lines: TFittedLine[] };

/** Room left for the difference between this measure and the layout's own. */
const SAFETY = 0.95;
/** Where shrinking stops: only a word of dozens of letters gets near it. */
const SMALLEST_SIZE = 4;

/**
 * The text set in its box: the largest font size (half-point steps) at which it fits, broken into
 * at most `maxLines` lines between words only (never inside one: a word too long for the width
 * makes the size smaller), the lines as even as they can be. One line is preferred while it keeps
 * at least four fifths of the largest size. The lines are printed as given, so the layout's own
 * line breaking, which would break a word where its letters change font (Ś and ł come from
 * another file than w and o), never runs.
 */
export function fittedText(fonts: TLoadedFont[], text: string, box: TTextBox): TFittedText {
  const words = text.split(/\s+/u).filter(Boolean);
  if (words.length === 0) return { size: box.maxSize, lines: [] };
  const wordWidths = words.map((word) => widthOf(fonts, word));
  const space = widthOf(fonts, ' ');
  const lineHeight = lineHeightOf(fonts, text);

  /** Greedy breaking at one point into lines no wider than `width` (at one point): the words each line starts with. */
  const breaksWithin = (width: number): number[] | undefined => {
    if (wordWidths.some((wordWidth) => wordWidth > width)) return undefined;
    const starts = [0];
    let used = wordWidths[0]!;
    for (let index = 1; index < words.length; index += 1) {
      if (used + space + wordWidths[index]! <= width) used += space + wordWidths[index]!;
      else {
        starts.push(index);
        used = wordWidths[index]!;
      }
    }
    return starts;
  };
  const fits = (size: number, maxLines: number): boolean => {
    const starts = breaksWithin((box.width * SAFETY) / size);
    return starts !== undefined && starts.length <= maxLines && starts.length * lineHeight * size <= box.height;
  };

  const sizes: number[] = [];
  for (let size = box.maxSize; size >= SMALLEST_SIZE; size -= 0.5) sizes.push(size);
  const oneLine = sizes.find((size) => fits(size, 1));
  const size = oneLine !== undefined && oneLine >= box.maxSize * 0.8 ? oneLine : (sizes.find((candidate) => fits(candidate, box.maxLines)) ?? SMALLEST_SIZE);

  // As many lines as the size needs, each as short as that number allows: the narrowest width
  // that still breaks into no more lines, found by halving.
  const widest = (box.width * SAFETY) / size;
  const count = breaksWithin(widest)?.length ?? words.length;
  let [low, high] = [Math.max(...wordWidths), widest];
  for (let step = 0; step < 30; step += 1) {
    const middle = (low + high) / 2;
    if ((breaksWithin(middle)?.length ?? Number.POSITIVE_INFINITY) <= count) high = middle;
    else low = middle;
  }
  const starts = breaksWithin(high) ?? words.map((_, index) => index);
  const lines = starts.map((start, index) => words.slice(start, starts[index + 1]).join(' '));
  return { size, lines: lines.map((line) => ({ text: line, runs: drawnRuns(fonts, line).map((run) => run.text) })) };
}
