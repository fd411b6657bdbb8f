import { describe, expect, it } from 'vitest';
import { SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { piecesFor, spreadSlot } from './spread.js';

const events = (n: number): ChainEvent[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'slots', event: { slot: BigInt(i), status: SlotStatus.SLOT_STATUS_CONFIRMED } }));

describe('spreadSlot', () => {
  it('cuts a slot into near-equal pieces that concatenate to it; only the last is not partial', () => {
    const batch = { slot: 9n, events: events(10) };
    const pieces = spreadSlot(batch, 4);
    expect(pieces.map((p) => p.events.length)).toEqual([2, 3, 2, 3]);
    expect(pieces.flatMap((p) => p.events)).toEqual(batch.events);
    expect(pieces.map((p) => p.partial)).toEqual([true, true, true, undefined]);
    expect(pieces.every((p) => p.slot === 9n)).toBe(true);
  });

  it('never makes empty pieces and keeps a small or empty slot whole', () => {
    expect(spreadSlot({ slot: 1n, events: events(3) }, 80).map((p) => p.events.length)).toEqual([1, 1, 1]);
    const empty = { slot: 2n, events: [] };
    expect(spreadSlot(empty, 80)).toEqual([empty]);
  });

  it('a 400 ms slot comes in 20 pieces, a very short one whole', () => {
    expect(piecesFor(400)).toBe(20);
    expect(piecesFor(19)).toBe(1);
  });
});
