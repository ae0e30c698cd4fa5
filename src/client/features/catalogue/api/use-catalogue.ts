import { CATALOGUE_DATA_ID } from '../../../../shared/constants.ts';
import type { TCourse } from '../../../../shared/schemas/course.ts';
import { trpc } from '@/lib/trpc.ts';

// The catalogue of the server's rendering of /courses (prerender.tsx), where there is no document.
let provided: TCourse[] | undefined;

/** Gives the server's rendering of /courses the catalogue the page will carry. */
export function provideInlinedCatalogue(courses: TCourse[] | undefined): void {
  provided = courses;
}

/**
 * The catalogue the server wrote into the /courses page it sent (decision 020), taken once: a
 * later visit in the same tab reads the API. Undefined when the page came without it.
 */
function takeInlinedCatalogue(): TCourse[] | undefined {
  if (typeof document === 'undefined') return provided;
  const element = document.getElementById(CATALOGUE_DATA_ID);
  if (!element) return undefined;
  element.remove();
  // Written by the server from the same list courses.catalogue answers.
  const courses: unknown = JSON.parse(element.textContent || 'null');
  return Array.isArray(courses) ? (courses as TCourse[]) : undefined;
}

/** courses.catalogue: the public catalogue of active courses. */
export function useCatalogue() {
  return trpc.courses.catalogue.useQuery(undefined, {
    initialData: takeInlinedCatalogue,
    // As fresh as the page that carried it.
    initialDataUpdatedAt: performance.timeOrigin,
  });
}
