// expect(actual).toEqual(expected) for large values: vitest's comparison walks every element through its generic
// matchers (tens of seconds for 10,000 framed records or a byte array per record, most of a test's time), Node's
// strict deep equality does the same walk in milliseconds. Strictly equal values are always toEqual-equal, so the
// fast path passes exactly what toEqual passes; anything else goes to toEqual, which decides and prints its diff.
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/** `message` may be a function: built only when the values differ (a message per element costs what the walk does). */
export function expectEqual<T>(actual: T, expected: T, message?: string | (() => string)): void {
  if (isDeepStrictEqual(actual, expected)) return;
  expect(actual, typeof message === 'function' ? message() : message).toEqual(expected);
}
