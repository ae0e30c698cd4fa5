import { describe, expect, it } from 'vitest';
import { certificateNumber } from './certificate-issuance.service.ts';
import { maskedHolderName } from './certificate-verification.service.ts';

describe('maskedHolderName', () => {
  it('shows the first given name’s initial and the surname’s first letter, nothing more', () => {
    expect(maskedHolderName({ firstName: 'Arjun', lastName: 'Menon' })).toBe('A. M***');
    expect(maskedHolderName({ firstName: 'arjun kumar', lastName: 'menon' })).toBe('A. M***');
    expect(maskedHolderName({ firstName: '  Meera ', lastName: ' van der Berg' })).toBe('M. V***');
  });

  it('takes the surname from the last word when the first name holds the whole name', () => {
    expect(maskedHolderName({ firstName: 'Kavya Ramesh Menon', lastName: '' })).toBe('K. M***');
  });

  it('masks a one-word name to its initial', () => {
    expect(maskedHolderName({ firstName: 'Suriya', lastName: '' })).toBe('S***');
    expect(maskedHolderName({ firstName: '', lastName: 'Suriya' })).toBe('S***');
    expect(maskedHolderName({ firstName: '', lastName: '' })).toBe('***');
  });

  it('takes whole letters of any script, never half a character or a mark', () => {
    expect(maskedHolderName({ firstName: 'श्रीनिवास', lastName: 'अय्यर' })).toBe('श. अ***');
    expect(maskedHolderName({ firstName: '小明', lastName: '王' })).toBe('小. 王***');
    expect(maskedHolderName({ firstName: 'Élodie', lastName: 'Œuvray' })).toBe('É. Œ***');
    expect(maskedHolderName({ firstName: '𝒜da', lastName: "O'Neil" })).toBe('𝒜. O***');
    expect(maskedHolderName({ firstName: "'Ali", lastName: '(Khan)' })).toBe('A. K***');
  });
});

describe('certificateNumber', () => {
  it('is MTA/{UTC year of issue}/{serial padded to six digits}, longer serials kept whole', () => {
    expect(certificateNumber(new Date('2026-11-26T10:00:00Z'), 42)).toBe('MTA/2026/000042');
    expect(certificateNumber(new Date('2026-11-26T10:00:00Z'), 1_234_567)).toBe('MTA/2026/1234567');
    // Late on New Year's Eve west of Greenwich is already the next year in UTC.
    expect(certificateNumber(new Date('2026-12-31T23:30:00-02:00'), 7)).toBe('MTA/2027/000007');
  });
});
