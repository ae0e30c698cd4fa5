import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { trpc } from '@/lib/trpc.ts';

export function useAcademySettings() {
  return trpc.settings.get.useQuery();
}

export function useUpdateAcademySettings() {
  const utils = trpc.useUtils();
  return trpc.settings.update.useMutation({
    onSuccess: (saved) => {
      utils.settings.get.setData(undefined, saved);
      toast.success(MESSAGES.staff.settingsSaved, { duration: ADMIN_TOAST_MS });
    },
  });
}
