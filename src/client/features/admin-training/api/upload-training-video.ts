import { useCallback } from 'react';
import { paths } from '@/config/paths.ts';
import { useUpload } from '@/lib/upload/use-upload.ts';

/** The form field names of POST /api/trainingVideo (spec section 7). */
export const TRAINING_UPLOAD_FIELDS = { courseId: 'courseId', title: 'title', video: 'trainingVideo' } as const;

/** The multipart body for one video of a course's training. */
export function trainingVideoForm(courseId: string, title: string, file: File): FormData {
  const body = new FormData();
  body.append(TRAINING_UPLOAD_FIELDS.courseId, courseId);
  body.append(TRAINING_UPLOAD_FIELDS.title, title);
  body.append(TRAINING_UPLOAD_FIELDS.video, file, file.name);
  return body;
}

/**
 * POST /api/trainingVideo for one file, with its progress (bytes sent) and a way to cancel it. An
 * administrator whose session cannot be renewed logs in again at /backend. One per file row, so
 * each row has its own bar and its own Cancel.
 */
export function useTrainingVideoUpload() {
  const { percent, upload, cancel } = useUpload({ loginPath: paths.adminLogin });
  const send = useCallback(
    (courseId: string, title: string, file: File) =>
      upload({ method: 'POST', url: '/api/trainingVideo', body: trainingVideoForm(courseId, title, file) }),
    [upload],
  );
  return { percent, cancel, send };
}
