import { trpc } from '@/lib/trpc.ts';

/** courses.certificateSettings: the course's certificate terms, read afresh on each visit. */
export function useCourseCertificateSettings(courseId: string) {
  return trpc.courses.certificateSettings.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always' });
}

/** courses.updateCertificateSettings; the settings (and the lists that show course terms) reload afterwards. */
export function useSaveCourseCertificateSettings() {
  const utils = trpc.useUtils();
  return trpc.courses.updateCertificateSettings.useMutation({
    onSuccess: (result, input) => {
      utils.courses.certificateSettings.setData({ courseId: input.courseId }, result.settings);
    },
  });
}
