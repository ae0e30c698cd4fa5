import path from 'node:path';
import { createLocalStorage } from './local-storage.ts';
import { openS3Storage } from './s3-storage.ts';
import { parseStorageUrl } from './storage-url.ts';
import { createFileStorage, isStoredName, type FileStorage, type TFileArea } from './storage.ts';

/**
 * Where the nginx in front of the portal serves DATA_DIR/files from, for its own redirects only
 * (an `internal` location in deploy/nginx.conf: a request from outside gets 404).
 */
export const INTERNAL_FILES_PREFIX = '/internal/files';

export function internalFileAddress(area: TFileArea, name: string): string {
  // Stored names are generated (a UUID and an extension): nothing in them needs escaping.
  if (!isStoredName(name)) throw new Error(`not a stored name: ${name}`);
  return `${INTERNAL_FILES_PREFIX}/${area}/${name}`;
}

/**
 * The file storage the environment asks for: an S3-compatible bucket when STORAGE_URL is set,
 * otherwise DATA_DIR/files on this machine's disk. Tools that need a file on disk (ffmpeg, sharp)
 * work on copies in DATA_DIR/scratch when the files are in a bucket. With `delivery: 'x-accel'`
 * the files on the disk are sent by the nginx in front (decision 054); a bucket's are piped.
 */
export async function openFileStorage(options: {
  storageUrl: string | undefined;
  dataDir: string;
  awsRegion?: string | undefined;
  delivery?: 'node' | 'x-accel';
}): Promise<FileStorage> {
  if (!options.storageUrl) {
    const files = createFileStorage(createLocalStorage(path.join(options.dataDir, 'files')));
    return options.delivery === 'x-accel' ? { ...files, internalRedirect: internalFileAddress } : files;
  }
  const location = parseStorageUrl(options.storageUrl, { AWS_REGION: options.awsRegion });
  return createFileStorage(await openS3Storage(location, path.join(options.dataDir, 'scratch')));
}
