import type { TCertificateContent } from '../server/modules/certificates/certificate-document.tsx';

/** What a certificate prints, for the tests that render one: a short name and title in Latin. */
export const SAMPLE_CERTIFICATE_CONTENT: TCertificateContent = {
  academyName: 'Maritime Training Academy',
  academyCity: 'Mumbai',
  holderName: 'Priya Menon',
  indosNo: '12AB3456',
  dateOfBirth: '12 April 1990',
  passportNumber: 'Z1234567',
  courseTitle: 'Fire Prevention and Fire Fighting',
  courseCode: 'FPFF',
  approvalNumber: 'DGS/MTI/2021/FPFF/0457',
  number: 'MTA/2026/000123',
  version: 1,
  issuedOn: '24 November 2026',
  reissuedOn: null,
  validUntil: '23 November 2031',
  verifyUrl: 'https://academy.example/verify/MTA/2026/000123?code=VJkkq9rp6ochTeYpKT4Dqb8wNYI',
};
