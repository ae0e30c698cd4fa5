import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: './data', HOST: '0.0.0.0' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.JWT_SECRET).toBeUndefined();
  });

  it('treats an empty value as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', PORT: '' });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('accepts production settings', () => {
    const env = parseEnv({
      DATABASE_URL: 'postgres://portal:secret@db:5432/portal',
      REDIS_URL: 'redis://redis:6379',
      SMTP_URL: 'smtp://mail:1025',
      JWT_SECRET: 'x'.repeat(40),
      PORT: '8080',
    });
    expect(env).toMatchObject({ PORT: 8080, REDIS_URL: 'redis://redis:6379' });
  });

  it('names every wrong variable in one line', () => {
    let error: unknown;
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://db/portal', JWT_SECRET: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
    expect(message).toContain('JWT_SECRET must be at least 32 characters');
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => parseEnv({ ADMIN_EMAIL: 'admin@academy.example' })).toThrow(
      'ADMIN_PASSWORD ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  });
});

describe('TRUST_PROXY', () => {
  it('believes no forwarded header unless set', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count or a list of proxy addresses and ranges', () => {
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.2, 172.16.0.0/12,::1,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      '172.16.0.0/12',
      '::1',
      'loopback',
    ]);
  });

  it('refuses anything else', () => {
    for (const value of ['true', 'proxy.example', '10.0.0.0/40', '10.0.0.1/8/2']) {
      expect(() => parseEnv({ TRUST_PROXY: value }), value).toThrow('TRUST_PROXY must be a hop count');
    }
  });
});

describe('ADMIN_PASSWORD', () => {
  it('may not be a common password', () => {
    expect(() => parseEnv({ ADMIN_EMAIL: 'admin@academy.example', ADMIN_PASSWORD: '1qaz2wsx3edc' })).toThrow(
      'ADMIN_PASSWORD is on the list of common passwords attackers try first',
    );
    expect(parseEnv({ ADMIN_EMAIL: 'admin@academy.example', ADMIN_PASSWORD: 'harbour pilot at dawn' }).ADMIN_PASSWORD).toBe('harbour pilot at dawn');
  });
});

describe('STORAGE_URL', () => {
  const url = 's3://portal-files?endpoint=http://minio:9000&forcePathStyle=true';

  it('is optional: files stay on the local disk', () => {
    expect(parseEnv({}).STORAGE_URL).toBeUndefined();
  });

  it('takes an s3:// URL, with the secret every instance shares', () => {
    expect(parseEnv({ STORAGE_URL: url, JWT_SECRET: 'x'.repeat(40) }).STORAGE_URL).toBe(url);
  });

  it('wants JWT_SECRET beside it, since a generated one would differ between instances', () => {
    expect(() => parseEnv({ STORAGE_URL: url })).toThrow('JWT_SECRET must be set when STORAGE_URL is set');
  });

  it('says what is wrong with a URL it cannot use', () => {
    expect(() => parseEnv({ STORAGE_URL: 'https://bucket', JWT_SECRET: 'x'.repeat(40) })).toThrow('STORAGE_URL must start with s3://');
    expect(() => parseEnv({ STORAGE_URL: 's3://portal?endpiont=http://x', JWT_SECRET: 'x'.repeat(40) })).toThrow('STORAGE_URL has unknown options: endpiont');
  });
});

describe('STREAM_DELIVERY', () => {
  it('lets the portal send the files unless a front nginx is named', () => {
    expect(parseEnv({}).STREAM_DELIVERY).toBe('node');
    expect(parseEnv({ STREAM_DELIVERY: 'x-accel' }).STREAM_DELIVERY).toBe('x-accel');
  });

  it('says which values it takes', () => {
    expect(() => parseEnv({ STREAM_DELIVERY: 'sendfile' })).toThrow('STREAM_DELIVERY must be node (the portal sends the files) or x-accel');
  });
});
