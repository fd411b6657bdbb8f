import { describe, expect, it } from 'vitest';
import { decodeRecord, SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { ParsedTransactionEvent } from '../../schemas/gen/events.js';
import { topicNames, type RecordKind } from '../../schemas/topics.js';
import { syntheticSlot } from '../../test/support/ingest/framed-slot.js';
import { collect } from '../../test/support/sim/checks.js';
import { endsSlot, SlotFramer, SlotFramingError, type FramedRecord } from './framer.js';

const partitions = new Map<RecordKind, number>([
  ['transactions', 3],
  ['accounts', 2],
  ['slots', 3],
  ['entries', 1],
  ['epochs', 1],
]);
const framer = () => new SlotFramer(partitions, topicNames('t'));
const slotEvent = (r: FramedRecord) => {
  const d = decodeRecord('slots', r.value);
  if (!d.ok || d.value.kind !== 'slots') throw new Error('not a slot record');
  return d.value.event;
};

describe('SlotFramer', () => {
  it("ends a slot with its PROCESSED record, counting the slot's records per partition", () => {
    const events = syntheticSlot(5n, 20);
    const out = framer().frame({ slot: 5n, events });
    expect(out).toHaveLength(events.length);
    const marker = slotEvent(out.at(-1)!);
    expect(marker).toMatchObject({ slot: 5n, status: SlotStatus.SLOT_STATUS_PROCESSED });
    const counted = marker.end!.counts.reduce((n, c) => n + c.count, 0);
    // Everything but the marker and slot 4's CONFIRMED record (a record of slot 4, not of 5).
    expect(counted).toBe(events.length - 2);
    for (const c of marker.end!.counts) {
      expect(
        out
          .slice(0, -1)
          .filter((r) => r.kind === c.kind && r.partition === c.partition && !(r.kind === 'slots' && slotEvent(r).slot !== 5n)),
      ).toHaveLength(c.count);
    }
  });

  it("puts the batch's upstream version on the end marker only; a batch without one leaves the marker without", () => {
    const upstream = { solanaCore: '4.2.3', featureSet: 7 };
    const events = syntheticSlot(6n, 10);
    const out = framer().frame({ slot: 6n, events, upstream });
    expect(slotEvent(out.at(-1)!).upstream).toEqual(upstream);
    expect(
      out
        .slice(0, -1)
        .filter((r) => r.kind === 'slots')
        .every((r) => slotEvent(r).upstream === undefined),
    ).toBe(true);
    expect(slotEvent(framer().frame({ slot: 6n, events }).at(-1)!).upstream).toBeUndefined();
  });

  it('counts across the batches of a slot and ends it only with its last batch', () => {
    const events = syntheticSlot(8n, 30);
    const f = framer();
    const a = f.frame({ slot: 8n, events: events.slice(0, 25), partial: true });
    expect(f.openSlot).toBe(8n);
    expect(a.some((r) => r.kind === 'slots' && slotEvent(r).end !== undefined)).toBe(false);
    const b = f.frame({ slot: 8n, events: events.slice(25) });
    expect(f.openSlot).toBeUndefined();
    const whole = framer().frame({ slot: 8n, events });
    expect(slotEvent(b.at(-1)!).end).toEqual(slotEvent(whole.at(-1)!).end);
    expect([...a, ...b].map((r) => r.value)).toEqual(whole.map((r) => r.value));
  });

  it('ends a skipped slot with its SKIPPED record and a dead fork with its DEAD record, each with counts', () => {
    const f = framer();
    const skipped = f.frame({
      slot: 3n,
      events: [{ kind: 'slots', event: { slot: 3n, status: SlotStatus.SLOT_STATUS_SKIPPED, block: undefined } }],
    });
    expect(slotEvent(skipped[0]!)).toMatchObject({ status: SlotStatus.SLOT_STATUS_SKIPPED, end: { counts: [] } });
    const dead: ChainEvent[] = [
      { kind: 'slots', event: { slot: 4n, status: SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED, block: undefined } },
      {
        kind: 'entries',
        event: { slot: 4n, index: 0n, numHashes: 1n, hash: Buffer.alloc(32), executedTransactionCount: 0n, startingTransactionIndex: 0n },
      },
      { kind: 'slots', event: { slot: 4n, status: SlotStatus.SLOT_STATUS_DEAD, block: undefined, deadError: 'fork died' } },
    ];
    const out = f.frame({ slot: 4n, events: dead });
    const marker = slotEvent(out.at(-1)!);
    expect(marker).toMatchObject({ status: SlotStatus.SLOT_STATUS_DEAD, deadError: 'fork died' });
    expect(marker.end!.counts.reduce((n, c) => n + c.count, 0)).toBe(2);
  });

  it('a later status change of an ended slot is no marker; records written before framing count as ended', () => {
    const f = framer();
    const out = f.frame({
      slot: 40n,
      events: [{ kind: 'slots', event: { slot: 8n, status: SlotStatus.SLOT_STATUS_DEAD, block: undefined } }],
    });
    expect(slotEvent(out[0]!).end).toBeUndefined();
    expect(endsSlot({ slot: 1n, status: SlotStatus.SLOT_STATUS_PROCESSED })).toBe(true);
    expect(endsSlot({ slot: 1n, status: SlotStatus.SLOT_STATUS_DEAD })).toBe(false);
    expect(endsSlot({ slot: 1n, status: SlotStatus.SLOT_STATUS_DEAD, end: { counts: [] } })).toBe(true);
  });

  it('refuses a batch of another slot while one is open', () => {
    const f = framer();
    f.frame({ slot: 1n, events: [], partial: true });
    expect(() => f.frame({ slot: 2n, events: [] })).toThrow(SlotFramingError);
  });
});

describe('SlotFramer with the parsed topic', () => {
  it("puts a whole slot's SubscribeParsed updates before its end marker, counted by it; none without the topic", async () => {
    const batches = await collect({ seed: 7, maxSlots: 6, fast: true, tps: 1000 });
    const withParsed = new SlotFramer(new Map<RecordKind, number>([...partitions, ['parsed', 2]]), topicNames('t'));
    const out = batches.flatMap((b) => withParsed.frame(b));
    const parsed = out.filter((r) => r.kind === 'parsed');
    expect(parsed.length).toBeGreaterThan(50);
    // Each slot's parsed records sit between its data and its end marker, and the marker counts them.
    for (const marker of out.filter((r) => r.ends !== undefined)) {
      const slot = marker.ends!;
      const mine = parsed.filter((r) => ParsedTransactionEvent.decode(r.value).slot === slot);
      const at = out.indexOf(marker);
      expect(mine.every((r) => out.indexOf(r) < at)).toBe(true);
      const counted = slotEvent(marker)
        .end!.counts.filter((c) => c.kind === 'parsed')
        .reduce((n, c) => n + c.count, 0);
      expect(counted).toBe(mine.length);
    }
    // The same batches framed without the topic: the same records, no parsed ones.
    const without = new SlotFramer(partitions, topicNames('t'));
    const plain = batches.flatMap((b) => without.frame(b));
    expect(plain.filter((r) => r.kind === 'parsed')).toEqual([]);
    expect(plain.length).toBe(out.length - parsed.length);
  });
});
