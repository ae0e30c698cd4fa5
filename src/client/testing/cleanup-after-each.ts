import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts what a test rendered by itself only when Vitest's globals are on.
afterEach(() => {
  cleanup();
});
