// The token of an upgrade request: a header (as JSON-RPC) or `?token=` in the URL; a header wins.
import { describe, expect, it } from 'vitest';
import { upgradeToken } from './auth.js';

describe('upgradeToken', () => {
  it('reads Authorization: Bearer, x-token, then the query', () => {
    expect(upgradeToken({ authorization: 'Bearer abc' }, '/?token=zzz')).toBe('abc');
    expect(upgradeToken({ 'x-token': 'xyz' }, '/')).toBe('xyz');
    expect(upgradeToken({}, '/?token=q%20t&x=1')).toBe('q t');
    expect(upgradeToken({}, '/path?other=1')).toBeUndefined();
    expect(upgradeToken({}, undefined)).toBeUndefined();
    expect(upgradeToken({}, '/?token=')).toBe('');
  });
});
