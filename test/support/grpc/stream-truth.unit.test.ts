import { describe, expect, it } from 'vitest';
import { AccountEvent, SlotEvent, SlotStatus, TransactionEvent, type ChainEvent } from '../../../schemas/codec.js';
import { accountIdentity, txIdentity, type Received } from './resumable-stream.js';
import {
  chainTruth,
  compareReceived,
  expectedBySlot,
  resumePoint,
  skippedUpdates,
  type PlacedEvent,
  type StreamExpectation,
} from './stream-truth.js';

const sig = (n: number): Buffer => Buffer.alloc(64, n);
const key = (n: number): Buffer => Buffer.alloc(32, n);
const tx = (slot: number, n: number): ChainEvent => ({
  kind: 'transactions',
  event: TransactionEvent.fromPartial({ slot: BigInt(slot), signatures: [sig(n)], accountKeys: [key(n)] }),
});
const acc = (slot: number, n: number): ChainEvent => ({
  kind: 'accounts',
  event: AccountEvent.fromPartial({ slot: BigInt(slot), pubkey: key(n), writeVersion: BigInt(n), owner: key(0) }),
});
const status = (slot: number, s: SlotStatus): ChainEvent => ({
  kind: 'slots',
  event: SlotEvent.fromPartial({ slot: BigInt(slot), status: s }),
});

/** Transactions on partition 0, accounts on partition 1, statuses on partition 2, offsets in order. */
function placed(events: ChainEvent[]): PlacedEvent[] {
  const next = [0n, 0n, 0n];
  return events.map((event) => {
    const partition = event.kind === 'transactions' ? 0 : event.kind === 'accounts' ? 1 : 2;
    return { topic: event.kind, partition, offset: next[partition]!++, event };
  });
}

const all: StreamExpectation = { commitment: 'processed', matchTransaction: () => true, matchAccount: () => true };
const confirmed: StreamExpectation = { ...all, commitment: 'confirmed' };
const rtx = (slot: number, n: number): Received => ({ id: txIdentity(sig(n)), slot: BigInt(slot) });
const racc = (slot: number, n: number): Received => ({ id: accountIdentity(key(n), BigInt(n)), slot: BigInt(slot) });

// Slots 0..2 produced (0 and 1 confirmed); slot 3's transaction is in, its end marker not yet.
const truth = chainTruth(
  placed([
    status(0, SlotStatus.SLOT_STATUS_PROCESSED),
    tx(0, 1),
    acc(0, 2),
    status(1, SlotStatus.SLOT_STATUS_PROCESSED),
    tx(1, 3),
    acc(1, 4),
    status(0, SlotStatus.SLOT_STATUS_CONFIRMED),
    status(2, SlotStatus.SLOT_STATUS_PROCESSED),
    tx(2, 5),
    status(1, SlotStatus.SLOT_STATUS_CONFIRMED),
    tx(3, 6),
  ]),
);

describe('stream truth', () => {
  it('expects every matching update of a processed stream, and only confirmed slots for a confirmed one', () => {
    expect([...expectedBySlot(all, truth).keys()]).toEqual([0n, 1n, 2n, 3n]);
    expect([...expectedBySlot(confirmed, truth).keys()]).toEqual([0n, 1n]);
  });

  it('resumes after the last slot received whole; a slot without its end marker is never whole', () => {
    expect(resumePoint(all, truth, [rtx(0, 1), racc(0, 2), rtx(1, 3)], 0n)).toBe(1n);
    expect(resumePoint(all, truth, [rtx(0, 1), racc(0, 2), rtx(1, 3), racc(1, 4), rtx(2, 5), rtx(3, 6)], 0n)).toBe(3n);
    expect(resumePoint(confirmed, truth, [rtx(0, 1), racc(0, 2), rtx(1, 3), racc(1, 4)], 0n)).toBe(2n);
    // A duplicate makes the slot not received whole either.
    expect(resumePoint(all, truth, [rtx(0, 1), rtx(0, 1), racc(0, 2)], 0n)).toBe(0n);
  });

  it('counts missing and extra updates with multiplicity', () => {
    expect(compareReceived([rtx(0, 1), rtx(0, 1), racc(0, 2)], expectedBySlot(confirmed, truth))).toEqual({
      missing: [txIdentity(sig(3)), accountIdentity(key(4), 4n)],
      extra: [txIdentity(sig(1))],
    });
  });

  it('tells a skipped update (an older one of the same partition missing) from one still on its way', () => {
    // Behind on partition 1 only: nothing skipped.
    expect(skippedUpdates(all, truth, [rtx(0, 1), rtx(1, 3), racc(0, 2)], 0n)).toEqual([]);
    // Transaction 3 (partition 0, offset 1) missing while offset 2 arrived.
    expect(skippedUpdates(all, truth, [rtx(0, 1), rtx(2, 5)], 0n)).toEqual([
      `${txIdentity(sig(3))} (transactions/0 offset 1, slot 1; offset 2 was received)`,
    ]);
    // Slots before the session's from_slot are not the session's to deliver.
    expect(skippedUpdates(all, truth, [rtx(2, 5)], 2n)).toEqual([]);
  });

  it("a confirmed stream expects only each account's last write of a slot, and none when that write does not match", () => {
    const write = (slot: number, k: number, wv: number, lamports: bigint): ChainEvent => ({
      kind: 'accounts',
      event: AccountEvent.fromPartial({ slot: BigInt(slot), pubkey: key(k), writeVersion: BigInt(wv), lamports, owner: key(0) }),
    });
    const t = chainTruth(
      placed([
        write(7, 1, 10, 5n),
        write(7, 1, 11, 6n),
        write(7, 2, 20, 5n),
        write(7, 2, 21, 1n),
        status(7, SlotStatus.SLOT_STATUS_CONFIRMED),
      ]),
    );
    const rich = (x: StreamExpectation): StreamExpectation => ({ ...x, matchAccount: (a) => a.lamports > 3n });
    const ids = (m: Map<bigint, Map<string, number>>): string[] => [...(m.get(7n)?.keys() ?? [])].sort();
    expect(ids(expectedBySlot(rich(confirmed), t))).toEqual([accountIdentity(key(1), 11n)]);
    expect(ids(expectedBySlot(rich(all), t))).toEqual(
      [accountIdentity(key(1), 10n), accountIdentity(key(1), 11n), accountIdentity(key(2), 20n)].sort(),
    );
  });
});
