import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TCourse } from './schemas/course.ts';
import type { TProfile, TProfileFile } from './schemas/profile.ts';
import {
  ATTEMPT_SPEC_NAMES,
  COURSE_SPEC_NAMES,
  fromSpecFieldErrors,
  fromSpecFields,
  fromSpecName,
  fromSpecProfile,
  fromSpecRegistration,
  PROFILE_SPEC_NAMES,
  REGISTRATION_SPEC_NAMES,
  toSpecCourse,
  toSpecFieldErrors,
  toSpecFields,
  toSpecName,
  toSpecProfile,
  TRAINING_SET_SPEC_NAMES,
  withSpecId,
} from './spec-fields.ts';

const course: TCourse = {
  id: 'c1',
  title: 'Basic Safety Training',
  description: 'STCW basic safety.',
  duration: '5 days',
  price: 4500,
  category: 'STCW',
  subjects: ['Fire fighting', 'First aid'],
  image: { filename: 'c1.webp', url: '/api/uploads/courseImg/c1.webp', width: 640, height: 320 },
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

describe('the course under the spec names', () => {
  it('answers the keys the spec reads, in the order they always came', () => {
    const spec = toSpecCourse(course);
    expect(Object.keys(spec)).toEqual([
      '_id',
      'title',
      'description',
      'duration',
      'price',
      'category',
      'subject',
      'courseImg',
      'isActive',
      'createdAt',
      'updatedAt',
    ]);
    expect(spec).toMatchObject({ _id: 'c1', subject: course.subjects, courseImg: course.image });
  });
});

describe('names and paths', () => {
  it('renames a field, or the first segment of a path, both ways', () => {
    expect(toSpecName(COURSE_SPEC_NAMES, 'subjects')).toBe('subject');
    expect(toSpecName(COURSE_SPEC_NAMES, 'subjects.2')).toBe('subject.2');
    expect(toSpecName(COURSE_SPEC_NAMES, 'title')).toBe('title');
    expect(fromSpecName(COURSE_SPEC_NAMES, 'courseImg')).toBe('image');
    expect(fromSpecName(COURSE_SPEC_NAMES, 'subject.0')).toBe('subjects.0');
    expect(fromSpecName(COURSE_SPEC_NAMES, 'price')).toBe('price');
  });

  it('renames per-field messages both ways', () => {
    const clear = { subjects: 'Add a subject', 'subjects.1': 'Too long', price: 'Price is required' };
    const spec = toSpecFieldErrors(COURSE_SPEC_NAMES, clear);
    expect(spec).toEqual({ subject: 'Add a subject', 'subject.1': 'Too long', price: 'Price is required' });
    expect(fromSpecFieldErrors(COURSE_SPEC_NAMES, spec)).toEqual(clear);
  });

  it('reads only the spec spellings off the wire: a clear name spelled otherwise counts as not sent', () => {
    expect(fromSpecFields(COURSE_SPEC_NAMES, { title: 'T', subject: '[]', subjects: '["smuggled"]', _id: 'x' })).toEqual({
      title: 'T',
      subjects: '[]',
      id: 'x',
    });
  });
});

const file = (filename: string): TProfileFile => ({ filename, url: `/api/files/${filename}`, contentType: 'image/png', isImage: true });

const profile: TProfile = {
  id: 'p1',
  userId: 'u1',
  name: 'Arjun Nair',
  gradeNumber: 'Grade II',
  phone: '+919876543210',
  dateOfBirth: '1990-04-12',
  passportNumber: 'Z1234567',
  passportExpiryDate: '2034-01-31',
  passportExpiryStatus: 'valid',
  indosNo: '19ZL1234',
  cdcNumber: 'MUM123456',
  cdcExpiryDate: '2033-06-30',
  cdcExpiryStatus: 'valid',
  documentsExpiring: false,
  idType: 'aadhaar',
  idTypeLabel: 'Aadhaar',
  streetAddress: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  zipCode: '400002',
  consentAcceptedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  profilePicture: file('me.png'),
  idDocument: file('id.png'),
  signature: file('sign.png'),
  identity: { state: 'awaiting_check', version: 1, checkedAt: null, returnReason: null },
  creator: { firstName: 'Arjun', lastName: 'Nair' },
};

describe('the profile under the spec names', () => {
  it('answers the keys the spec reads (section 3), in the order they always came', () => {
    expect(Object.keys(toSpecProfile(profile))).toEqual([
      '_id',
      'userId',
      'name',
      'gradenumber',
      'phone',
      'DateofBirth',
      'passportNumber',
      'passportExpiryDate',
      'passportExpiryStatus',
      'indosNo',
      'CDCnumber',
      'CDCexpiryDate',
      'CDCexpiryStatus',
      'documentsExpiring',
      'IDType',
      'IDTypeLabel',
      'streetAddress',
      'city',
      'state',
      'country',
      'zipCode',
      'consentAcceptedAt',
      'createdAt',
      'updatedAt',
      'profilePicture',
      'IdDocument',
      'signature',
      // The identity check's state (after the spec's keys).
      'identity',
      'creator',
    ]);
    expect(toSpecProfile(profile)).toMatchObject({ _id: 'p1', gradenumber: 'Grade II', IDType: 'aadhaar', IdDocument: profile.idDocument });
  });

  it('reads a REST answer back under the clear names', () => {
    expect(fromSpecProfile(toSpecProfile(profile))).toEqual(profile);
    expect(fromSpecProfile(undefined)).toBeUndefined();
  });

  it('reads a multipart form under the clear names; a clear name on the wire is no field', () => {
    const form = { name: 'Arjun', gradenumber: 'II', DateofBirth: '1990-04-12', IDType: 'aadhaar', gradeNumber: 'smuggled', role: 'admin' };
    expect(fromSpecFields(PROFILE_SPEC_NAMES, form)).toEqual({ name: 'Arjun', gradeNumber: 'II', dateOfBirth: '1990-04-12', idType: 'aadhaar', role: 'admin' });
    expect(fromSpecFields(PROFILE_SPEC_NAMES, { IdDocument: ['file'], signature: ['file'] })).toEqual({ idDocument: ['file'], signature: ['file'] });
  });
});

describe('the registration under the spec names', () => {
  it('reads `tittle` as the prefix, and leaves a body that is no object for the schema to refuse', () => {
    expect(fromSpecRegistration({ tittle: 'Mr', firstName: 'Kiran', title: 'Dr' })).toEqual({ title: 'Mr', firstName: 'Kiran' });
    expect(fromSpecRegistration('email=a@b.c')).toBe('email=a@b.c');
    expect(fromSpecRegistration([{ tittle: 'Mr' }])).toEqual([{ tittle: 'Mr' }]);
    expect(fromSpecRegistration(undefined)).toBeUndefined();
  });

  it('names a refused prefix `tittle`', () => {
    expect(toSpecFieldErrors(REGISTRATION_SPEC_NAMES, { title: 'Choose a prefix', email: 'Taken' })).toEqual({
      tittle: 'Choose a prefix',
      email: 'Taken',
    });
  });
});

describe('ids and the other records under the spec names', () => {
  it('answers a record’s id as `_id`, where the id was, and nothing else renamed', () => {
    const user = withSpecId({ id: 'u1', name: 'Arjun', email: 'a@example.com', userId: 'kept' });
    expect(JSON.stringify(user)).toBe('{"_id":"u1","name":"Arjun","email":"a@example.com","userId":"kept"}');
    expectTypeOf(user).toEqualTypeOf<{ _id: string; name: string; email: string; userId: string }>();
  });

  it('answers an attempt’s seconds as `timeTaken`, and a training set’s videos as `trainingVideo`', () => {
    expect(Object.keys(toSpecFields(ATTEMPT_SPEC_NAMES, { id: 'a1', score: 3, timeTakenSeconds: 42, passed: true }))).toEqual(['_id', 'score', 'timeTaken', 'passed']);
    const set = toSpecFields(TRAINING_SET_SPEC_NAMES, { id: 's1', courseId: 'c1', title: 'Fire', videos: [withSpecId({ id: 'v1', serial: 1 })] });
    expect(set).toEqual({ _id: 's1', courseId: 'c1', title: 'Fire', trainingVideo: [{ _id: 'v1', serial: 1 }] });
  });
});
