import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { PROFILE_SPEC_NAMES, toSpecName } from '../../../shared/spec-fields.ts';
import { emptyProfileValues } from '@/features/profile/profile-form-schema.ts';
import { applyUploadRefusal } from '@/features/profile/upload-refusal.ts';

const wire = (field: string) => toSpecName(PROFILE_SPEC_NAMES, field);

describe('applyUploadRefusal', () => {
  it('puts each message the REST answer names under the spec spelling on the form field it belongs to', () => {
    const setError = vi.fn();
    const left = applyUploadRefusal(
      {
        outcome: 'refused',
        status: 400,
        message: 'Grade Number is required',
        errors: { [wire('gradeNumber')]: 'Grade Number is required', [wire('idDocument')]: 'ID Document is required', phone: MESSAGES.validation.phone },
      },
      emptyProfileValues('Kavya Menon'),
      setError,
    );
    expect(left).toBeUndefined();
    expect(setError.mock.calls.map(([field, error]) => [field, error.message])).toEqual([
      ['gradeNumber', 'Grade Number is required'],
      ['idDocument', 'ID Document is required'],
      ['phone', MESSAGES.validation.phone],
    ]);
  });

  it('leaves a message that names no field of the form above the form', () => {
    const setError = vi.fn();
    const left = applyUploadRefusal({ outcome: 'refused', status: 409, message: MESSAGES.profile.alreadyExists }, emptyProfileValues(), setError);
    expect(left).toBe(MESSAGES.profile.alreadyExists);
    expect(setError).not.toHaveBeenCalled();
  });
});
