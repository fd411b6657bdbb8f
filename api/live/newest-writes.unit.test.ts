import { describe, expect, it } from 'vitest';
import { NewestWrites } from './newest-writes.js';

const values = <T>(w: NewestWrites<T>, slot: bigint): T[] | undefined => {
  const got = w.take(slot);
  return got && [...got.byKey.values()].map((n) => n.value);
};

describe('NewestWrites', () => {
  it('remembers watched accounts per slot and moves them with any later write; ignores accounts nobody watches', () => {
    const w = new NewestWrites(10n);
    w.note(5n, 'P', 1360n, undefined, true);
    w.note(5n, 'P', 1361n, undefined, false); // a later write the stream's filters did not match
    w.note(5n, 'Q', 9n, undefined, false); // nobody watches Q
    w.note(6n, 'P', 2000n, undefined, false); // nothing watched in slot 6
    expect(w.newest(5n, 'P')).toBe(1361n);
    expect(w.newest(5n, 'Q')).toBeUndefined();
    expect(w.newest(6n, 'P')).toBeUndefined();
    expect(w.has(6n)).toBe(false);
    w.note(5n, 'P', 1000n, undefined, true); // an older version never moves it back
    expect(w.newest(5n, 'P')).toBe(1361n);
  });

  it('forgets slots more than the window behind the newest', () => {
    const w = new NewestWrites(10n);
    w.note(5n, 'P', 1n, undefined);
    w.note(15n, 'P', 2n, undefined);
    expect(w.newest(5n, 'P')).toBe(1n);
    w.note(16n, 'P', 3n, undefined);
    expect(w.newest(5n, 'P')).toBeUndefined();
    expect(w.newest(15n, 'P')).toBe(2n);
  });

  // Yellowstone's processing_slot_into_block_keeps_only_highest_write_version and
  // ..._deduplicates_independently_per_pubkey, on the structure.
  it("keeps each account's highest version per slot, whatever the order, independently per account and slot", () => {
    const w = new NewestWrites<string>();
    for (const [slot, key, v] of [
      [30n, 'A', 7n],
      [30n, 'B', 9n],
      [30n, 'A', 3n],
      [31n, 'A', 1n],
      [30n, 'C', 2n],
      [30n, 'A', 2n],
    ] as const)
      w.note(slot, key, v, `${key}@${v}`);
    const slot30 = w.take(30n)!;
    expect(slot30.noted).toBe(5);
    // In the order the accounts were first written.
    expect([...slot30.byKey.values()].map((n) => n.value)).toEqual(['A@7', 'B@9', 'C@2']);
    expect(w.has(30n)).toBe(false);
    expect(values(w, 31n)).toEqual(['A@1']);
    expect(values(w, 31n)).toBeUndefined();
  });

  it('of two copies of one write (the same version), the later is kept', () => {
    const w = new NewestWrites<string>();
    w.note(5n, 'A', 3n, 'first');
    w.note(5n, 'A', 3n, 'copy');
    expect(values(w, 5n)).toEqual(['copy']);
  });

  it('forgets a slot, the slots below one, or everything, when its reader says so', () => {
    const w = new NewestWrites<number>();
    for (const slot of [1n, 2n, 3n, 4n]) w.note(slot, 'A', 1n, Number(slot));
    w.forget(3n);
    w.forgetBefore(2n);
    expect([1n, 2n, 3n, 4n].map((s) => w.has(s))).toEqual([false, true, false, true]);
    w.clear();
    expect(w.has(4n)).toBe(false);
  });
});
