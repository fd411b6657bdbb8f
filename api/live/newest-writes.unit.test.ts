import { describe, expect, it } from 'vitest';
import { NewestWrites } from './newest-writes.js';

describe('NewestWrites', () => {
  it('remembers watched accounts per slot and moves them with any later write; ignores accounts nobody watches', () => {
    const w = new NewestWrites(10n);
    w.note(5n, 'P', 1360n, true);
    w.note(5n, 'P', 1361n, false); // a later write the stream's filters did not match
    w.note(5n, 'Q', 9n, false); // nobody watches Q
    w.note(6n, 'P', 2000n, false); // nothing watched in slot 6
    expect(w.newest(5n, 'P')).toBe(1361n);
    expect(w.newest(5n, 'Q')).toBeUndefined();
    expect(w.newest(6n, 'P')).toBeUndefined();
    w.note(5n, 'P', 1000n, true); // an older version never moves it back
    expect(w.newest(5n, 'P')).toBe(1361n);
  });

  it('forgets slots more than the window behind the newest', () => {
    const w = new NewestWrites(10n);
    w.note(5n, 'P', 1n, true);
    w.note(15n, 'P', 2n, true);
    expect(w.newest(5n, 'P')).toBe(1n);
    w.note(16n, 'P', 3n, true);
    expect(w.newest(5n, 'P')).toBeUndefined();
    expect(w.newest(15n, 'P')).toBe(2n);
  });
});
