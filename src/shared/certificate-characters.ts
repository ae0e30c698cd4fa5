/*
 * The characters a certificate prints: those its fonts draw (Noto Serif and Noto Sans with their
 * Devanagari faces, server/modules/certificates/certificate-fonts.ts). A holder's name and a course
 * title are held to them where they are typed, so nothing reaches a certificate that would print
 * as an empty box. certificate-characters.test.ts reads the fonts' own character maps and fails
 * on any character allowed here that a font lacks. Text is checked in Unicode's composed form
 * (NFC), as it is stored and printed: a letter and its accent typed apart are one character then.
 */

/** Letters (and, for Devanagari, vowel signs and digits) of the scripts the fonts draw, by range. */
const SCRIPT_RANGES = [
  // Devanagari (first: its block starts with a sign, which after another range's last letter would read as an accent on it)
  '\\u0900-\\u097F',
  'A-Za-z',
  // Latin-1's letters, Latin Extended-A and -B, the IPA letters some alphabets took (ə of Azerbaijani)
  '\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02AF',
  // ʻ and ʼ, letters in Hawaiian and Uzbek
  '\\u02BB\\u02BC',
  // Latin Extended Additional: Vietnamese, Welsh ŵ
  '\\u1E00-\\u1EFF',
  // Greek (its block less the Coptic letters in it) and polytonic Greek
  '\\u0370-\\u03E1\\u03F0-\\u03FF\\u1F00-\\u1FFF',
  // Cyrillic and its supplement
  '\\u0400-\\u052F',
].join('');

/** What a name is written with: those letters and digits, spaces, - ' ’ . , and the joiners Devanagari spelling uses. */
const NAME_CHARACTER = new RegExp(`^(?:(?=[\\p{L}\\p{M}\\p{Nd}])[${SCRIPT_RANGES}]|[0-9 \\-'\\u2019.,\\u200C\\u200D])$`, 'u');

/** A course title may also hold the punctuation and signs of the Latin fonts: dashes, quotes, & ( ) / : ₹ € ™ and the like. */
const TITLE_PUNCTUATION = new RegExp(
  '^[\\u0020-\\u007E\\u00A1-\\u00AC\\u00AE-\\u00BF\\u00D7\\u00F7\\u2013\\u2014\\u2018-\\u201A\\u201C-\\u201E\\u2020\\u2022\\u2026\\u2032\\u2033\\u2039\\u203A\\u2044\\u20AC\\u20B9\\u2116\\u2122\\u2212\\u0964\\u0965\\u0970]$',
  'u',
);

/** Whether a name may hold this character (one code point). */
export function isNameCharacter(character: string): boolean {
  return NAME_CHARACTER.test(character);
}

/** Whether a course title may hold this character (one code point). */
export function isTitleCharacter(character: string): boolean {
  return NAME_CHARACTER.test(character) || TITLE_PUNCTUATION.test(character);
}

/** The distinct characters of `text` (composed) that `allowed` refuses, in order of appearance. */
export function refusedCharacters(text: string, allowed: (character: string) => boolean): string[] {
  return [...new Set([...text.normalize('NFC')].filter((character) => !allowed(character)))];
}

/** Characters for a message: as themselves, or by number when they cannot be seen (a no-break space). */
export function shownCharacters(characters: readonly string[]): string {
  const shown = characters.slice(0, 5).map((character) =>
    /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(character) ? character : `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
  return characters.length > 5 ? `${shown.join(' ')} …` : shown.join(' ');
}
