import { z } from 'zod';
import { isNameCharacter, isTitleCharacter, refusedCharacters, shownCharacters } from '../certificate-characters.ts';
import { MESSAGES } from '../messages.ts';

const V = MESSAGES.validation;

/**
 * A request body as a strict object: an unknown key (a smuggled `role` or `approved`) is refused
 * with a clear message rather than silently dropped, and a body that is not an object says so.
 */
export function requestObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return V.unknownFields(issue.keys);
      if (issue.code === 'invalid_type') return V.expectedObject;
      return undefined;
    },
  });
}

/** Control characters, lone surrogates and bidirectional overrides have no place in a name. */
const HOSTILE_CHARACTERS = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/** A string field that must be present; `missing` is the message for an absent or empty value. */
export function presentText(label: string, missing: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? missing : V.mustBeText(label)) })
    .trim()
    .min(1, missing);
}

/** Free text such as a name: bounded, and free of characters that only serve to deceive. */
export function plainText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, V.tooLong(label, max))
    .refine((value) => !HOSTILE_CHARACTERS.test(value), V.badCharacters(label));
}

/** Characters refused with a message of their own (plainText's, and names' angle brackets). */
const REFUSED_ELSEWHERE = /[<>\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/**
 * Text a certificate prints: as plainText, in Unicode's composed form (NFC, as it is then stored
 * and printed), and only in characters the certificate's fonts draw (shared/certificate-characters.ts).
 */
function printedText(label: string, max: number, allowed: (character: string) => boolean, message: (label: string, characters: string) => string) {
  return z
    .string()
    .transform((value) => value.normalize('NFC'))
    .pipe(plainText(label, max))
    .superRefine((value, ctx) => {
      const refused = refusedCharacters(value, allowed).filter((character) => !REFUSED_ELSEWHERE.test(character));
      if (refused.length > 0) ctx.addIssue({ code: 'custom', message: message(label, shownCharacters(refused)) });
    });
}

/** A person's name as a certificate prints it: no angle brackets, and only the alphabets its fonts draw. */
export function printedName(label: string, max: number) {
  return printedText(label, max, isNameCharacter, V.nameNotPrintable).refine((value) => !/[<>]/.test(value), V.badCharacters(label));
}

/** A course title as a certificate prints it. */
export function printedTitle(label: string, max: number) {
  return printedText(label, max, isTitleCharacter, V.titleNotPrintable);
}

/** Multi-line free text (a description, a message): as plainText, but line breaks and tabs stay. */
const HOSTILE_IN_MULTILINE = /(?![\n\r\t])\p{Cc}|[\p{Cs}\u202A-\u202E\u2066-\u2069]/u;
export function multilineText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, V.tooLong(label, max))
    .refine((value) => !HOSTILE_IN_MULTILINE.test(value), V.badCharacters(label));
}

export const EMAIL_MAX_LENGTH = 254;

/** An e-mail address, trimmed and lowercased; `invalid` is the message for a malformed one. */
export function emailAddress(options: { missing: string; invalid: string; missingAt?: string }) {
  return presentText('Email', options.missing)
    .max(EMAIL_MAX_LENGTH, V.tooLong('Email', EMAIL_MAX_LENGTH))
    .refine((value) => value.includes('@'), options.missingAt ?? options.invalid)
    .pipe(z.email(options.invalid))
    .transform((value) => value.toLowerCase());
}

export const ZId = z.uuid(V.invalidId);

export const ZMessageResult = z.object({ message: z.string() });
export type TMessageResult = z.infer<typeof ZMessageResult>;
