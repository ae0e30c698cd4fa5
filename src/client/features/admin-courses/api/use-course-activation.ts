import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { refusalReason } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

const C = MESSAGES.courses;

/** courses.activate / courses.deactivate with the catalogue's 4 s toasts; the lists reload after. */
export function useCourseActivation() {
  const utils = trpc.useUtils();
  const reload = () =>
    Promise.all([utils.courses.adminList.invalidate(), utils.courses.catalogue.invalidate(), utils.courses.adminGet.invalidate()]);
  const activate = trpc.courses.activate.useMutation({
    onSuccess: () => {
      toast.success(C.activated, { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      toast.error(C.activateFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, C.activateFailed) });
    },
    onSettled: reload,
  });
  const deactivate = trpc.courses.deactivate.useMutation({
    onSuccess: () => {
      toast.success(C.deactivated, { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      toast.error(C.deactivateFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, C.deactivateFailed) });
    },
    onSettled: reload,
  });
  return {
    pending: activate.isPending || deactivate.isPending,
    /** Turns the course on or off; `done` runs once the server has answered either way. */
    setActive(courseId: string, active: boolean, done: () => void) {
      (active ? activate : deactivate).mutate({ courseId }, { onSettled: done });
    },
  };
}
