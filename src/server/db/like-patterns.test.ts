import { describe, expect, it } from 'vitest';
import { containsPattern, likeLiteral, prefixPattern } from './like-patterns.ts';

describe('LIKE patterns', () => {
  it('take the text\'s own wildcards and escape character literally', () => {
    expect(likeLiteral('100%_done\\now')).toBe('100\\%\\_done\\\\now');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(prefixPattern('50%')).toBe('50\\%%');
    expect(containsPattern('Nair')).toBe('%Nair%');
  });
});
