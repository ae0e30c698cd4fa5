import type { TCourse } from './schemas/course.ts';
import type { TProfile } from './schemas/profile.ts';

/*
 * The one map between the names the code uses and the spec's wire names (portal-spec sections 3
 * and 7: `tittle`, `gradenumber`, `DateofBirth`, `_id`, ...). The REST adapters translate with it
 * at the edge, and the browser with it where it posts a multipart form to a REST path; schemas,
 * services, procedures, screens and the database use the clear names only.
 */

/** Clear name → the spec's name, for the names the spec spells otherwise. */
export type TSpecNames = Readonly<Record<string, string>>;

/**
 * A profile (Profile / UserProfile): the multipart fields and files of POST /api/userProfile and
 * PUT /api/userProfile/update, and the keys of the profile in their answers and in GET
 * /api/userProfile.
 */
export const PROFILE_SPEC_NAMES = {
  id: '_id',
  gradeNumber: 'gradenumber',
  dateOfBirth: 'DateofBirth',
  cdcNumber: 'CDCnumber',
  cdcExpiryDate: 'CDCexpiryDate',
  cdcExpiryStatus: 'CDCexpiryStatus',
  idType: 'IDType',
  idTypeLabel: 'IDTypeLabel',
  idDocument: 'IdDocument',
} as const satisfies TSpecNames;

/** The registration payload of POST /user/register: the prefix is `tittle`. */
export const REGISTRATION_SPEC_NAMES = { title: 'tittle' } as const satisfies TSpecNames;

/**
 * A course: the keys of a course in the REST answers, and the multipart fields of POST and PUT
 * /api/courses (`subject` is the subjects as a JSON list of texts, `courseImg` the image).
 */
export const COURSE_SPEC_NAMES = { id: '_id', subjects: 'subject', image: 'courseImg' } as const satisfies TSpecNames;

/**
 * Every record the spec shows carries its id as `_id` (the older client's MongoDB spelling): a user,
 * an enrolment, a test and its questions, a training set and its videos, and the course or test a
 * record points to (`courseId: { _id, title }`).
 */
export const ID_SPEC_NAMES = { id: '_id' } as const satisfies TSpecNames;

/** A test attempt as the spec's result and Test submission spell it: `_id`, and `timeTaken` for its seconds. */
export const ATTEMPT_SPEC_NAMES = { id: '_id', timeTakenSeconds: 'timeTaken' } as const satisfies TSpecNames;

/** A course's training (the spec's training video set): `_id`, and its videos as `trainingVideo`. */
export const TRAINING_SET_SPEC_NAMES = { id: '_id', videos: 'trainingVideo' } as const satisfies TSpecNames;

/** T with its keys under the spec's names. */
export type TSpecNamed<T, N extends TSpecNames> = { [K in keyof T as K extends keyof N ? N[K] : K]: T[K] };

type TClearOf<N extends TSpecNames> = { [C in keyof N as N[C]]: C };
/** T (keyed by the spec's names) with its keys under the clear names; clear names the spec spells otherwise are no wire names and go. */
export type TClearNamed<T, N extends TSpecNames> = {
  [K in keyof T as K extends keyof TClearOf<N> ? Extract<TClearOf<N>[K], PropertyKey> : K extends keyof N ? never : K]: T[K];
};

/** A clear field name (or a path such as `subjects.2`, by its first segment) as the spec spells it. */
export function toSpecName(names: TSpecNames, field: string): string {
  const [first = '', ...rest] = field.split('.');
  return [Object.hasOwn(names, first) ? names[first]! : first, ...rest].join('.');
}

/** A field name (or path) the spec spells, under its clear name. */
export function fromSpecName(names: TSpecNames, field: string): string {
  const [first = '', ...rest] = field.split('.');
  const clear = Object.keys(names).find((key) => names[key] === first);
  return [clear ?? first, ...rest].join('.');
}

/** A record's keys under the spec's names, in the same order: a REST answer, a form to post. */
export function toSpecFields<T extends object, N extends TSpecNames>(names: N, record: T): TSpecNamed<T, N> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [toSpecName(names, key), value])) as TSpecNamed<T, N>;
}

/** A record whose only spec spelling is its id: `{ id, ... }` answered as `{ _id, ... }`, in the same order. */
export function withSpecId<T extends { id: unknown }>(record: T): TSpecNamed<T, typeof ID_SPEC_NAMES> {
  return toSpecFields(ID_SPEC_NAMES, record);
}

/**
 * A record sent under the spec's names (a multipart form, a JSON body) under the clear names. On
 * the wire only the spec's spellings mean something: a clear name the spec spells otherwise
 * (`gradeNumber` for `gradenumber`) is dropped, so it counts as not sent.
 */
export function fromSpecFields<T extends object, N extends TSpecNames>(names: N, record: T): TClearNamed<T, N> {
  const spelledOtherwise = new Set(Object.keys(names).filter((key) => names[key] !== key));
  const entries = Object.entries(record)
    .filter(([key]) => !spelledOtherwise.has(key))
    .map(([key, value]) => [fromSpecName(names, key), value]);
  return Object.fromEntries(entries) as TClearNamed<T, N>;
}

/** Per-field messages (`{ gradeNumber: '...' }`) under the spec's names, for a REST answer's `errors`. */
export function toSpecFieldErrors(names: TSpecNames, fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([field, message]) => [toSpecName(names, field), message]));
}

/** Per-field messages of a REST answer under the clear names, for a form to show beside its fields. */
export function fromSpecFieldErrors(names: TSpecNames, fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([field, message]) => [fromSpecName(names, field), message]));
}

export type TSpecProfile = TSpecNamed<TProfile, typeof PROFILE_SPEC_NAMES>;

/** A profile as the spec's screens read it (section 3). */
export function toSpecProfile(profile: TProfile): TSpecProfile {
  return toSpecFields(PROFILE_SPEC_NAMES, profile);
}

/** A profile as a REST answer carries it, under the clear names (still to be checked with ZProfile). */
export function fromSpecProfile(answer: unknown): unknown {
  return answer && typeof answer === 'object' && !Array.isArray(answer) ? fromSpecFields(PROFILE_SPEC_NAMES, answer) : answer;
}

/** A registration as POST /user/register takes it, under the clear names (what is no object is left for the schema to refuse). */
export function fromSpecRegistration(body: unknown): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) ? fromSpecFields(REGISTRATION_SPEC_NAMES, body) : body;
}

export type TSpecCourse = TSpecNamed<TCourse, typeof COURSE_SPEC_NAMES>;

/** A course as the spec's screens read it (section 3): `_id`, `subject`, `courseImg`. */
export function toSpecCourse(course: TCourse): TSpecCourse {
  return toSpecFields(COURSE_SPEC_NAMES, course);
}
