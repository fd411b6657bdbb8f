// Relay identity at the conversion level: every record the simulator makes (transactions with full
// meta, account writes, slot statuses with block meta, entries, dead forks) survives event ->
// Yellowstone message bytes -> event unchanged, byte for byte in the Kafka record encoding. What
// Yellowstone's messages do not carry is named: a block's leader and vote count (the yellowstone source
// fills them from the leader schedule and the transactions), a transaction's block time (from block
// meta), and skipped slots (Yellowstone has no such status).
import { describe, expect, it } from 'vitest';
import { encodeRecord, SlotStatus, type ChainEvent } from '../schemas/codec.js';
import {
  accountFromYellowstone,
  accountToYellowstone,
  blockMetaFromYellowstone,
  blockMetaToYellowstone,
  entryFromYellowstone,
  entryToYellowstone,
  slotFromYellowstone,
  slotToYellowstone,
  SubscribeUpdateCodecs as YS,
  transactionFromYellowstone,
  transactionToYellowstone,
} from '../schemas/yellowstone/index.js';
import { collect } from './support/sim/checks.js';
import { expectEqual } from './support/harness/expect-equal.js';

function relay(e: ChainEvent): ChainEvent | undefined {
  switch (e.kind) {
    case 'transactions': {
      const bytes = YS.transaction.encode(transactionToYellowstone(e.event)).finish();
      return { kind: e.kind, event: transactionFromYellowstone(YS.transaction.decode(bytes), e.event.blockTime) };
    }
    case 'accounts':
      return { kind: e.kind, event: accountFromYellowstone(YS.account.decode(YS.account.encode(accountToYellowstone(e.event)).finish())) };
    case 'entries':
      return { kind: e.kind, event: entryFromYellowstone(YS.entry.decode(YS.entry.encode(entryToYellowstone(e.event)).finish())) };
    case 'slots': {
      const ys = slotToYellowstone(e.event);
      if (ys === undefined) return undefined;
      const event = slotFromYellowstone(YS.slot.decode(YS.slot.encode(ys).finish()));
      if (e.event.block !== undefined) {
        const m = blockMetaFromYellowstone(
          YS.blockMeta.decode(YS.blockMeta.encode(blockMetaToYellowstone(e.event.slot, e.event.block)).finish()),
        );
        // Filled by the source, not carried by Yellowstone.
        event.block = { ...m.block, leader: e.event.block.leader, voteTransactionCount: e.event.block.voteTransactionCount };
      }
      return { kind: e.kind, event };
    }
    case 'epochs':
      return undefined; // epochs come from the upstream's JSON-RPC, not from Yellowstone's stream
  }
}

describe('simulator records through the Yellowstone conversions', () => {
  it('come back byte for byte; only skipped slots and epochs have no Yellowstone form', async () => {
    // skipRate 0.2: skipped slots in 60 whatever the seed's traffic draws (at 0.05 a chain can have none).
    const batches = await collect({ maxSlots: 60, seed: 9, tps: 300, fast: true, entries: true, deadRate: 0.05, skipRate: 0.2 });
    const counts: Record<string, number> = {};
    let skipped = 0;
    for (const e of batches.flatMap((b) => b.events)) {
      const back = relay(e);
      if (back === undefined) {
        if (e.kind === 'slots') {
          expect(e.event.status).toBe(SlotStatus.SLOT_STATUS_SKIPPED);
          skipped++;
        }
        continue;
      }
      const want = encodeRecord(e);
      expectEqual(encodeRecord(back).value, want.value, () => `${e.kind} ${JSON.stringify(want.key)}`);
      counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    }
    expect(counts.transactions).toBeGreaterThan(5000);
    expect(counts.accounts).toBeGreaterThan(5000);
    expect(counts.entries).toBeGreaterThan(3000);
    expect(counts.slots).toBeGreaterThan(100);
    expect(skipped).toBeGreaterThan(0);
  });
});
