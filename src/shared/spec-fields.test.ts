import { describe, expect, it } from 'vitest';
import type { TCourse } from './schemas/course.ts';
import {
  COURSE_SPEC_NAMES,
  fromSpecFieldErrors,
  fromSpecFields,
  fromSpecName,
  toSpecCourse,
  toSpecFieldErrors,
  toSpecName,
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
