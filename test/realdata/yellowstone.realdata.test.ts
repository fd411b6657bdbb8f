// Mainnet recordings through schemas/yellowstone: decode with Yellowstone's published codecs, convert
// to the event model and back, and check the facts the data README states. Runs in the vitest project
// `realdata` (present whenever the recordings are beside the repository; see vitest.config.ts).
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord, type ChainEvent } from '../../schemas/codec.js';
import { SlotStatus } from '../../schemas/codec.js';
import {
  blockFromConfirmedBlock,
  blockMetaFromYellowstone,
  blockMetaToYellowstone,
  ConfirmedBlock,
  entryFromYellowstone,
  entryToYellowstone,
  slotFromYellowstone,
  slotToYellowstone,
  SubscribeUpdate,
  transactionErrorFromJson,
  transactionErrorToJson,
  blockToConfirmedBlock,
} from '../../schemas/yellowstone/index.js';
import { encodeMessage } from '../../schemas/wire.js';
import { MAINNET_BLOCKS, readMainnetBlock, readMainnetStream } from '../support/mainnet/data.js';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function viaKafka(e: ChainEvent): ChainEvent {
  const d = decodeRecord(e.kind, encodeRecord(e).value);
  if (!d.ok) throw new Error(d.reason);
  return d.value;
}

describe.each(MAINNET_BLOCKS)('mainnet block $slot', (fact) => {
  const bytes = readMainnetBlock(fact.slot);
  const block = ConfirmedBlock.decode(bytes);
  const events = blockFromConfirmedBlock(fact.slot, block);
  const txs = events.transactions;

  it('has the README facts: parent, transactions, votes, log lines, rewards, block time', () => {
    const meta = events.slot.block!;
    expect(meta.parentSlot).toBe(fact.parent);
    expect(txs).toHaveLength(fact.transactions);
    expect(meta.transactionCount).toBe(fact.transactions);
    if (fact.votes !== undefined) expect(txs.filter((t) => t.isVote)).toHaveLength(fact.votes);
    expect(meta.voteTransactionCount).toBe(txs.filter((t) => t.isVote).length);
    const logs = txs.reduce((n, t) => n + t.logMessages.length, 0);
    if (fact.logLines !== undefined) expect(logs).toBe(fact.logLines);
    else expect(logs).toBeGreaterThan(0);
    expect(meta.rewards).toHaveLength(fact.rewards);
    expect(meta.blockTime).toBe(fact.blockTime);
    expect(meta.blockhash).toHaveLength(32);
    expect(meta.previousBlockhash).toHaveLength(32);
  });

  it('balances: for every transaction pre minus post summed equals the fee', () => {
    for (const t of txs) {
      const keys = t.accountKeys.length + t.loadedWritable.length + t.loadedReadonly.length;
      expect(t.preBalances).toHaveLength(keys);
      expect(t.postBalances).toHaveLength(keys);
      const pre = t.preBalances.reduce((a, b) => a + b, 0n);
      const post = t.postBalances.reduce((a, b) => a + b, 0n);
      expect(pre - post, `${fact.slot}/${t.index}`).toBe(t.fee);
    }
  });

  it('every re-serialized message verifies against its first signature and fee payer', () => {
    for (const t of txs) {
      const payer = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, t.accountKeys[0]!]), format: 'der', type: 'spki' });
      expect(verify(null, encodeMessage(t), payer, t.signatures[0]!), `${fact.slot}/${t.index}`).toBe(true);
    }
  });

  it('errors: every error round-trips between the bincode bytes and Agave JSON', () => {
    let failed = 0;
    block.transactions.forEach((ct, i) => {
      const raw = ct.meta!.err?.err;
      expect(txs[i]!.err === undefined).toBe(raw === undefined);
      if (raw === undefined) return;
      failed++;
      expect(Buffer.from(transactionErrorFromJson(transactionErrorToJson(raw)))).toEqual(Buffer.from(raw));
      expect(txs[i]!.err).toMatch(/^\{"InstructionError":\[\d+,/);
    });
    expect(failed).toBeGreaterThan(0);
  });

  it('converts back to the identical ConfirmedBlock bytes, also after a trip through the Kafka record codec', () => {
    // (Buffer.equals: vitest's deep equality walks 1.6 MB byte by byte for the rewards block.)
    expect(Buffer.from(ConfirmedBlock.encode(blockToConfirmedBlock(events)).finish()).equals(bytes)).toBe(true);
    const slot = viaKafka({ kind: 'slots', event: events.slot });
    const back = txs.map((t) => viaKafka({ kind: 'transactions', event: t }).event);
    const again = blockToConfirmedBlock({ slot: slot.event as typeof events.slot, transactions: back as typeof txs });
    expect(Buffer.from(ConfirmedBlock.encode(again).finish()).equals(bytes)).toBe(true);
  });
});

describe('mainnet Yellowstone stream 398202772', () => {
  const records = readMainnetStream();
  const updates = records.map((r) => SubscribeUpdate.decode(r));

  it('holds what the README says: 50 block metas, 295 slot updates, 39,840 entries, 1 ping', () => {
    expect(updates.filter((u) => u.blockMeta)).toHaveLength(50);
    expect(updates.filter((u) => u.slot)).toHaveLength(295);
    expect(updates.filter((u) => u.entry)).toHaveLength(39_840);
    expect(updates.filter((u) => u.ping)).toHaveLength(1);
    expect(updates).toHaveLength(50 + 295 + 39_840 + 1);
  });

  it('every slot, block meta and entry converts to the event model and back to the same update bytes', () => {
    records.forEach((_, i) => {
      const u = updates[i]!;
      // created_at is a nanosecond timestamp that JS Date holds in milliseconds only: compare with the
      // package's own re-encoding of the decoded update, which loses the same digits.
      const bytes = Buffer.from(SubscribeUpdate.encode(u).finish());
      const out = { ...u };
      if (u.slot) out.slot = slotToYellowstone(viaKafka({ kind: 'slots', event: slotFromYellowstone(u.slot) }).event as never);
      if (u.blockMeta) {
        const { slot, block } = blockMetaFromYellowstone(u.blockMeta);
        const e = viaKafka({ kind: 'slots', event: { slot, status: SlotStatus.SLOT_STATUS_PROCESSED, block } }).event as {
          slot: bigint;
          block: typeof block;
        };
        out.blockMeta = blockMetaToYellowstone(e.slot, e.block);
      }
      if (u.entry) out.entry = entryToYellowstone(viaKafka({ kind: 'entries', event: entryFromYellowstone(u.entry) }).event as never);
      expect(Buffer.from(SubscribeUpdate.encode(out).finish()).equals(bytes), `record ${i}`).toBe(true);
    });
  });

  it('per slot: entries count, transaction counts and PoH order agree with the block meta; heights and parents chain', () => {
    // The recording starts in the middle of its first slot's entries: slots whose entry 0 is missing
    // are checked only for order; every other slot must be whole.
    let whole = 0;
    const metas = updates.filter((u) => u.blockMeta).map((u) => blockMetaFromYellowstone(u.blockMeta!));
    const entries = updates.filter((u) => u.entry).map((u) => entryFromYellowstone(u.entry!));
    metas.sort((a, b) => Number(a.slot - b.slot));
    expect(metas[0]!.slot).toBe(398202772n);
    expect(metas.at(-1)!.slot).toBe(398202821n);
    metas.forEach((m, i) => {
      expect(m.block.blockHeight).toBe(376320340n + BigInt(i));
      if (i > 0) {
        expect(m.block.parentSlot).toBe(metas[i - 1]!.slot);
        expect(m.block.previousBlockhash).toEqual(metas[i - 1]!.block.blockhash);
      }
      const mine = entries.filter((e) => e.slot === m.slot).sort((a, b) => Number(a.index - b.index));
      if (mine[0]?.index !== 0n) {
        expect(i).toBe(0);
        return;
      }
      whole++;
      expect(BigInt(mine.length)).toBe(m.block.entryCount);
      expect(mine.map((e) => e.index)).toEqual(mine.map((_, k) => BigInt(k)));
      // An entry's first transaction follows the previous entries' transactions, except that while no
      // transaction has come yet most of these slots say 8 instead of 0 (the upstream's quirk, relayed as
      // recorded).
      let next = 0n;
      for (const e of mine) {
        if (next === 0n) expect([0n, 8n]).toContain(e.startingTransactionIndex);
        else expect(e.startingTransactionIndex).toBe(next);
        next += e.executedTransactionCount;
      }
      expect(next).toBe(m.block.executedTransactionCount);
      // The last entry's hash is the blockhash.
      expect(mine.at(-1)!.hash).toEqual(m.block.blockhash);
    });
    expect(whole).toBe(49);
  });

  it('slot statuses map onto the event model, Yellowstone progress statuses included', () => {
    const seen = new Set(updates.filter((u) => u.slot).map((u) => slotFromYellowstone(u.slot!).status));
    expect([...seen].sort()).toEqual([
      SlotStatus.SLOT_STATUS_PROCESSED,
      SlotStatus.SLOT_STATUS_CONFIRMED,
      SlotStatus.SLOT_STATUS_FINALIZED,
      SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
      SlotStatus.SLOT_STATUS_CREATED_BANK,
      SlotStatus.SLOT_STATUS_COMPLETED,
    ]);
  });
});
