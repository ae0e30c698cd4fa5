import { createHash, timingSafeEqual } from 'node:crypto';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateState, TCertificateVerification, TVerifyByHolderRequest } from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { throttle, type TRateLimitRule } from '../../lib/rate-limit.ts';
import { profileMatches } from '../profiles/profiles.service.ts';
import { findLinkedByNumber, findVersionsOf, type TLinkedCertificate } from './certificates.repository.ts';
import { stateReader } from './certificates.service.ts';

const C = MESSAGES.certificate;

/** Every check from one address: enough for an employer checking a crew list; too few to walk the number space. */
export const VERIFY_LIMIT: TRateLimitRule = { limit: 30, windowMs: 60_000 };
export const verifyKey = (ip: string) => `certificate-verify:ip:${ip}`;

/**
 * Checks without the code (the number alone, or with a holder detail) from all addresses together:
 * a walk from many addresses stays slow, while whoever holds the QR code is never held back.
 */
export const VERIFY_NUMBER_LIMITS: ReadonlyArray<readonly [key: string, rule: TRateLimitRule]> = [
  ['certificate-verify:by-number:minute', { limit: 120, windowMs: 60_000 }],
  ['certificate-verify:by-number:hour', { limit: 1_200, windowMs: 60 * 60_000 }],
];

/** Holder checks (date of birth, INDOS number) of one certificate, right or wrong: too few to guess a birthday. */
export const VERIFY_HOLDER_LIMIT: TRateLimitRule = { limit: 10, windowMs: 60 * 60_000 };
export const verifyHolderKey = (number: string) => `certificate-verify:holder:${number}`;

/** The first letter of a name part, whatever its script: a whole code point that is a letter or digit. */
function initialOf(part: string): string {
  const letter = /[\p{L}\p{N}]/u.exec(part)?.[0] ?? '';
  return letter.toLocaleUpperCase();
}

/**
 * The holder's name as a number alone shows it: the first given name's initial and the surname's
 * first letter, "A. M***". A name of one word shows its initial alone ("S***"); when the first
 * name holds the whole name, its last word stands for the surname.
 */
export function maskedHolderName(person: { firstName: string; lastName: string }): string {
  const given = person.firstName.trim().split(/\s+/).filter(Boolean);
  const family = person.lastName.trim();
  const first = given[0];
  const surname = family || (given.length > 1 ? given[given.length - 1]! : '');
  if (first && surname) return `${initialOf(first)}. ${initialOf(surname)}***`;
  return `${initialOf(first ?? family)}***`;
}

/** Equal secrets, compared in constant time (hashes first, so the lengths match too). */
function sameSecret(given: string, stored: string): boolean {
  const hash = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(hash(given), hash(stored));
}

/** The holder's name, course, dates and links, as the certificate's current version prints them. */
function fullVerification(row: TLinkedCertificate, state: TCertificateState): TCertificateVerification {
  return {
    detail: 'full',
    number: row.number,
    version: row.version,
    state,
    holderName: row.holderName,
    courseTitle: row.courseTitle,
    courseCode: row.courseCode,
    approvalNumber: row.approvalNumber,
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
    supersededBy: row.supersededBy,
    renews: row.renews,
  };
}

function maskedVerification(row: TLinkedCertificate, state: TCertificateState): TCertificateVerification {
  return {
    detail: 'masked',
    number: row.number,
    state,
    maskedName: maskedHolderName({ firstName: row.holderName, lastName: '' }),
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
  };
}

/** The earlier version of `row` whose code is `code`, if a re-issue replaced one. */
async function earlierVersionWithCode(db: Executor, row: TLinkedCertificate, code: string): Promise<number | undefined> {
  if (row.version === 1) return undefined;
  const versions = await findVersionsOf(db, row.id);
  // Every version is compared, so the time taken says nothing about which one matched.
  const matches = versions.filter((version) => sameSecret(code, version.verificationCode));
  return matches[0]?.version;
}

type VerifyDeps = Pick<AppDeps, 'db' | 'logger' | 'rateLimit' | 'env'>;

/**
 * /verify/{number} and /verify/{number}?code={code}. With the certificate's code (the QR code and
 * the printed link carry it): its state, the holder's name as printed, the course with its code
 * and approval number, the dates, the version and the certificates it links to. With an earlier
 * version's code: that a re-issue superseded that version, and by which. With the number alone, or
 * a code of no version of it: only that it exists, its state, its dates and the masked name.
 * Every check counts per address; one without a code of the certificate also counts across all
 * addresses, so the numbers cannot be walked from many of them.
 */
export async function verifyCertificate(deps: VerifyDeps, input: { number: string; code?: string | undefined }, ip: string): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  const row = await findLinkedByNumber(deps.db, input.number);
  if (row && input.code) {
    if (sameSecret(input.code, row.verificationCode)) return fullVerification(row, stateReader(deps.env)(row));
    const version = await earlierVersionWithCode(deps.db, row, input.code);
    if (version !== undefined) return { detail: 'superseded-version', number: row.number, version, currentVersion: row.version };
  }
  await throttle(deps, VERIFY_NUMBER_LIMITS, C.tooManyNumberLookups);
  if (!row) throw notFound(C.unknownNumber);
  return maskedVerification(row, stateReader(deps.env)(row));
}

/**
 * The number with the holder's date of birth or INDOS number (from their profile): the details
 * when every given one matches; otherwise exactly what the number alone answers. Each check of a
 * number counts, right or wrong, on that number as well as per address and across all addresses.
 */
export async function verifyCertificateByHolder(deps: VerifyDeps, input: TVerifyByHolderRequest, ip: string): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  await throttle(deps, [[verifyHolderKey(input.number), VERIFY_HOLDER_LIMIT]], C.tooManyHolderChecks);
  await throttle(deps, VERIFY_NUMBER_LIMITS, C.tooManyNumberLookups);
  const row = await findLinkedByNumber(deps.db, input.number);
  if (!row) throw notFound(C.unknownNumber);
  const given = { dateOfBirth: input.dateOfBirth, indosNo: input.indosNo };
  const state = stateReader(deps.env)(row);
  return (await profileMatches(deps, row.userId, given)) ? fullVerification(row, state) : maskedVerification(row, state);
}

