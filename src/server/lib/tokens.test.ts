import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.ts';

const secret = 'a'.repeat(40);
const sub = '5f0c2b8e-3a55-4b8e-9a51-0b6a4f0e9d11';

describe('access tokens', () => {
  it('round-trips the subject and role', () => {
    const token = signAccessToken({ sub, role: 'admin' }, secret, 60);
    expect(verifyAccessToken(token, secret)).toMatchObject({ sub, role: 'admin', typ: 'access' });
  });

  it('refuses an expired token', () => {
    const token = signAccessToken({ sub, role: 'learner' }, secret, 60, new Date(Date.now() - 61_000));
    expect(verifyAccessToken(token, secret)).toBeNull();
  });

  it('refuses a token signed with another secret', () => {
    const token = signAccessToken({ sub, role: 'learner' }, 'b'.repeat(40), 60);
    expect(verifyAccessToken(token, secret)).toBeNull();
  });

  it('refuses an edited payload', () => {
    const token = signAccessToken({ sub, role: 'learner' }, secret, 60);
    const [header, body, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    expect(verifyAccessToken(`${header}.${forged}.${signature}`, secret)).toBeNull();
  });

  it('refuses alg none', () => {
    const token = signAccessToken({ sub, role: 'learner' }, secret, 60);
    const body = token.split('.')[1];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyAccessToken(`${none}.${body}.`, secret)).toBeNull();
  });

  it('refuses garbage', () => {
    expect(verifyAccessToken('not-a-token', secret)).toBeNull();
    expect(verifyAccessToken('a.b.c', secret)).toBeNull();
  });
});
