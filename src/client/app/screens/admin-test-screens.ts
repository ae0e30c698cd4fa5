/*
 * The administrators' lists of tests (all, published) and their results as one chunk: they share
 * the test card and its states. The test form is with the other forms (admin-form-screens.ts).
 */
export { AllTestsPage } from '@/features/admin-tests/all-tests-page.tsx';
export { PublishedTestsPage } from '@/features/admin-tests/published-tests-page.tsx';
export { TestResultsPage } from '@/features/admin-tests/test-results-page.tsx';
