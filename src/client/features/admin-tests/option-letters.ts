/** The letters a test's four options go by, on the form and on the test's card. */
export const OPTION_LETTERS = ['A', 'B', 'C', 'D'] as const;
