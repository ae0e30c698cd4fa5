import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_TITLE_MAX_LENGTH } from '../../../shared/schemas/course.ts';
import { PROFILE_TEXT_MAX_LENGTH } from '../../../shared/schemas/profile.ts';
import { glyphMappings, readBack, type TReadBack, type TWord } from '../../../testing/pdf-read-back.ts';
import { renderCertificatePdf, type TCertificateContent } from './certificate-document.tsx';
import { SAMPLE_CERTIFICATE_CONTENT } from '../../../testing/certificate-content.ts';

/*
 * The longest names and course titles the forms accept, in each script the certificate prints,
 * rendered one after another in one process as a worker renders them, and read back with poppler.
 */

/** The name of the report: a name correction to it printed "Świętochł-owice" and lost its "A". */
const REPORTED = 'Marina Aleksandra Kowalska-Wiśniewska de Świętochłowice y Łódź-Żółkiewska Brzęczyszczykiewicz';
const LATIN = 'Świętosława Bożydara Żółkiewska-Brzęczyszczykiewicz de Łęczyca y Nguyễn Thị Phượng Đặng Hoàng Ánh Øy';
const DEVANAGARI = 'श्रीमती प्रियदर्शिनी अन्नपूर्णा लक्ष्मीनारायण वेंकटरमण सुब्रह्मण्यम् चक्रवर्ती किरण शर्मा त्रिपाठीजी';
const MIXED = 'Priya Śrīnivāsan प्रियदर्शिनी Venkataraman-Żółkiewska वेंकटरमण सुब्रह्मण्यम् Nguyễn Thị Phượng शर्मा';
/** One word of a hundred letters: nowhere to break it, so it is set smaller. */
const ONE_WORD = 'Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepf';
/** A hundred of the widest capital the fonts have. */
const WIDEST = 'Щ'.repeat(100);

const LATIN_TITLE =
  'Proficiency in Survival Craft and Rescue Boats — Łódź, Gdańsk, Świnoujście, Třeboň, Håkøy and Ålesund: Sécurité Maritime, Überlebenstraining, Ñandú Ýí';
const DEVANAGARI_TITLE =
  'अग्नि निवारण एवं अग्निशमन, व्यक्तिगत उत्तरजीविता तकनीक, प्राथमिक चिकित्सा, व्यक्तिगत सुरक्षा और सामाजिक दायित्व तथा जहाज़ सुरक्षा जागरूकता प्रशिक्षणों';
const MIXED_TITLE =
  'Personal Survival Techniques व्यक्तिगत उत्तरजीविता तकनीक — Fire Prevention and Fire Fighting अग्नि निवारण एवं अग्निशमन (STCW A-VI/1-2), Gdańsku–Gdynia';
const ONE_WORD_TITLE = 'Überlebenstrainingsausbildungsprogramm'.repeat(4).slice(0, 150);

const base: TCertificateContent = { ...SAMPLE_CERTIFICATE_CONTENT, version: 2, reissuedOn: '3 March 2027' };

/** In the order a worker might meet them; the first has accented capitals drawn from the plain ones. */
const cases = {
  primer: { ...base, holderName: 'Ágota Ånström Ánh', courseTitle: 'Ágota Ånström Ánh: Årsmøte' },
  reported: { ...base, holderName: REPORTED },
  latin: { ...base, holderName: LATIN, courseTitle: LATIN_TITLE },
  devanagari: { ...base, holderName: DEVANAGARI, courseTitle: DEVANAGARI_TITLE },
  mixed: { ...base, holderName: MIXED, courseTitle: MIXED_TITLE },
  oneWord: { ...base, holderName: ONE_WORD, courseTitle: ONE_WORD_TITLE },
  widest: { ...base, holderName: WIDEST },
} satisfies Record<string, TCertificateContent>;
type TCase = keyof typeof cases;
const CASES = Object.keys(cases) as TCase[];

/** Inside the frame's inner border: A4 landscape less the page padding and both borders. */
const FRAME = { left: 22 + 3 + 5 + 1, right: 841.89 - (22 + 3 + 5 + 1) };

const dir = mkdtempSync(path.join(tmpdir(), 'certificate-names-'));
const read = {} as Record<TCase, TReadBack & { pdf: Buffer }>;

beforeAll(async () => {
  for (const name of CASES) {
    const file = path.join(dir, `${name}.pdf`);
    const pdf = await renderCertificatePdf(cases[name]);
    writeFileSync(file, pdf);
    read[name] = { ...(await readBack(file)), pdf };
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const collapsed = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** The text between two phrases of the page's own wording. */
function textBetween(text: string, after: string, before: string): string {
  const start = text.indexOf(after);
  const end = text.indexOf(before, start + after.length);
  expect(start, after).toBeGreaterThanOrEqual(0);
  expect(end, before).toBeGreaterThan(start);
  return text.slice(start + after.length, end).trim();
}

/** The words printed between two words of the page's own wording, e.g. the name between "that" and "INDOS". */
function wordsBetween(words: TWord[], after: string, before: string): TWord[] {
  const start = words.findIndex((word) => word.text === after);
  const end = words.findIndex((word, index) => index > start && word.text === before);
  return words.slice(start + 1, end);
}

/** Words grouped into the lines they sit on (boxes overlapping by most of their height: Devanagari's are taller than Latin's). */
function linesOf(words: TWord[]): TWord[][] {
  const overlap = (a: TWord, b: TWord) => (Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin)) / Math.min(a.yMax - a.yMin, b.yMax - b.yMin);
  const lines: TWord[][] = [];
  for (const word of words) {
    const line = lines.find((candidate) => overlap(candidate[0]!, word) > 0.5);
    if (line) line.push(word);
    else lines.push([word]);
  }
  return lines;
}

describe('a name or a course title at its longest', () => {
  it('uses the longest the forms accept', () => {
    for (const name of [LATIN, DEVANAGARI, MIXED, ONE_WORD, WIDEST]) expect(name.normalize('NFC')).toHaveLength(PROFILE_TEXT_MAX_LENGTH);
    expect(REPORTED).toHaveLength(93);
    for (const title of [LATIN_TITLE, DEVANAGARI_TITLE, MIXED_TITLE, ONE_WORD_TITLE]) expect(title.normalize('NFC')).toHaveLength(COURSE_TITLE_MAX_LENGTH);
  });

  it('reads back exactly as written, from the text layer', () => {
    for (const name of CASES) {
      const { text } = read[name];
      expect(textBetween(text, 'This is to certify that', 'INDOS No.'), name).toBe(collapsed(cases[name].holderName));
      expect(textBetween(text, 'has successfully completed the course', 'Course code'), name).toBe(collapsed(cases[name].courseTitle));
    }
  });

  it('draws every glyph from a font that has it, and maps each to the characters it stands for', () => {
    for (const name of CASES) {
      const glyphs = glyphMappings(read[name].pdf);
      expect(glyphs.glyphsDrawn, name).toBeGreaterThan(100);
      expect(glyphs.missingGlyphsDrawn, `${name}: missing-glyph boxes drawn`).toBe(0);
      expect(glyphs.unmappedGlyphs, `${name}: glyphs without characters`).toBe(0);
    }
  });

  it('breaks lines between words only, at most two lines, every word inside the frame and its box', () => {
    for (const name of CASES) {
      const { words } = read[name];
      const holder = wordsBetween(words, 'that', 'INDOS');
      const course = wordsBetween(words, 'course', 'Course');
      const lead = words.find((word) => word.text === 'that')!;
      const facts = words.find((word) => word.text === 'INDOS')!;
      const courseLead = words.find((word) => word.text === 'course')!;
      const courseFacts = words.find((word) => word.text === 'Course')!;
      // A word cut at a line's end would come back as two.
      expect(holder.map((word) => word.text).join(' '), name).toBe(collapsed(cases[name].holderName));
      expect(course.map((word) => word.text).join(' '), name).toBe(collapsed(cases[name].courseTitle));
      expect(linesOf(holder).length, name).toBeLessThanOrEqual(2);
      expect(linesOf(course).length, name).toBeLessThanOrEqual(2);
      for (const word of [...holder, ...course]) {
        expect(word.xMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(FRAME.left);
        expect(word.xMax, `${name}: ${word.text}`).toBeLessThanOrEqual(FRAME.right);
      }
      for (const word of holder) {
        expect(word.yMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(lead.yMax);
        expect(word.yMax, `${name}: ${word.text}`).toBeLessThanOrEqual(facts.yMin);
      }
      for (const word of course) {
        expect(word.yMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(courseLead.yMax);
        expect(word.yMax, `${name}: ${word.text}`).toBeLessThanOrEqual(courseFacts.yMin);
      }
    }
  });

  it('keeps a real name large and centred, and the page one A4 page', () => {
    for (const name of CASES) {
      expect(read[name].pages, name).toBe(1);
      expect(read[name].pageSize, name).toBe('841.89 x 595.28 pts (A4)');
      const holder = wordsBetween(read[name].words, 'that', 'INDOS');
      for (const line of linesOf(holder)) {
        const left = Math.min(...line.map((word) => word.xMin)) - FRAME.left;
        const right = FRAME.right - Math.max(...line.map((word) => word.xMax));
        expect(Math.abs(left - right), `${name}: centred`).toBeLessThan(2);
      }
    }
    // A word's box is as tall as the line: about 1.36 times the size for Latin, more for Devanagari.
    for (const name of ['reported', 'latin', 'devanagari', 'mixed'] as const) {
      const holder = wordsBetween(read[name].words, 'that', 'INDOS');
      expect(Math.min(...holder.map((word) => word.yMax - word.yMin)), `${name}: line height`).toBeGreaterThan(28);
    }
  });
});
