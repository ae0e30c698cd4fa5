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
