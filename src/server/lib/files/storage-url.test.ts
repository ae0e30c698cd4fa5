import { describe, expect, it } from 'vitest';
import { describeStorageUrl, parseStorageUrl } from './storage-url.ts';

describe('parseStorageUrl', () => {
  it('reads the bucket, the endpoint, the region and path-style addressing', () => {
    expect(parseStorageUrl('s3://portal-files?endpoint=http://127.0.0.1:4569&region=eu-west-1&forcePathStyle=true')).toEqual({
      bucket: 'portal-files',
      prefix: '',
      endpoint: 'http://127.0.0.1:4569',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
  });

  it('leaves credentials to the SDK unless the URL carries them, and keeps a key prefix', () => {
    const plain = parseStorageUrl('s3://portal-files/academy/prod', { AWS_REGION: 'ap-south-1' });
    expect(plain).toEqual({ bucket: 'portal-files', prefix: 'academy/prod', region: 'ap-south-1', forcePathStyle: false });
    const withKeys = parseStorageUrl('s3://AKIA123:se%2Fcret@portal-files');
    expect(withKeys.credentials).toEqual({ accessKeyId: 'AKIA123', secretAccessKey: 'se/cret' });
    expect(withKeys.region).toBe('us-east-1');
    expect(describeStorageUrl(withKeys)).toBe('s3://portal-files');
  });

  it.each([
    ['http://bucket', 'must start with s3://'],
    ['s3://B_ad', 'not a valid bucket name'],
    ['s3://bucket?endpoint=ftp://x', 'not an http:// or https:// URL'],
    ['s3://bucket?forcePathStyle=yes', 'forcePathStyle must be true or false'],
    ['s3://bucket?region=x&colour=blue', 'unknown options: colour'],
    ['s3://keyonly@bucket', 'both the access key id and the secret'],
    ['not a url', 'must be a URL'],
  ])('refuses %s', (value, message) => {
    expect(() => parseStorageUrl(value)).toThrow(message);
  });
});
