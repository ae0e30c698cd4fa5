import { trpc } from '@/lib/trpc.ts';

/** tests.create; every list of tests reloads once a test is created. */
export function useCreateTest() {
  const utils = trpc.useUtils();
  return trpc.tests.create.useMutation({
    onSuccess: () => Promise.all([utils.tests.list.invalidate(), utils.tests.published.invalidate(), utils.overview.figures.invalidate()]),
  });
}
