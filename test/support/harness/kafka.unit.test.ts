import { describe, expect, it } from 'vitest';
import { uniquePrefix, waitFor } from './kafka.js';

describe('uniquePrefix', () => {
  it('gives distinct prefixes made only of legal topic-name characters', () => {
    const a = uniquePrefix('my test/with spaces_and_underscores');
    const b = uniquePrefix('my test/with spaces_and_underscores');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[a-zA-Z0-9.-]+$/);
    expect(a).toContain('my-test-with-spaces-and-underscores');
    expect(`${uniquePrefix('x'.repeat(500))}.transactions.v1`.length).toBeLessThan(249);
  });
});

describe('waitFor', () => {
  it('returns the first truthy value of the condition', async () => {
    let n = 0;
    await expect(waitFor(() => (++n >= 3 ? n : 0), { what: 'three polls', intervalMs: 1 })).resolves.toBe(3);
  });

  it('treats a throwing condition as not yet, and times out naming what it waited for', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('broker says no');
        },
        { what: 'the impossible', timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for the impossible \(last error: broker says no\)/);
  });
});
