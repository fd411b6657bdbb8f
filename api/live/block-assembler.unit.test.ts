// Block assembly: a block is emitted once its end marker and every record the marker counts have been read,
// in any arrival order; dead slots and slots far behind are dropped; accounts are the last write per pubkey.
import { describe, expect, it } from 'vitest';
import { AccountEvent, EntryEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../schemas/gen/events.js';
import { BLOCK_WINDOW, BlockAssembler, type AssembledBlock } from './block-assembler.js';
import { entryRecord, slotRecord, type StreamEvent } from './stream-event.js';
import { accountRecord, txRecord } from '../../test/support/live/records.js';

const tx = (slot: bigint, index: number): StreamEvent =>
  txRecord(TransactionEvent.fromPartial({ slot, index, signatures: [Buffer.alloc(64, index)] }));
const entry = (slot: bigint, index: bigint): StreamEvent => entryRecord(EntryEvent.fromPartial({ slot, index }), 0);
const acc = (slot: bigint, k: number, writeVersion: bigint): StreamEvent =>
  accountRecord(AccountEvent.fromPartial({ slot, pubkey: Buffer.alloc(32, k), writeVersion }));
function marker(slot: bigint, counts?: { transactions: number; accounts: number; entries: number }, metaTx = 0n): StreamEvent {
  return slotRecord(
    SlotEvent.fromPartial({
      slot,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: { blockhash: Buffer.alloc(32, 1), executedTransactionCount: metaTx, entryCount: 0n },
      end: counts && {
        counts: [
          { kind: 'transactions', partition: 0, count: counts.transactions - 1 },
          { kind: 'transactions', partition: 1, count: 1 },
          { kind: 'accounts', partition: 0, count: counts.accounts },
          { kind: 'entries', partition: 0, count: counts.entries },
        ],
      },
    }),
    0,
  );
}
function run(events: StreamEvent[]): AssembledBlock[] {
  const out: AssembledBlock[] = [];
  const a = new BlockAssembler((b) => out.push(b));
  for (const e of events) a.onEvent(e);
  return out;
}

describe('BlockAssembler', () => {
  it('emits when the marker and all counted records are in, whatever came first; transactions and entries in block order', () => {
    const events = [
      tx(5n, 1),
      entry(5n, 1n),
      marker(5n, { transactions: 2, accounts: 3, entries: 2 }),
      acc(5n, 1, 1n),
      acc(5n, 1, 3n),
      acc(5n, 2, 2n),
      entry(5n, 0n),
    ];
    expect(run(events)).toEqual([]);
    const [b] = run([...events, tx(5n, 0)]);
    expect(b!.slot).toBe(5n);
    expect(b!.transactions.map((t) => t.index)).toEqual([0, 1]);
    expect(b!.entries.map((e) => e.index)).toEqual([0n, 1n]);
    expect(b!.accounts.map((a) => [a.pubkey[0], a.writeVersion])).toEqual([
      [1, 3n],
      [2, 2n],
    ]);
    // Emitted once: a late duplicate marker starts nothing new.
    expect(run([...events, tx(5n, 0), marker(5n, { transactions: 2, accounts: 3, entries: 2 })])).toHaveLength(1);
  });

  it('without end counts: the block meta executed transaction count', () => {
    expect(run([marker(7n, undefined, 2n), tx(7n, 0)])).toEqual([]);
    expect(run([marker(7n, undefined, 2n), tx(7n, 0), tx(7n, 1)]).map((b) => b.transactions.length)).toEqual([2]);
    expect(run([marker(8n, { transactions: 1, accounts: 0, entries: 0 }), tx(8n, 0)])).toHaveLength(1);
  });

  it('a dead slot drops what was collected; slots far behind the newest end marker are never started', () => {
    const dead: StreamEvent = slotRecord(SlotEvent.fromPartial({ slot: 9n, status: SlotStatus.SLOT_STATUS_DEAD }), 0);
    expect(run([tx(9n, 0), dead, marker(9n, { transactions: 1, accounts: 0, entries: 0 })])).toEqual([]);
    const far = 100n + BLOCK_WINDOW + 1n;
    const one = { transactions: 1, accounts: 0, entries: 0 };
    expect(run([marker(far, one), tx(far, 0), tx(100n, 0), marker(100n, one)]).map((b) => b.slot)).toEqual([far]);
  });

  it('data read far ahead of the slots topic (a replay): every slot still gets its block once its marker comes', () => {
    // The replay's reader serves the transactions topic's chunks before the slots topic's first (issue 32 item 7:
    // a window on the newest record of any kind dropped the range's first slots).
    const counts = { transactions: 2, accounts: 1, entries: 1 };
    const slots = Array.from({ length: Number(BLOCK_WINDOW) * 3 }, (_, i) => 1000n + BigInt(i));
    const data = slots.flatMap((s) => [tx(s, 0), tx(s, 1), acc(s, 1, s), entry(s, 0n)]);
    expect(run([...data, ...slots.map((s) => marker(s, counts))]).map((b) => b.slot)).toEqual(slots);
  });

  it("adopt: a slot straddling a replay's hand-over is whole from both parts, each record counted once", () => {
    const counts = { transactions: 2, accounts: 3, entries: 2 };
    const replayed: AssembledBlock[] = [];
    const replay = new BlockAssembler((b) => replayed.push(b));
    for (const e of [tx(5n, 0), acc(5n, 1, 1n), acc(5n, 1, 3n), entry(5n, 0n)]) replay.onEvent(e);
    const live: AssembledBlock[] = [];
    const hub = new BlockAssembler((b) => live.push(b));
    // The live assembler read one of the replay's records too (it existed before), then the rest and the marker.
    for (const e of [acc(5n, 1, 3n), tx(5n, 1), acc(5n, 2, 2n), entry(5n, 1n), marker(5n, counts)]) hub.onEvent(e);
    expect(live).toEqual([]);
    const adopted: AssembledBlock[] = [];
    hub.adopt(replay, (b) => adopted.push(b));
    expect(replayed).toEqual([]);
    expect(live).toEqual([]); // only the adopting stream lacked it
    expect(adopted.map((b) => [b.slot, b.transactions.length, b.entries.length, b.accounts.map((a) => a.writeVersion)])).toEqual([
      [5n, 2, 2, [3n, 2n]],
    ]);
    // A slot still waiting for its marker completes later through the live callback, for every stream.
    const replay2 = new BlockAssembler(() => undefined);
    replay2.onEvent(tx(6n, 0));
    hub.adopt(replay2, (b) => adopted.push(b));
    hub.onEvent(marker(6n, { transactions: 1, accounts: 0, entries: 0 }));
    expect(live.map((b) => b.slot)).toEqual([6n]);
    expect(adopted).toHaveLength(1);
  });
});
