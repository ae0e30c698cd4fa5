/*
 * The learner's test and certificate screens, loaded as one chunk: a pass leads from the one to
 * the other (View Certificate).
 */
export { TestPage } from '@/features/tests/test-page.tsx';
export { CertificateReportPage } from '@/features/certificates/certificate-report-page.tsx';
