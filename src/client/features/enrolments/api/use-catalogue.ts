import { trpc } from '@/lib/trpc.ts';

/** courses.catalogue: the public catalogue of active courses. */
export function useCatalogue() {
  return trpc.courses.catalogue.useQuery();
}
