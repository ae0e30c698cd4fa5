/**
 * STORAGE_URL names an S3-compatible bucket:
 *
 *   s3://[ACCESS_KEY_ID:SECRET_ACCESS_KEY@]bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true
 *
 * Without credentials in the URL the SDK's own chain finds them (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role). Without `endpoint` it is Amazon S3 itself;
 * MinIO and most other servers want `forcePathStyle=true`.
 */
export type TS3Location = {
  bucket: string;
  /** Keys start with `<prefix>/` when set, so one bucket can hold several portals. */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/;
const OPTIONS = new Set(['endpoint', 'region', 'forcePathStyle']);

export class StorageUrlError extends Error {
  override name = 'StorageUrlError';
}

/** Reads STORAGE_URL; throws a StorageUrlError saying what is wrong. */
export function parseStorageUrl(value: string, env: { AWS_REGION?: string | undefined } = {}): TS3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StorageUrlError('must be a URL such as s3://bucket?endpoint=http://127.0.0.1:9000&forcePathStyle=true');
  }
  if (url.protocol !== 's3:') throw new StorageUrlError('must start with s3://');
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) throw new StorageUrlError(`names a bucket "${bucket}" that is not a valid bucket name`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix && !PREFIX.test(prefix)) throw new StorageUrlError(`has a key prefix "${prefix}" with characters keys should not use`);

  const unknown = [...url.searchParams.keys()].filter((key) => !OPTIONS.has(key));
  if (unknown.length > 0) throw new StorageUrlError(`has unknown options: ${unknown.join(', ')} (known: ${[...OPTIONS].join(', ')})`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw new StorageUrlError('has an endpoint that is not an http:// or https:// URL');
  }
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') throw new StorageUrlError('forcePathStyle must be true or false');

  const accessKeyId = decodeURIComponent(url.username);
  const secretAccessKey = decodeURIComponent(url.password);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new StorageUrlError('must give both the access key id and the secret, or neither');

  return {
    bucket,
    prefix,
    ...(endpoint ? { endpoint } : {}),
    region: url.searchParams.get('region') || env.AWS_REGION || 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    ...(accessKeyId ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  };
}

/** The URL without its secret, for logs. */
export function describeStorageUrl(location: TS3Location): string {
  const where = location.endpoint ? ` at ${location.endpoint}` : '';
  return `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}${where}`;
}
