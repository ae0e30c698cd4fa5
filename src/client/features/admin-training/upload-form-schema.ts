import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZTrainingUploadFields } from '../../../shared/schemas/training.ts';

const T = MESSAGES.training;
const fields = ZTrainingUploadFields.shape;

/** The file picker's filter: what the browser offers to choose. */
export const VIDEO_ACCEPT = 'video/*';
/** At most this many rows in one go; each is its own upload. */
export const MAX_VIDEO_ROWS = 20;
export const EMPTY_ROW_MESSAGE = 'Choose a video file for this row, or remove the row.';

/** What the form's controls hold; each row is one file (useFieldArray needs objects). */
export type TUploadFormValues = {
  courseId: string;
  title: string;
  videos: { file: File | null }[];
};

export const emptyUploadValues = (): TUploadFormValues => ({ courseId: '', title: '', videos: [{ file: null }] });

/**
 * Whether the browser takes the file for a video. The server decides from the bytes; this spares
 * a long upload of a document or a picture. Files the browser cannot name keep their chance.
 */
export function looksLikeVideo(file: File): boolean {
  if (file.type) return file.type.startsWith('video/');
  return /\.(mp4|m4v|mov|webm|mkv|avi)$/i.test(file.name);
}

/**
 * The shared upload fields' rules, and one video file per row: the first row of an empty form says
 * a video is needed, a further empty row that it should be filled or removed.
 */
export function uploadFormSchema() {
  return z.object({
    courseId: fields.courseId,
    title: fields.title,
    videos: z.array(z.object({ file: z.custom<File | null>((value) => value === null || value instanceof File) })).superRefine((rows, context) => {
      const anyChosen = rows.some((row) => row.file !== null);
      rows.forEach((row, index) => {
        const path = [index, 'file'];
        if (!row.file) context.addIssue({ code: 'custom', path, message: anyChosen || index > 0 ? EMPTY_ROW_MESSAGE : T.videoRequired });
        else if (!looksLikeVideo(row.file)) context.addIssue({ code: 'custom', path, message: T.notAVideo });
      });
    }),
  });
}
