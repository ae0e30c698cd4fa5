import { beforeAll, describe, expect, it } from 'vitest';
import { isNameCharacter, isTitleCharacter } from '../../../shared/certificate-characters.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZRegisterRequest } from '../../../shared/schemas/auth.ts';
import { ZCourseForm } from '../../../shared/schemas/course.ts';
import { ZProfileFields } from '../../../shared/schemas/profile.ts';
import { loadedFonts } from './certificate-fonts.ts';

/*
 * Every character the forms let into a name or a course title is one the certificate's fonts
 * draw: read from the fonts' own character maps (cmap), the files the PDF embeds.
 */

type TFont = Awaited<ReturnType<typeof loadedFonts>>[number];
/** Every code point but the surrogates, which are never characters on their own. */
const CODE_POINTS = Array.from({ length: 0x110000 }, (_, codePoint) => codePoint).filter((codePoint) => codePoint < 0xd800 || codePoint > 0xdfff);

let nameFonts: TFont[];
let titleFonts: TFont[];

beforeAll(async () => {
  // The name is set in Noto Serif Bold, the title in Noto Sans Bold; the last of each list is the
  // stand-in for react-pdf's Helvetica, not a face of the list's own, so it does not count.
  nameFonts = (await loadedFonts('serif', 700)).slice(0, -1);
  titleFonts = (await loadedFonts('sans', 700)).slice(0, -1);
});

const drawnBy = (fonts: TFont[], codePoint: number) => fonts.some((font) => font.hasGlyphForCodePoint(codePoint));
const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

describe("the characters of a certificate's name and title", () => {
  it('are all drawn by the fonts that print them', () => {
    const names = CODE_POINTS.filter((codePoint) => isNameCharacter(String.fromCodePoint(codePoint)));
    const titles = CODE_POINTS.filter((codePoint) => isTitleCharacter(String.fromCodePoint(codePoint)));
    expect(names.filter((codePoint) => !drawnBy(nameFonts, codePoint)).map(hex)).toEqual([]);
    expect(titles.filter((codePoint) => !drawnBy(titleFonts, codePoint)).map(hex)).toEqual([]);
    // The four alphabets and their accents, not a handful of letters.
    expect(names.length).toBeGreaterThan(1500);
    for (const letter of ['Ś', 'ł', 'ễ', 'Ω', 'Ж', 'क', 'ि', '्', 'ऱ', '५']) expect(names, letter).toContain(letter.codePointAt(0));
  });

  it('are all a profile, an account or a course lets through, whatever is typed', () => {
    // Each character of the Basic Multilingual Plane (the planes beyond hold no character a name or
    // title may take: see above) after a letter, as an accent typed apart composes with it, through
    // the schemas themselves: what comes out is stored, and later printed.
    const profileName = ZProfileFields.shape.name;
    const registration = { title: 'Mr', lastName: 'Rao', mobile: '9876501234', email: 'kiran@example.com', password: 'Anchor#77-Harbour' };
    const courseTitle = ZCourseForm.shape.title;
    const undrawn: string[] = [];
    for (const codePoint of CODE_POINTS) {
      if (codePoint > 0xffff) break;
      const typed = `Ab${String.fromCodePoint(codePoint)}`;
      const name = profileName.safeParse(typed);
      if (name.success) for (const character of name.data) if (!drawnBy(nameFonts, character.codePointAt(0)!)) undrawn.push(`name ${hex(codePoint)}`);
      const title = courseTitle.safeParse(typed);
      if (title.success) for (const character of title.data) if (!drawnBy(titleFonts, character.codePointAt(0)!)) undrawn.push(`title ${hex(codePoint)}`);
      if (codePoint % 16 === 0) {
        const account = ZRegisterRequest.safeParse({ ...registration, firstName: typed });
        if (account.success) for (const character of account.data.firstName) if (!drawnBy(nameFonts, character.codePointAt(0)!)) undrawn.push(`first name ${hex(codePoint)}`);
      }
    }
    expect(undrawn).toEqual([]);
  }, 120_000);

  it('refuses what the fonts cannot draw, saying which characters', () => {
    const refused = ZProfileFields.shape.name.safeParse('Wei 李伟 Zhang');
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.message)).toEqual([MESSAGES.validation.nameNotPrintable('Name', '李 伟')]);
    expect(ZProfileFields.shape.name.safeParse('Ana\u00A0Lima').error!.issues[0]!.message).toBe(MESSAGES.validation.nameNotPrintable('Name', 'U+00A0'));
    expect(ZCourseForm.shape.title.safeParse('Fire Fighting 🔥').error!.issues[0]!.message).toBe(MESSAGES.validation.titleNotPrintable('Title', '🔥'));
    // Angle brackets keep their own message.
    expect(ZProfileFields.shape.name.safeParse('Ana <Lima>').error!.issues.map((issue) => issue.message)).toEqual([MESSAGES.validation.badCharacters('Name')]);
  });

  it('takes a name as written, composed: an accent typed apart is the accented letter', () => {
    for (const name of ['Marina Aleksandra Kowalska-Wiśniewska de Świętochłowice y Łódź-Żółkiewska Brzęczyszczykiewicz', 'किरण शर्मा', "Seán O'Brien-Ng", 'Nguyễn Thị Phượng', 'Αλέξανδρος Наталья']) {
      expect(ZProfileFields.shape.name.parse(name)).toBe(name);
    }
    expect(ZProfileFields.shape.name.parse('Jose\u0301')).toBe('José');
    expect(ZCourseForm.shape.title.parse('Fire Prevention & Fire Fighting — STCW A-VI/1-2 (₹ 4,500)')).toBe('Fire Prevention & Fire Fighting — STCW A-VI/1-2 (₹ 4,500)');
  });
});
