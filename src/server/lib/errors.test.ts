import { describe, expect, it } from 'vitest';
import { isServiceUnavailable } from './errors.ts';

const withCode = (code: string, cause?: unknown) => Object.assign(new Error(`failed: ${code}`, { cause }), { code });

describe('isServiceUnavailable', () => {
  it('recognises a refused or cut connection and PostgreSQL restarting, also wrapped in a query error', () => {
    expect(isServiceUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isServiceUnavailable(withCode('CONNECTION_CLOSED'))).toBe(true);
    expect(isServiceUnavailable(withCode('57P01'))).toBe(true);
    expect(isServiceUnavailable(new Error('Failed query: select 1', { cause: withCode('CONNECT_TIMEOUT') }))).toBe(true);
  });

  it('leaves every other failure alone: a broken query is a defect, not an outage', () => {
    expect(isServiceUnavailable(withCode('23505'))).toBe(false);
    expect(isServiceUnavailable(withCode('42P01'))).toBe(false);
    expect(isServiceUnavailable(new Error('boom'))).toBe(false);
    expect(isServiceUnavailable('ECONNREFUSED')).toBe(false);
    expect(isServiceUnavailable(undefined)).toBe(false);
  });
});
