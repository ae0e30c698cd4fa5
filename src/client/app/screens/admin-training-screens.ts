/*
 * The administrators' training video screens, upload and list, as one chunk: the upload screen
 * links to the list, and one chunk adds one entry (with the list of files it needs) to the home
 * page's first chunk instead of two (decision record 006).
 */
export { TrainingVideosPage } from '@/features/admin-training/training-videos-page.tsx';
export { UploadTrainingVideosPage } from '@/features/admin-training/upload-training-videos-page.tsx';
