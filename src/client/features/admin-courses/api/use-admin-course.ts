import type { TCourse } from '../../../../shared/schemas/course.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * courses.adminGet: the course being edited. `initial` (the list's copy) shows at once; the
 * server's current one replaces it, and serves a reload.
 */
export function useAdminCourse(courseId: string, initial: TCourse | undefined) {
  return trpc.courses.adminGet.useQuery({ courseId }, { initialData: initial, initialDataUpdatedAt: 0, staleTime: 0 });
}
