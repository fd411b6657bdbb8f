import { describe, expect, it } from 'vitest';
import { boundsFromMetadata, cursorStart, STREAM_FIELD_NAMES, streamBounds } from './stream-bounds.js';

describe('streamBounds', () => {
  it('accepts a cursor, an end slot and a pace, and drops pace 0 (as fast as possible)', () => {
    expect(streamBounds({ cursor: 'bot-1.main:v2', toSlot: 20n, pace: 2, fromSlot: 10n }, STREAM_FIELD_NAMES)).toEqual({
      ok: true,
      value: { cursor: 'bot-1.main:v2', toSlot: 20n, pace: 2 },
    });
    expect(streamBounds({ pace: 0 }, STREAM_FIELD_NAMES)).toEqual({ ok: true, value: {} });
    expect(streamBounds({ toSlot: 5n }, STREAM_FIELD_NAMES)).toEqual({ ok: true, value: { toSlot: 5n } });
  });

  it('names the field and says why', () => {
    const err = (f: Parameters<typeof streamBounds>[0]) => {
      const r = streamBounds(f, STREAM_FIELD_NAMES);
      return r.ok ? undefined : r.error;
    };
    expect(err({ cursor: '' })).toMatch(/^cursor: cursor name must be 1-128 characters/);
    expect(err({ cursor: 'a b' })).toMatch(/^cursor: /);
    expect(err({ cursor: 'x'.repeat(129) })).toMatch(/^cursor: /);
    expect(err({ pace: -1, fromSlot: 1n })).toMatch(/^pace: must be a finite number >= 0/);
    expect(err({ pace: Infinity, fromSlot: 1n })).toMatch(/^pace: /);
    expect(err({ pace: NaN, fromSlot: 1n })).toMatch(/^pace: /);
    expect(err({ pace: 2 })).toBe('pace: paces a replay, so it needs from_slot or cursor (live updates are never delayed)');
    expect(err({ toSlot: 9n, fromSlot: 10n })).toBe('to_slot: 9 is before from_slot 10');
    expect(err({ pace: 2, cursor: 'c' })).toBeUndefined();
  });
});

describe('boundsFromMetadata', () => {
  const meta = (m: Record<string, string>) => (k: string) => m[k];
  it('reads the x-slotstream-* keys', () => {
    expect(boundsFromMetadata(meta({ 'x-slotstream-cursor': 'c', 'x-slotstream-to-slot': '42', 'x-slotstream-pace': '1.5' }), 10n)).toEqual(
      { ok: true, value: { cursor: 'c', toSlot: 42n, pace: 1.5 } },
    );
    expect(boundsFromMetadata(meta({}), undefined)).toEqual({ ok: true, value: {} });
  });
  it('names the key of an unreadable value', () => {
    expect(boundsFromMetadata(meta({ 'x-slotstream-to-slot': 'soon' }), undefined)).toEqual({
      ok: false,
      error: 'x-slotstream-to-slot: not a slot number (u64): "soon"',
    });
    expect(boundsFromMetadata(meta({ 'x-slotstream-to-slot': '18446744073709551616' }), undefined).ok).toBe(false);
    expect(boundsFromMetadata(meta({ 'x-slotstream-pace': 'fast' }), 1n)).toEqual({
      ok: false,
      error: 'x-slotstream-pace: not a number: "fast"',
    });
    expect(boundsFromMetadata(meta({ 'x-slotstream-to-slot': '5' }), 6n)).toEqual({
      ok: false,
      error: 'x-slotstream-to-slot: 5 is before from_slot 6',
    });
  });
});

describe('cursorStart', () => {
  it('resumes right after a stored position, whatever from_slot says; from_slot only for a new cursor', () => {
    expect(cursorStart(99n, 10n)).toBe(100n);
    expect(cursorStart(99n, undefined)).toBe(100n);
    expect(cursorStart(undefined, 10n)).toBe(10n);
    expect(cursorStart(undefined, undefined)).toBeUndefined();
  });
});
