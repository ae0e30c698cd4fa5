import { describe, expect, it } from 'vitest';
import { readCookie, serializeCookie } from './cookies.ts';

describe('serializeCookie', () => {
  it('writes the value and every attribute asked for', () => {
    expect(
      serializeCookie('portal_refresh', 'abc-DEF_123', { path: '/api/session', maxAgeSeconds: 90.7, httpOnly: true, secure: true, sameSite: 'Strict' }),
    ).toBe('portal_refresh=abc-DEF_123; Path=/api/session; Max-Age=90; SameSite=Strict; HttpOnly; Secure');
    expect(serializeCookie('portal_refresh', '', { path: '/', maxAgeSeconds: -5, httpOnly: false, secure: false, sameSite: 'Lax' })).toBe(
      'portal_refresh=; Path=/; Max-Age=0; SameSite=Lax',
    );
  });

  it('refuses a value that would need quoting or could smuggle another attribute', () => {
    const attributes = { path: '/', maxAgeSeconds: 1, httpOnly: true, secure: false, sameSite: 'Strict' } as const;
    expect(() => serializeCookie('portal_refresh', 'a; Domain=evil.example', attributes)).toThrow();
    expect(() => serializeCookie('bad name', 'a', attributes)).toThrow();
  });
});

describe('readCookie', () => {
  it('finds one cookie among others, spaces or not', () => {
    expect(readCookie('theme=dark; portal_refresh=tok-1;other=x', 'portal_refresh')).toBe('tok-1');
    expect(readCookie('portal_refresh=tok-1', 'portal_refresh')).toBe('tok-1');
    expect(readCookie('xportal_refresh=no; portal_refresh=yes', 'portal_refresh')).toBe('yes');
  });

  it('answers undefined without the header or the cookie', () => {
    expect(readCookie(undefined, 'portal_refresh')).toBeUndefined();
    expect(readCookie('', 'portal_refresh')).toBeUndefined();
    expect(readCookie('theme=dark; broken', 'portal_refresh')).toBeUndefined();
  });

  it('reads the first of two cookies with the same name', () => {
    expect(readCookie('portal_refresh=newer; portal_refresh=older', 'portal_refresh')).toBe('newer');
  });
});
