import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TProfile } from '../../../shared/schemas/profile.ts';
import { PROFILE_SPEC_NAMES, toSpecName } from '../../../shared/spec-fields.ts';
import {
  PROFILE_FILE_MAX_BYTES,
  ZProfileCreateForm,
  ZProfileEditForm,
  acceptAttribute,
  emptyProfileValues,
  profileToValues,
  sniffFileKind,
  toFormData,
  withIndiaCode,
  type TPickedFile,
  type TProfileFormValues,
} from '@/features/profile/profile-form-schema.ts';

const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const JPEG_BYTES = [0xff, 0xd8, 0xff, 0xe0, 0, 16];
const PDF_BYTES = [...new TextEncoder().encode('%PDF-1.7\n')];

function fileOf(bytes: number[], name: string, type: string, size?: number): File {
  const content = new Uint8Array(size ?? bytes.length);
  content.set(bytes);
  return new File([content], name, { type });
}

function picked(file: File, kind: TPickedFile['kind']): TPickedFile {
  return { file, kind };
}

/** What a learner who filled in every field right would submit. */
function filledIn(overrides: Partial<TProfileFormValues> = {}): TProfileFormValues {
  return {
    ...emptyProfileValues('Kavya Menon'),
    gradeNumber: 'Grade II',
    phone: '98765 43210',
    dateOfBirth: '1994-03-21',
    passportNumber: 'n1234567',
    passportExpiryDate: '2031-08-01',
    indosNo: '19ab1234',
    cdcNumber: 'mum 123456',
    cdcExpiryDate: '2030-01-15',
    idType: 'aadhaar',
    streetAddress: '12 Marine Drive',
    city: 'Mumbai',
    state: 'Maharashtra',
    country: 'India',
    zipCode: '400020',
    consent: true,
    profilePicture: picked(fileOf(PNG_BYTES, 'me.png', 'image/png'), 'png'),
    idDocument: picked(fileOf(PDF_BYTES, 'aadhaar.pdf', 'application/pdf'), 'pdf'),
    signature: picked(fileOf(JPEG_BYTES, 'signature.jpg', 'image/jpeg'), 'jpeg'),
    ...overrides,
  };
}

/** The message the schema puts on each field, for a quick look at what it refused. */
function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  if (result.success || !result.error) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('withIndiaCode', () => {
  it('gives a bare ten-digit number India’s +91, ignoring spaces, brackets and hyphens', () => {
    expect(withIndiaCode('9876543210')).toBe('+919876543210');
    expect(withIndiaCode('98765 43210')).toBe('+919876543210');
    expect(withIndiaCode('(987) 654-3210')).toBe('+919876543210');
  });

  it('leaves any other number as typed', () => {
    expect(withIndiaCode('+447700900123')).toBe('+447700900123');
    expect(withIndiaCode('022 2288 1234 5')).toBe('022 2288 1234 5');
    expect(withIndiaCode(undefined)).toBeUndefined();
  });
});

describe('the creation form', () => {
  it('accepts a complete profile, with the phone in international form and document numbers in capitals', () => {
    const result = ZProfileCreateForm.safeParse(filledIn());
    expect(messagesOf(result)).toEqual({});
    expect(result.data).toMatchObject({
      phone: '+919876543210',
      passportNumber: 'N1234567',
      indosNo: '19AB1234',
      cdcNumber: 'MUM 123456',
      consent: true,
    });
  });

  it('needs all three files and the accepted notice', () => {
    const result = ZProfileCreateForm.safeParse(filledIn({ profilePicture: null, idDocument: null, signature: null, consent: false }));
    expect(messagesOf(result)).toEqual({
      profilePicture: MESSAGES.profile.required('Profile Picture'),
      idDocument: MESSAGES.profile.required('ID Document'),
      signature: MESSAGES.profile.required('Signature'),
      consent: MESSAGES.profile.consentRequired,
    });
  });

  it('refuses a file whose bytes are not of a kind the field takes, whatever its name says', () => {
    const pdfAsPicture = picked(fileOf(PDF_BYTES, 'photo.png', 'image/png'), 'pdf');
    const unknown = picked(fileOf([1, 2, 3, 4], 'scan.pdf', 'application/pdf'), null);
    const result = ZProfileCreateForm.safeParse(filledIn({ profilePicture: pdfAsPicture, idDocument: unknown }));
    expect(messagesOf(result)).toEqual({
      profilePicture: MESSAGES.validation.mustBeImage,
      idDocument: MESSAGES.validation.mustBeImageOrPdf,
    });
  });

  it('refuses a file over the size limit, naming the field', () => {
    const large = picked(fileOf(PNG_BYTES, 'large.png', 'image/png', PROFILE_FILE_MAX_BYTES + 1), 'png');
    const result = ZProfileCreateForm.safeParse(filledIn({ signature: large }));
    expect(messagesOf(result)).toEqual({ signature: MESSAGES.profile.fileTooLarge('Signature', '5 MB') });
  });

  it('says which text fields are missing or wrong', () => {
    const result = ZProfileCreateForm.safeParse(filledIn({ name: '  ', phone: '12ab', dateOfBirth: '2001-02-30' }));
    expect(messagesOf(result)).toEqual({
      name: MESSAGES.profile.required('Name'),
      phone: MESSAGES.validation.phone,
      dateOfBirth: MESSAGES.profile.invalidDate('Date of Birth'),
    });
  });
});

describe('the edit form', () => {
  it('keeps the stored files when none is picked, and needs no new consent', () => {
    const result = ZProfileEditForm.safeParse(filledIn({ profilePicture: null, idDocument: null, signature: null, consent: false }));
    expect(messagesOf(result)).toEqual({});
  });

  it('still checks a file that is picked', () => {
    const result = ZProfileEditForm.safeParse(filledIn({ idDocument: picked(fileOf([0], 'id.txt', 'text/plain'), null) }));
    expect(messagesOf(result)).toEqual({ idDocument: MESSAGES.validation.mustBeImageOrPdf });
  });

  it('starts from the stored profile: dates as calendar dates, the notice already accepted, no new files', () => {
    const values = profileToValues({
      ...filledIn(),
      dateOfBirth: '1994-03-21T00:00:00.000Z',
      passportExpiryDate: '2031-08-01',
      cdcExpiryDate: '2030-01-15T00:00:00.000Z',
    } as unknown as TProfile);
    expect(values).toMatchObject({
      dateOfBirth: '1994-03-21',
      passportExpiryDate: '2031-08-01',
      cdcExpiryDate: '2030-01-15',
      consent: true,
      profilePicture: null,
      idDocument: null,
      signature: null,
    });
  });
});

describe('sniffFileKind', () => {
  it('tells PNG, JPEG and PDF apart by their first bytes, not their names', async () => {
    await expect(sniffFileKind(fileOf(PNG_BYTES, 'scan.pdf', 'application/pdf'))).resolves.toBe('png');
    await expect(sniffFileKind(fileOf(JPEG_BYTES, 'me.png', 'image/png'))).resolves.toBe('jpeg');
    await expect(sniffFileKind(fileOf(PDF_BYTES, 'id.jpg', 'image/jpeg'))).resolves.toBe('pdf');
    await expect(sniffFileKind(fileOf([0x47, 0x49, 0x46, 0x38], 'anim.png', 'image/png'))).resolves.toBeNull();
  });
});

describe('toFormData', () => {
  const wire = (field: string) => toSpecName(PROFILE_SPEC_NAMES, field);

  it('sends the checked text fields, the consent on creation and only the files picked', () => {
    const values = ZProfileCreateForm.parse(filledIn());
    const body = toFormData(values);
    expect(body.get('phone')).toBe('+919876543210');
    expect(body.get('passportNumber')).toBe('N1234567');
    expect(body.get('consent')).toBe('true');
    expect((body.get('profilePicture') as File).name).toBe('me.png');

    const edited = toFormData(ZProfileEditForm.parse(filledIn({ idDocument: null, signature: null })));
    expect(edited.get('consent')).toBeNull();
    expect(edited.get(wire('idDocument'))).toBeNull();
    expect(edited.get('signature')).toBeNull();
    expect((edited.get('profilePicture') as File).name).toBe('me.png');
  });

  it('names every field as the REST routes read it, through the spec-field map', () => {
    const body = toFormData(ZProfileCreateForm.parse(filledIn()));
    expect(body.get(wire('gradeNumber'))).toBe('Grade II');
    expect(body.get(wire('dateOfBirth'))).toBe('1994-03-21');
    expect(body.get(wire('cdcNumber'))).toBe('MUM 123456');
    expect(body.get(wire('idType'))).toBe('aadhaar');
    expect((body.get(wire('idDocument')) as File).name).toBe('aadhaar.pdf');
    expect(body.get('gradeNumber')).toBeNull();
    expect(body.get('idDocument')).toBeNull();
  });
});

describe('acceptAttribute', () => {
  it('offers the types and extensions each file field takes', () => {
    expect(acceptAttribute('profilePicture')).toBe('image/jpeg,image/png,.jpg,.jpeg,.png');
    expect(acceptAttribute('idDocument')).toBe('application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png');
  });
});
