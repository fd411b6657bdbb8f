import { describe, expect, it } from 'vitest';
import { headerKey, requestKey } from './presented-key.js';

describe('headerKey', () => {
  it('reads Authorization: Bearer, then x-token', () => {
    expect(headerKey({ authorization: 'Bearer abc' })).toBe('abc');
    expect(headerKey({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(headerKey({ 'x-token': 'xyz' })).toBe('xyz');
    expect(headerKey({ authorization: 'Bearer a', 'x-token': 'b' })).toBe('a');
    expect(headerKey({ authorization: 'Basic abc' })).toBeUndefined();
    expect(headerKey({})).toBeUndefined();
  });
});

describe('requestKey', () => {
  it('takes a header over the query, then ?api-key= (Helius), then ?token=', () => {
    expect(requestKey({ authorization: 'Bearer abc' }, '/?api-key=zzz')).toBe('abc');
    expect(requestKey({ 'x-token': 'xyz' }, '/')).toBe('xyz');
    expect(requestKey({}, '/?api-key=k%201&token=t')).toBe('k 1');
    expect(requestKey({}, '/?token=q%20t&x=1')).toBe('q t');
    expect(requestKey({}, '/path?other=1')).toBeUndefined();
    expect(requestKey({}, '/no-query')).toBeUndefined();
    expect(requestKey({}, undefined)).toBeUndefined();
    expect(requestKey({}, '/?api-key=')).toBe('');
  });
});
