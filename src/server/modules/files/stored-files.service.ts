import type { AppDeps } from '../../deps.ts';
import type { TFileArea } from '../../lib/files/storage.ts';
import type { TReferencedNames } from '../../lib/files/sweep.ts';
import { storedCertificateFileNames } from '../certificates/certificate-serving.service.ts';
import { storedCourseImageNames } from '../courses/course-admin.service.ts';
import { storedProfileFileNames } from '../profiles/profiles.service.ts';
import { storedTrainingFileNames } from '../training/training.service.ts';

/**
 * Which stored files rows point to, per area, for the sweep of left-over uploads. An area is swept
 * only once it is listed here: a feature that stores files adds its area with its own lookup.
 */
export function referencedFileNames(deps: Pick<AppDeps, 'db'>): Partial<Record<TFileArea, TReferencedNames>> {
  const profileFiles = (area: TFileArea) => storedProfileFileNames(deps, area);
  return {
    profile_pictures: profileFiles,
    id_documents: profileFiles,
    signatures: profileFiles,
    courseImg: () => storedCourseImageNames(deps),
    trainingVideo: () => storedTrainingFileNames(deps),
    certificates: () => storedCertificateFileNames(deps),
  };
}
