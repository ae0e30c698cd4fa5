import path from 'node:path';
import { createLocalStorage } from './local-storage.ts';
import { openS3Storage } from './s3-storage.ts';
import { parseStorageUrl } from './storage-url.ts';
import { createFileStorage, type FileStorage } from './storage.ts';

/**
 * The file storage the environment asks for: an S3-compatible bucket when STORAGE_URL is set,
 * otherwise DATA_DIR/files on this machine's disk. Tools that need a file on disk (ffmpeg, sharp)
 * work on copies in DATA_DIR/scratch when the files are in a bucket.
 */
export async function openFileStorage(options: {
  storageUrl: string | undefined;
  dataDir: string;
  awsRegion?: string | undefined;
}): Promise<FileStorage> {
  if (!options.storageUrl) return createFileStorage(createLocalStorage(path.join(options.dataDir, 'files')));
  const location = parseStorageUrl(options.storageUrl, { AWS_REGION: options.awsRegion });
  return createFileStorage(await openS3Storage(location, path.join(options.dataDir, 'scratch')));
}
