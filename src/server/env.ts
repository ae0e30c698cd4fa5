import { isIP } from 'node:net';
import { z } from 'zod';
import { isCommonPassword } from './lib/common-passwords.ts';
import { parseStorageUrl, StorageUrlError } from './lib/files/storage-url.ts';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
    .optional();

/** Names proxy-addr (Fastify's trustProxy) knows for whole address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For is believed: a hop count, or a comma-separated list of proxy
 * addresses and CIDR ranges. Unset (or `false`) believes none, so a client cannot choose the
 * address every per-address limit counts.
 */
const ZTrustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (value === 'false' || value === '0') return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    const wrong = entries.filter((entry) => !isProxyAddress(entry));
    if (entries.length === 0 || wrong.length > 0) {
      ctx.addIssue({ code: 'custom', message: 'must be a hop count or a comma-separated list of proxy addresses or CIDR ranges' });
      return z.NEVER;
    }
    return entries;
  })
  .default(false);

/** A comma-separated list of whole days from 1 to 365, distinct, kept largest first. */
const reminderDays = z
  .string()
  .transform((value, ctx): number[] => {
    const days = value.split(',').map((entry) => entry.trim()).filter(Boolean).map(Number);
    if (days.length === 0 || days.some((day) => !Number.isInteger(day) || day < 1 || day > 365) || new Set(days).size !== days.length) {
      ctx.addIssue({ code: 'custom', message: 'must be distinct whole days from 1 to 365, separated by commas (e.g. 90,30,7)' });
      return z.NEVER;
    }
    return days.sort((a, b) => b - a);
  });

/** Empty strings count as unset, so `FOO=` in a compose file behaves like leaving FOO out. */
const blankAsUnset = (input: unknown) =>
  typeof input === 'object' && input !== null
    ? Object.fromEntries(Object.entries(input).filter(([, value]) => value !== ''))
    : input;

export const ZEnv = z.preprocess(
  blankAsUnset,
  z
    .object({
      NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
      PORT: z.coerce.number().int().min(0).max(65535).default(3000),
      HOST: z.string().min(1).default('0.0.0.0'),
      DATA_DIR: z.string().min(1).default('./data'),
      PUBLIC_URL: optionalUrl(['http:', 'https:']),
      DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
      REDIS_URL: optionalUrl(['redis:', 'rediss:']),
      SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
      MAIL_FROM: z.string().min(3).default('Maritime Training Academy <no-reply@academy.local>'),
      /** Files in an S3-compatible bucket (s3://bucket?endpoint=…); the local disk when unset. */
      STORAGE_URL: z
        .string()
        .trim()
        .superRefine((value, ctx) => {
          try {
            parseStorageUrl(value);
          } catch (error) {
            if (!(error instanceof StorageUrlError)) throw error;
            ctx.addIssue({ code: 'custom', message: error.message });
          }
        })
        .optional(),
      AWS_REGION: z.string().min(1).optional(),
      /**
       * Who sends a stored file's bytes once the portal has allowed the request: the portal itself
       * (`node`), or the nginx in front of it (`x-accel`: the portal answers the headers and an
       * X-Accel-Redirect to the file, deploy/nginx.conf, and nginx sends it by sendfile). Files in a
       * bucket are always sent by the portal.
       */
      STREAM_DELIVERY: z
        .enum(['node', 'x-accel'], {
          error: 'must be node (the portal sends the files) or x-accel (the nginx in front of it sends them: deploy/nginx.conf)',
        })
        .default('node'),
      JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
      ADMIN_EMAIL: z.email().optional(),
      ADMIN_PASSWORD: z
        .string()
        .min(12, 'must be at least 12 characters')
        .refine((password) => !isCommonPassword(password), 'is on the list of common passwords attackers try first')
        .optional(),
      FFMPEG_PATH: z.string().min(1).optional(),
      FFPROBE_PATH: z.string().min(1).optional(),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      TRUST_PROXY: ZTrustProxy,
      BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
      /** Each profile file (ID document, picture, signature). */
      PROFILE_FILE_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
      /** Each training video file an administrator uploads. */
      TRAINING_VIDEO_MAX_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024 * 1024),
      ACADEMY_NAME: z.string().min(1).default('Maritime Training Academy'),
      ACADEMY_TAGLINE: z
        .string()
        .min(1)
        .default('Your preferred learning and training management platform for seafarers.'),
      ACADEMY_EMAIL: z.email().default('info@maritime-academy.example'),
      ACADEMY_PHONE: z.string().min(3).default('+91 22 4000 1234'),
      ACADEMY_CITY: z.string().min(1).default('Mumbai'),
      ACADEMY_FACEBOOK_URL: z.url().default('https://www.facebook.com/'),
      ACADEMY_LINKEDIN_URL: z.url().default('https://www.linkedin.com/'),
      ACADEMY_INSTAGRAM_URL: z.url().default('https://www.instagram.com/'),
      /** How long a stream check's grant is kept in memory (decision 055); 0 asks the database on every Range request. */
      STREAM_GRANT_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
      /** How long a session check's answer is kept in memory (decision 060); 0 asks the database on every authenticated call. */
      SESSION_CHECK_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
      /** Days before a certificate expires on which its holder is reminded, each once (e.g. 90,30,7). */
      CERTIFICATE_REMINDER_DAYS: reminderDays.default([90, 30, 7]),
    })
    .refine((env) => (env.ADMIN_EMAIL === undefined) === (env.ADMIN_PASSWORD === undefined), {
      message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      path: ['ADMIN_PASSWORD'],
    })
    // Files in a bucket mean several instances, or a disk that does not last: a secret generated
    // into DATA_DIR would differ between them (or vanish), and every session and link with it.
    .refine((env) => env.STORAGE_URL === undefined || env.JWT_SECRET !== undefined, {
      message: 'must be set when STORAGE_URL is set (every instance signs with the same secret)',
      path: ['JWT_SECRET'],
    }),
);
export type TEnv = z.infer<typeof ZEnv>;

/** The address users reach the portal at, without a trailing slash (links in mail, the sitemap). */
export function publicBaseUrl(env: Pick<TEnv, 'PUBLIC_URL' | 'PORT'>): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Validates the environment once; the error names every wrong variable on one line. */
export function parseEnv(source: Record<string, string | undefined>): TEnv {
  const result = ZEnv.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || 'environment';
    return `${name} ${issue.message}`;
  });
  throw new EnvError(`Invalid configuration: ${problems.join('; ')}`);
}
