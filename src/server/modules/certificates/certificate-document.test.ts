import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCertificatePdf, type TCertificateContent } from './certificate-document.tsx';
import { charactersWithoutGlyph, fittedText, loadedFonts } from './certificate-fonts.ts';
import { SAMPLE_CERTIFICATE_CONTENT } from '../../../testing/certificate-content.ts';

const run = promisify(execFile);

const ACCENTED = 'María-José Ñúñez Łódź-Šćepanović Ørstedt-Þórðardóttir Françoise Ångström Dvořák Kościuszko';
const DEVANAGARI = 'श्रीमती अन्नपूर्णा लक्ष्मीनारायण वेंकटरमण सुब्रह्मण्यम् चक्रवर्ती';
const GREEK_CYRILLIC = 'Αλέξανδρος Παπαδόπουλος Наталья Александровна Воронцова-Дашкова';
const LONG_TITLE =
  'Advanced Training in Fire Fighting, Medical First Aid, Personal Survival Techniques, Proficiency in Survival Craft and Rescue Boats other than Fast Rescue Boats and Security Awareness with Duties STCW';
/** The fourteen fonts every PDF reader has, which a PDF may name without embedding. */
const STANDARD_FONTS = /Helvetica|Times|Courier|Symbol|ZapfDingbats/;

const base = SAMPLE_CERTIFICATE_CONTENT;

const cases = {
  accented: { ...base, holderName: ACCENTED, courseTitle: LONG_TITLE, version: 2, reissuedOn: '3 March 2027' },
  devanagari: { ...base, holderName: DEVANAGARI },
  greekCyrillic: { ...base, holderName: GREEK_CYRILLIC, courseCode: null, approvalNumber: null, validUntil: null },
  // A script none of the fonts covers: its letters print as empty boxes, still from an embedded font.
  uncovered: { ...base, holderName: 'Wei 李伟 Zhang' },
} satisfies Record<string, TCertificateContent>;
type TCase = keyof typeof cases;

type TWord = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };
type TReadBack = { text: string; words: TWord[]; fonts: string[][]; pages: number; pageSize: string };

const dir = mkdtempSync(path.join(tmpdir(), 'certificate-document-'));
const read = {} as Record<TCase, TReadBack>;

/** What poppler reads back: the text, each word with its box (points from the top left), the font table, the page count. */
async function readBack(file: string): Promise<TReadBack> {
  const [text, bbox, fonts, info] = await Promise.all([
    run('pdftotext', [file, '-']),
    run('pdftotext', ['-bbox', file, '-']),
    run('pdffonts', [file]),
    run('pdfinfo', [file]),
  ]);
  const words = [...bbox.stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5]!.replaceAll('&amp;', '&'),
  }));
  return {
    text: text.stdout.replace(/\s+/g, ' '),
    words,
    // Rows under the header: name, type, encoding, emb, sub, uni, object, generation.
    fonts: fonts.stdout.split('\n').slice(2).filter(Boolean).map((row) => row.trim().split(/\s+/)),
    pages: Number(/Pages:\s+(\d+)/.exec(info.stdout)![1]),
    pageSize: /Page size:\s+(.*)/.exec(info.stdout)![1]!.trim(),
  };
}

/** The words printed between two others (exclusive), e.g. the name between "that" and "INDOS". */
function wordsBetween(words: TWord[], after: string, before: string): TWord[] {
  const start = words.findIndex((word) => word.text === after);
  const end = words.findIndex((word, index) => index > start && word.text === before);
  return words.slice(start + 1, end);
}

beforeAll(async () => {
  for (const [name, content] of Object.entries(cases) as Array<[TCase, TCertificateContent]>) {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, await renderCertificatePdf(content));
    read[name] = await readBack(file);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the certificate PDF', () => {
  it('is one A4 landscape page however long the name and the course title', () => {
    expect([...ACCENTED]).toHaveLength(90);
    expect(LONG_TITLE).toHaveLength(200);
    for (const name of Object.keys(cases) as TCase[]) {
      expect(read[name].pages, name).toBe(1);
      expect(read[name].pageSize, name).toBe('841.89 x 595.28 pts (A4)');
    }
  });

  it('embeds every font it uses and names no standard font', () => {
    for (const name of Object.keys(cases) as TCase[]) {
      const { fonts } = read[name];
      expect(fonts.length, name).toBeGreaterThan(0);
      for (const row of fonts) {
        expect(row[0], name).not.toMatch(STANDARD_FONTS);
        // The row ends with emb, sub, uni, object and generation (a type may have two words).
        expect(row.at(-5), `${name}: ${row[0]} embedded`).toBe('yes');
      }
    }
    expect(read.devanagari.fonts.map((row) => row[0]).join(' ')).toMatch(/NotoSerifDevanagari-Bold/);
  });

  it('prints a Latin name with its accents, and Greek and Cyrillic, as written', () => {
    expect(read.accented.text).toContain(ACCENTED);
    expect(read.greekCyrillic.text).toContain(GREEK_CYRILLIC);
  });

  it('prints a Devanagari name that reads back as written, though a reph is drawn after the letter it precedes', () => {
    // चक्रवर्ती: the reph (र्) sits above ती and is drawn after it; the text layer says what was written.
    expect(read.devanagari.text).toContain(DEVANAGARI);
  });

  it('keeps the name and the course title inside the frame and clear of the lines around them', () => {
    const frame = { left: 31, right: 841.89 - 31 };
    for (const name of Object.keys(cases) as TCase[]) {
      const { words } = read[name];
      const facts = words.find((word) => word.text === 'INDOS')!;
      const holder = wordsBetween(words, 'that', 'INDOS');
      const course = wordsBetween(words, 'course', name === 'greekCyrillic' ? 'C' : 'Course');
      const lead = words.find((word) => word.text === 'that')!;
      const courseLead = words.find((word) => word.text === 'course')!;
      expect(holder.length, name).toBeGreaterThan(0);
      expect(course.length, name).toBeGreaterThan(0);
      for (const word of [...holder, ...course]) {
        expect(word.xMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(frame.left);
        expect(word.xMax, `${name}: ${word.text}`).toBeLessThanOrEqual(frame.right);
      }
      for (const word of holder) {
        expect(word.yMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(lead.yMax);
        expect(word.yMax, `${name}: ${word.text}`).toBeLessThanOrEqual(facts.yMin);
      }
      for (const word of course) expect(word.yMin, `${name}: ${word.text}`).toBeGreaterThanOrEqual(courseLead.yMax);
      // The foot (the number's label first) starts below everything above it.
      const foot = words.find((word) => word.text === 'C')!;
      for (const word of words.slice(0, words.indexOf(foot))) expect(word.yMax, `${name}: ${word.text}`).toBeLessThan(foot.yMin);
    }
    expect(read.accented.text).toContain(LONG_TITLE);
  });

  it('prints the holder, the course terms, the version on a re-issue and the validity where there is one', () => {
    const { text } = read.accented;
    for (const expected of ['INDOS No. 12AB3456', 'Date of birth 12 April 1990', 'Passport No. Z1234567', 'Course code FPFF', 'Approval No. DGS/MTI/2021/FPFF/0457']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('MTA/2026/000123 Version 2, re-issued 3 March 2027');
    expect(text.replaceAll(' ', '')).toContain('DATEOFISSUE24November2026');
    // The labels are letter-spaced, so poppler reads them a letter at a time.
    expect(text.replaceAll(' ', '')).toContain('VALIDUNTIL23November2031');
    expect(text).toContain(base.verifyUrl);

    expect(read.devanagari.text).not.toContain('Version');
    expect(read.devanagari.text.replaceAll(' ', '')).toContain('VALIDUNTIL23November2031');
    const plain = read.greekCyrillic.text.replaceAll(' ', '');
    for (const absent of ['VALIDUNTIL', 'Coursecode', 'ApprovalNo.', 'Version']) expect(plain).not.toContain(absent);
  });
});

describe('charactersWithoutGlyph', () => {
  it('names the characters of a script the fonts do not cover, and nothing of those they do', async () => {
    expect(await charactersWithoutGlyph('Wei 李伟 Zhang')).toEqual(['李', '伟']);
    expect(await charactersWithoutGlyph(`${ACCENTED} ${DEVANAGARI} ${GREEK_CYRILLIC}`)).toEqual([]);
  });
});

describe('fittedText', () => {
  const box = { width: 600, height: 66, maxSize: 32, maxLines: 2 };

  it('keeps a short name at the largest size and shrinks a longer one, never growing with length', async () => {
    const fonts = await loadedFonts('serif', 700);
    expect(fittedText(fonts, 'Priya Menon', box)).toEqual({ size: 32, lines: [{ text: 'Priya Menon', runs: ['Priya Menon'] }] });
    let previous = 32;
    for (let words = 2; words <= 16; words += 2) {
      const { size } = fittedText(fonts, Array.from({ length: words }, () => 'Subrahmanyam').join(' '), box);
      expect(size).toBeLessThanOrEqual(previous);
      previous = size;
    }
    expect(previous).toBeLessThan(16);
  });

  it('shrinks one word of dozens of letters until it fits the width rather than letting it run out', async () => {
    const fonts = await loadedFonts('serif', 700);
    const { size, lines } = fittedText(fonts, 'W'.repeat(60), box);
    expect(size).toBeLessThan(12);
    expect(size).toBeGreaterThan(0);
    expect(lines.map((line) => line.text)).toEqual(['W'.repeat(60)]);
  });

  it('breaks between words only, into lines as even as the number of lines allows', async () => {
    const fonts = await loadedFonts('serif', 700);
    const name = 'Marina Aleksandra Kowalska-Wiśniewska de Świętochłowice y Łódź-Żółkiewska Brzęczyszczykiewicz';
    const { lines } = fittedText(fonts, name, box);
    expect(lines.map((line) => line.text)).toEqual(['Marina Aleksandra Kowalska-Wiśniewska de', 'Świętochłowice y Łódź-Żółkiewska Brzęczyszczykiewicz']);
  });

  it('cuts each line into the runs react-pdf draws it in: one per font and per script', async () => {
    const fonts = await loadedFonts('serif', 700);
    expect(fittedText(fonts, 'Świętochłowice', box).lines[0]!.runs).toEqual(['Ś', 'wi', 'ę', 'toch', 'ł', 'owice']);
    // A space goes with the script before it and is drawn from the Latin font: the two cuts differ.
    expect(fittedText(fonts, 'किरण Priya शर्मा', box).lines[0]!.runs).toEqual(['किरण', ' ', 'Priya ', 'शर्मा']);
    expect(fittedText(fonts, 'शर्मा किरण', box).lines[0]!.runs).toEqual(['शर्मा', ' ', 'किरण']);
  });
});
