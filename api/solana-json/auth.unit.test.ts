import { describe, expect, it } from 'vitest';
import { presentedToken, tokenCheck } from './auth.js';

describe('auth', () => {
  it('reads Bearer and x-token', () => {
    expect(presentedToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedToken({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(presentedToken({ 'x-token': 'xyz' })).toBe('xyz');
    expect(presentedToken({ authorization: 'Basic abc' })).toBeUndefined();
    expect(presentedToken({})).toBeUndefined();
  });
  it('checks only when a token is configured', () => {
    expect(tokenCheck(undefined)(undefined)).toBe(true);
    expect(tokenCheck('')(undefined)).toBe(true);
    const check = tokenCheck('secret');
    expect(check('secret')).toBe(true);
    expect(check('secre')).toBe(false);
    expect(check('secret2')).toBe(false);
    expect(check(undefined)).toBe(false);
  });
});
