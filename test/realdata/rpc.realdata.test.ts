// Two independent decodings of each mainnet block agree field for field (issue 11, "Done when"):
//   path A: the ConfirmedBlock protobuf through schemas/yellowstone into events;
//   path B: the same block rendered as Agave's getBlock JSON (base64), served by a local JSON-RPC test
//           server and read by `--source rpc` (ingest/sources/rpc), whose converter never touches schemas/yellowstone.
// Anchors against a mistake both paths could share: @solana/web3.js's Connection.getBlock accepts the test
// server's answers; the data README's facts hold on path B; every re-serialized transaction verifies its
// signatures; pre minus post balances equals the fee.
import { createPublicKey, verify } from 'node:crypto';
import { Connection } from '@solana/web3.js';
import bs58 from 'bs58';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockFromRpc } from '../../ingest/sources/rpc/convert.js';
import { parseJsonExact } from '../../ingest/sources/shared/rpc-json.js';
import { createRpcSource } from '../../ingest/sources/rpc/source.js';
import type { SlotBatch } from '../../ingest/source.js';
import { encodeMessage } from '../../schemas/wire.js';
import { SlotStatus } from '../../schemas/codec.js';
import { blockFromConfirmedBlock, ConfirmedBlock } from '../../schemas/yellowstone/index.js';
import { MAINNET_BLOCKS, readMainnetBlock } from '../support/mainnet/data.js';
import { agaveBlock, toJsonText } from '../support/rpc/agave-block.js';
import { startTestRpcServer, testLeaderOf, type TestRpcServer, type TestSlot } from '../support/rpc/test-server.js';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SLOTS_PER_EPOCH = 432_000; // mainnet's
const identities = [1, 2, 3].map((i) => Buffer.alloc(32, i));
const schedule = { identities, slotsPerEpoch: SLOTS_PER_EPOCH };
const blocks = MAINNET_BLOCKS.map((f) => ({ fact: f, block: ConfirmedBlock.decode(readMainnetBlock(f.slot)) }));

let server: TestRpcServer;

beforeAll(async () => {
  const slots = new Map<number, TestSlot>(blocks.map(({ fact, block }) => [Number(fact.slot), { kind: 'block', block }]));
  const top = Number(MAINNET_BLOCKS.at(-1)!.slot);
  server = await startTestRpcServer({ slots, slotsPerEpoch: SLOTS_PER_EPOCH, identities, tip: { confirmed: top, finalized: top } });
});

afterAll(async () => {
  await server?.close();
});

async function ingest(from: bigint, to: bigint): Promise<SlotBatch[]> {
  const source = createRpcSource({
    url: server.url,
    fromSlot: from,
    toSlot: to,
    concurrency: 4,
    timeoutMs: 10_000,
    pollMs: 50,
    log: pino({ level: 'silent' }),
  });
  const out: SlotBatch[] = [];
  for await (const b of source.batches({})) out.push(b);
  return out;
}

describe.each(blocks)('mainnet block $fact.slot', ({ fact, block }) => {
  const slot = fact.slot;
  const leader = testLeaderOf(schedule, Number(slot));
  const pathA = blockFromConfirmedBlock(slot, block, leader);

  it('path B (Agave getBlock JSON through the rpc converter) equals path A field for field', () => {
    const json = parseJsonExact(toJsonText(agaveBlock(block, 'base64')));
    const pathB = blockFromRpc(slot, json as Parameters<typeof blockFromRpc>[1], leader);
    expect(pathB.slot).toStrictEqual(pathA.slot);
    expect(pathB.transactions).toHaveLength(pathA.transactions.length);
    pathB.transactions.forEach((t, i) => expect(t, `${slot}/${i}`).toStrictEqual(pathA.transactions[i]));
  });

  it('--source rpc, served by the test server, publishes path A: epoch record, statuses, block meta, transactions', async () => {
    // 64800004 follows four skipped slots; start at its epoch's first slot to see them.
    const from = slot === 64800004n ? 64800000n : slot;
    const batches = await ingest(from, slot);
    expect(batches.map((b) => b.slot)).toEqual(Array.from({ length: Number(slot - from) + 1 }, (_, i) => from + BigInt(i)));
    for (const b of batches.slice(0, -1)) {
      expect(b.events.filter((e) => e.kind === 'slots').map((e) => e.event)).toMatchObject([
        { slot: b.slot, status: SlotStatus.SLOT_STATUS_SKIPPED },
      ]);
    }
    const all = batches.flatMap((b) => b.events);
    const epochs = all.filter((e) => e.kind === 'epochs');
    expect(epochs).toHaveLength(1);
    const ev = epochs[0]!.event as { epoch: bigint; firstSlot: bigint; identities: Buffer[]; schedule: number[] };
    expect(ev.epoch).toBe(slot / BigInt(SLOTS_PER_EPOCH));
    expect(ev.firstSlot).toBe((slot / BigInt(SLOTS_PER_EPOCH)) * BigInt(SLOTS_PER_EPOCH));
    expect(ev.schedule).toHaveLength(SLOTS_PER_EPOCH / 4);
    const last = batches.at(-1)!.events;
    const statuses = last.filter((e) => e.kind === 'slots').map((e) => e.event);
    expect(statuses.map((s) => s.status)).toEqual([
      SlotStatus.SLOT_STATUS_PROCESSED,
      SlotStatus.SLOT_STATUS_CONFIRMED,
      SlotStatus.SLOT_STATUS_FINALIZED,
    ]);
    expect(statuses[0]).toStrictEqual(pathA.slot);
    const txs = last.filter((e) => e.kind === 'transactions').map((e) => e.event);
    expect(txs).toStrictEqual(pathA.transactions);
  });

  it('path B has the README facts: parent, transactions, votes, log lines, rewards, block time', () => {
    const b = blockFromRpc(slot, parseJsonExact(toJsonText(agaveBlock(block, 'base64'))) as never, leader);
    const meta = b.slot.block!;
    expect(meta.parentSlot).toBe(fact.parent);
    expect(b.transactions).toHaveLength(fact.transactions);
    if (fact.votes !== undefined) expect(b.transactions.filter((t) => t.isVote)).toHaveLength(fact.votes);
    const logs = b.transactions.reduce((n, t) => n + t.logMessages.length, 0);
    if (fact.logLines !== undefined) expect(logs).toBe(fact.logLines);
    else expect(logs).toBeGreaterThan(0);
    expect(meta.rewards).toHaveLength(fact.rewards);
    expect(meta.blockTime).toBe(fact.blockTime);
    for (const t of b.transactions) {
      const pre = t.preBalances.reduce((x, y) => x + y, 0n);
      const post = t.postBalances.reduce((x, y) => x + y, 0n);
      expect(pre - post, `${slot}/${t.index}`).toBe(t.fee);
      const message = encodeMessage(t);
      t.signatures.forEach((sig, i) => {
        const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, t.accountKeys[i]!]), format: 'der', type: 'spki' });
        expect(verify(null, message, key, sig), `${slot}/${t.index} signature ${i}`).toBe(true);
      });
    }
  });

  it("@solana/web3.js's Connection.getBlock accepts the test server's answer and reads the same block", async () => {
    const conn = new Connection(server.url, 'confirmed');
    const got = await conn.getBlock(Number(slot), { maxSupportedTransactionVersion: 0, rewards: true });
    expect(got).not.toBeNull();
    expect(got!.blockhash).toBe(bs58.encode(pathA.slot.block!.blockhash));
    expect(BigInt(got!.parentSlot)).toBe(pathA.slot.block!.parentSlot);
    expect(got!.blockTime === null ? undefined : BigInt(got!.blockTime)).toBe(pathA.slot.block!.blockTime);
    expect(got!.rewards ?? []).toHaveLength(pathA.slot.block!.rewards.length);
    expect(got!.transactions).toHaveLength(pathA.transactions.length);
    got!.transactions.forEach((t, i) => {
      const a = pathA.transactions[i]!;
      expect(t.transaction.signatures[0]).toBe(bs58.encode(a.signatures[0]!));
      expect(BigInt(t.meta!.fee)).toBe(a.fee);
      expect((t.meta!.logMessages ?? []).length).toBe(a.logMessages.length);
      expect(t.meta!.err === null ? undefined : JSON.stringify(t.meta!.err)).toBe(a.err);
      expect(t.meta!.postBalances.map(BigInt)).toEqual(a.postBalances);
    });
  });
});
