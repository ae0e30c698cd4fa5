import { describe, expect, it } from 'vitest';
import { ZProfileConsentAccepted, ZProfileCreateFields, ZProfileFields } from '../../../shared/schemas/profile.ts';
import { expiryStatus } from './profiles.service.ts';

describe('expiryStatus', () => {
  it('is expired before today, expiring up to six months ahead, valid after', () => {
    expect(expiryStatus('2025-03-09', '2025-03-10')).toBe('expired');
    expect(expiryStatus('2025-03-10', '2025-03-10')).toBe('expiring');
    expect(expiryStatus('2025-09-10', '2025-03-10')).toBe('expiring');
    expect(expiryStatus('2025-09-11', '2025-03-10')).toBe('valid');
  });

  it('counts months to the end of a shorter month', () => {
    expect(expiryStatus('2026-02-28', '2025-08-31')).toBe('expiring');
    expect(expiryStatus('2026-03-01', '2025-08-31')).toBe('valid');
  });
});

describe('profile fields', () => {
  const fields = {
    name: 'Arjun Nair',
    gradeNumber: 'II',
    phone: '+91 98765-43210',
    dateOfBirth: '1990-04-12T00:00:00.000Z',
    passportNumber: 'z123',
    passportExpiryDate: '2030-01-01',
    indosNo: '19zl1234',
    cdcNumber: 'cdc 12/34',
    cdcExpiryDate: '2030-01-01',
    idType: 'Driving License',
    streetAddress: '1 Harbour Road',
    city: 'Kochi',
    state: 'Kerala',
    country: 'India',
    zipCode: '682001',
  };

  it('normalise what forms send and drop unknown keys', () => {
    const parsed = ZProfileFields.parse({ ...fields, role: 'admin', userId: 'x' });
    expect(parsed).toMatchObject({ phone: '+919876543210', dateOfBirth: '1990-04-12', passportNumber: 'Z123', cdcNumber: 'CDC 12/34', idType: 'driving_license' });
    expect(parsed).not.toHaveProperty('role');
    expect(parsed).not.toHaveProperty('userId');
  });

  it('read the notice as accepted only when ticked; the REST path may leave it out', () => {
    expect(ZProfileCreateFields.parse(fields).consent).toBe(false);
    expect(ZProfileCreateFields.parse({ ...fields, consent: true }).consent).toBe(true);
    expect(ZProfileCreateFields.parse({ ...fields, consent: 'on' }).consent).toBe(true);
    expect(ZProfileCreateFields.parse({ ...fields, consent: 'no' }).consent).toBe(false);
  });

  it('need the notice accepted on the creation form', () => {
    expect(ZProfileConsentAccepted.safeParse(undefined).success).toBe(false);
    expect(ZProfileConsentAccepted.safeParse('no').success).toBe(false);
    expect(ZProfileConsentAccepted.safeParse('true').success).toBe(true);
  });
});
