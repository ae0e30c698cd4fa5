/*
 * The administrators' lists of tests (all, published), their results and the evidence behind the
 * certificates as one chunk: they share the test card and its states, and the evidence is opened
 * from the results. The test form is with the other forms (admin-form-screens.ts).
 */
export { AllTestsPage } from '@/features/admin-tests/all-tests-page.tsx';
export { PublishedTestsPage } from '@/features/admin-tests/published-tests-page.tsx';
export { TestResultsPage } from '@/features/admin-tests/test-results-page.tsx';
export { CertificateEvidencePage } from '@/features/admin-evidence/certificate-evidence-page.tsx';
export { EvidenceExportPage } from '@/features/admin-evidence/evidence-export-page.tsx';
