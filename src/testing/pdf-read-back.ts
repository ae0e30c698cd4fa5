import { execFile } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A word as poppler places it: points from the page's top left. */
export type TWord = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

export type TReadBack = {
  /** The whole text layer, whitespace collapsed to single spaces. */
  text: string;
  words: TWord[];
  pages: number;
  pageSize: string;
};

/** What poppler reads back from a PDF file: its text, each word with its box, the page count and size. */
export async function readBack(file: string): Promise<TReadBack> {
  const [text, bbox, info] = await Promise.all([run('pdftotext', [file, '-']), run('pdftotext', ['-bbox', file, '-']), run('pdfinfo', [file])]);
  const words = [...bbox.stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5]!.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'"),
  }));
  return {
    text: text.stdout.replace(/\s+/g, ' ').trim(),
    words,
    pages: Number(/Pages:\s+(\d+)/.exec(info.stdout)![1]),
    pageSize: /Page size:\s+(.*)/.exec(info.stdout)![1]!.trim(),
  };
}

/** Every stream of a PDF (as pdfkit writes them: flat dictionaries), inflated where compressed. */
function streamsOf(pdf: Buffer): string[] {
  const source = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of source.matchAll(/<<([^<>]*)>>\s*stream\r?\n/g)) {
    const length = Number(/\/Length (\d+)/.exec(match[1]!)?.[1]);
    const start = match.index + match[0].length;
    const bytes = pdf.subarray(start, start + length);
    streams.push((match[1]!.includes('/FlateDecode') ? inflateSync(bytes) : bytes).toString('latin1'));
  }
  return streams;
}

/**
 * What the PDF's fonts say of the glyphs it draws. Every font is embedded with two-byte glyph codes
 * (Identity-H), code 0 being the font's missing-glyph box; each font's ToUnicode map gives each
 * code it draws the characters it stands for, and an empty entry is a glyph a reader cannot read.
 */
export function glyphMappings(pdf: Buffer): { glyphsDrawn: number; missingGlyphsDrawn: number; unmappedGlyphs: number } {
  let glyphsDrawn = 0;
  let missingGlyphsDrawn = 0;
  let unmappedGlyphs = 0;
  for (const stream of streamsOf(pdf)) {
    if (stream.includes('begincmap')) {
      for (const range of stream.matchAll(/<[0-9a-fA-F]+> <[0-9a-fA-F]+> \[([^\]]*)\]/g)) unmappedGlyphs += [...range[1]!.matchAll(/<>/g)].length;
    } else if (/\bBT\b/.test(stream)) {
      for (const array of stream.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
        for (const hex of array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)) {
          const codes = hex[1]!.match(/.{4}/g) ?? [];
          glyphsDrawn += codes.length;
          missingGlyphsDrawn += codes.filter((code) => code === '0000').length;
        }
      }
    }
  }
  return { glyphsDrawn, missingGlyphsDrawn, unmappedGlyphs };
}
