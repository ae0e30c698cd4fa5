/*
 * The administrators' test screens (create, all, published, results) as one chunk: they share
 * the test card and the form's letters, and one chunk adds one entry to the first page's list.
 */
export { AllTestsPage } from '@/features/admin-tests/all-tests-page.tsx';
export { PublishedTestsPage } from '@/features/admin-tests/published-tests-page.tsx';
export { TestFormPage } from '@/features/admin-tests/test-form-page.tsx';
export { TestResultsPage } from '@/features/admin-tests/test-results-page.tsx';
