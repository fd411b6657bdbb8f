// --source rpc operations against the local JSON-RPC test server (a simulated chain rendered as Agave's
// getBlock answers), real broker:
//   - a transaction the conversion rejects goes to <prefix>.deadletter.v1 (its getBlock JSON, reason, topic,
//     slot and signature) and its block goes on without it; a block whose meta cannot be read becomes a gap
//     record and a dead letter;
//   - --rpc-snapshot-programs: getProgramAccounts of each program as is_startup writes at the answer's slot,
//     an unconvertible entry dead-lettered;
//   - following the tip: lag 0 and /health ok when caught up, `behind` when the node's tip stops, ok again
//     when it moves on.
import bs58 from 'bs58';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { startIngest, type IngestHandle } from '../ingest/run.js';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import { makeConfig, type Config } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { registry, startMetricsServer, type MetricsServer } from '../platform/metrics.js';
import { decodeRecord, SlotStatus, type AccountEvent, type SlotEvent, type TransactionEvent } from '../schemas/codec.js';
import { readU64Key, topicNames } from '../schemas/topics.js';
import { blockToConfirmedBlock } from '../schemas/yellowstone/index.js';
import type { ConfirmedBlock } from '../schemas/yellowstone/storage.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { readTopics } from './support/kafka/read-topics.js';
import { startTestRpcServer, type TestRpcServer, type TestSlot } from './support/rpc/test-server.js';
import { ingestSection } from '../cli/config-sections.js';

const silent = pino({ level: 'silent' });
const identities = [1, 2, 3].map((i) => Buffer.alloc(32, i));
const PROGRAM_A = bs58.encode(Buffer.alloc(32, 0xa1));
const PROGRAM_B = bs58.encode(Buffer.alloc(32, 0xb2));

const gauge = async (name: string): Promise<number> => Number((await registry.getSingleMetric(name)?.get())?.values[0]?.value ?? NaN);

let kafka: Kafka;
let metrics: MetricsServer;
let blocks: Map<number, ConfirmedBlock>;
const servers: TestRpcServer[] = [];
const handles: IngestHandle[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'rpc-operations-test' });
  metrics = await startMetricsServer('127.0.0.1', 0);
  const sim = createSimSource({
    ...DEFAULT_SIM_OPTIONS,
    seed: 21,
    slotMs: 0,
    tps: 40,
    skipRate: 0.1,
    deadRate: 0,
    slotsPerEpoch: 64,
    validators: 4,
    fast: true,
    maxSlots: 80,
  });
  blocks = new Map();
  for await (const b of sim.batches({})) {
    const processed = b.events.find(
      (e) => e.kind === 'slots' && e.event.slot === b.slot && e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block,
    );
    if (!processed) continue;
    const txs = b.events.filter((e) => e.kind === 'transactions').map((e) => e.event);
    blocks.set(Number(b.slot), blockToConfirmedBlock({ slot: processed.event as SlotEvent, transactions: txs }));
  }
});

afterAll(async () => {
  for (const h of handles) await h.stop();
  for (const c of closers) await c();
  for (const s of servers) await s.close();
  await metrics?.close();
  await kafka?.close();
});

async function ingest(cfg: Config): Promise<IngestHandle> {
  const infra = await connectKafka(cfg, silent);
  closers.push(() => infra.kafka.close());
  const h = await startIngest(ingestSection(cfg), silent, infra);
  handles.push(h);
  return h;
}

const config = (prefix: string, url: string, over: Partial<Omit<Config, 'role'>>): Config =>
  makeConfig('ingest', {
    source: 'rpc',
    rpcUrl: url,
    rpcConcurrency: 3,
    rpcTimeoutMs: 2000,
    rpcPollMs: 50,
    kafkaBrokers: testBrokers(),
    topicPrefix: prefix,
    partitions: 2,
    retentionMs: 3_600_000,
    ...over,
  });

const health = async (): Promise<string> => (await fetch(`http://127.0.0.1:${metrics.port}/health`)).text();

describe('--source rpc: dead letters and the getProgramAccounts snapshot', () => {
  it("dead-letters what it cannot convert, goes on, and publishes the listed programs' accounts as is_startup writes", async () => {
    const produced = [...blocks.keys()].filter((s) => s >= 2 && s <= 60).sort((a, b) => a - b);
    const txSlot = produced.find((s) => s >= 10 && blocks.get(s)!.transactions.length >= 3)!;
    const badBlockSlot = produced.find((s) => s > txSlot + 5 && blocks.get(s)!.rewards.length > 0)!;
    expect(badBlockSlot).toBeDefined();
    const slots = new Map<number, TestSlot>([...blocks].map(([s, block]) => [s, { kind: 'block', block }]));
    // The second transaction of txSlot loses its meta; badBlockSlot's first reward gets a type Agave does not have.
    slots.set(txSlot, { kind: 'block', block: blocks.get(txSlot)!, mangle: (a) => void (a.transactions[1]!.meta = null) });
    slots.set(badBlockSlot, { kind: 'block', block: blocks.get(badBlockSlot)!, mangle: (a) => void (a.rewards![0]!.rewardType = 'Bogus') });
    const account = (
      fill: number,
      owner: string,
      lamports: number,
      data: unknown = [Buffer.alloc(5, fill).toString('base64'), 'base64'],
    ) => ({
      pubkey: bs58.encode(Buffer.alloc(32, fill)),
      account: { lamports, owner, data, executable: false, rentEpoch: '18446744073709551615', space: 5 },
    });
    const programAccounts = new Map([
      [PROGRAM_A, { slot: 30, accounts: [account(1, PROGRAM_A, 1_000), account(2, PROGRAM_A, 2_000)] }],
      [PROGRAM_B, { slot: 31, accounts: [account(3, PROGRAM_B, 3_000), account(4, PROGRAM_B, 4_000, 'not base64 pair')] }],
    ]);
    const server = await startTestRpcServer({
      slots,
      slotsPerEpoch: 32,
      identities,
      tip: { confirmed: 60, finalized: 60 },
      programAccounts,
    });
    servers.push(server);

    const prefix = uniquePrefix('rpc-ops');
    const h = await ingest(config(prefix, server.url, { fromSlot: 2, toSlot: 60, rpcSnapshotPrograms: [PROGRAM_A, PROGRAM_B] }));
    await h.done;
    expect(await lastPublishedSlot(kafka, topicNames(prefix))).toBe(60n);

    const t = topicNames(prefix);
    const c = await readTopics(kafka, [t.deadletter, t.transactions, t.accounts, t.slots]);
    const dead = c.get(t.deadletter)!.flat();
    expect(dead.map((d) => d.headers!['slotstream-topic']).sort()).toEqual([t.accounts, t.slots, t.transactions].sort());

    const txDead = dead.find((d) => d.headers!['slotstream-topic'] === t.transactions)!;
    const sig = bs58.encode(blocks.get(txSlot)!.transactions[1]!.transaction!.signatures[0]!);
    expect(readU64Key(txDead.key)).toBe(BigInt(txSlot));
    expect(txDead.headers).toMatchObject({
      'slotstream-reason': `unconvertible: transaction ${txSlot}/1: no meta`,
      'slotstream-slot': String(txSlot),
      'slotstream-signature': sig,
    });
    expect(JSON.parse(txDead.value.toString()).meta).toBeNull();

    const blockDead = dead.find((d) => d.headers!['slotstream-topic'] === t.slots)!;
    expect(blockDead.headers!['slotstream-reason']).toMatch(
      new RegExp(`^unconvertible: block ${badBlockSlot}: reward of .*: unknown rewardType "Bogus"$`),
    );
    expect((JSON.parse(blockDead.value.toString()) as { rewards: { rewardType: string }[] }).rewards[0]!.rewardType).toBe('Bogus');

    const accountDead = dead.find((d) => d.headers!['slotstream-topic'] === t.accounts)!;
    expect(accountDead.headers!['slotstream-reason']).toMatch(/^unconvertible: account .*: expected data \[bytes, "base64"\]/);
    expect(accountDead.headers!['slotstream-slot']).toBe('31');

    const decode = <T>(kind: 'transactions' | 'accounts' | 'slots', v: Buffer): T => {
      const d = decodeRecord(kind, v);
      if (!d.ok) throw new Error(d.reason);
      return d.value.event as T;
    };
    // The transaction's block went on without it; its block meta still counts the block's transactions.
    const txs = c
      .get(t.transactions)!
      .flat()
      .map((r) => decode<TransactionEvent>('transactions', r.value));
    const inTxSlot = txs
      .filter((x) => Number(x.slot) === txSlot)
      .map((x) => x.index)
      .sort((a, b) => a - b);
    const all = blocks.get(txSlot)!.transactions.map((_, i) => i);
    expect(inTxSlot).toEqual(all.filter((i) => i !== 1));
    const slotRecords = c
      .get(t.slots)!
      .flat()
      .map((r) => decode<SlotEvent>('slots', r.value));
    const meta = slotRecords.find((s) => Number(s.slot) === txSlot && s.status === SlotStatus.SLOT_STATUS_PROCESSED)!.block!;
    expect(meta.transactionCount).toBe(all.length);
    // The unreadable block: a gap record naming it, no processed record.
    expect(slotRecords.filter((s) => Number(s.slot) === badBlockSlot).map((s) => s.status)).toEqual([SlotStatus.SLOT_STATUS_GAP]);

    // The snapshot: the three convertible accounts, is_startup, at the newest answer's slot (31).
    const accounts = c
      .get(t.accounts)!
      .flat()
      .map((r) => decode<AccountEvent>('accounts', r.value));
    expect(
      accounts
        .map((a) => ({ pubkey: bs58.encode(a.pubkey), lamports: a.lamports, slot: a.slot, isStartup: a.isStartup, rentEpoch: a.rentEpoch }))
        .sort((a, b) => Number(a.lamports - b.lamports)),
    ).toEqual(
      [1, 2, 3].map((fill) => ({
        pubkey: bs58.encode(Buffer.alloc(32, fill)),
        lamports: BigInt(fill * 1000),
        slot: 31n,
        isStartup: true,
        rentEpoch: 18446744073709551615n,
      })),
    );
    expect(Buffer.from(accounts[0]!.data)).toEqual(Buffer.alloc(5, Number(accounts[0]!.lamports / 1000n)));
    expect(server.requests.filter((r) => r.method === 'getProgramAccounts').map((r) => r.params[0])).toEqual([PROGRAM_A, PROGRAM_B]);
  });
});

describe('--source rpc: lag and /health', () => {
  it("is ok when caught up, behind when the node's tip stops moving, and ok again when it moves on", async () => {
    const slots = new Map<number, TestSlot>([...blocks].map(([s, block]) => [s, { kind: 'block', block }]));
    const server = await startTestRpcServer({ slots, slotsPerEpoch: 32, identities, tip: { confirmed: 45, finalized: 40 } });
    servers.push(server);
    const prefix = uniquePrefix('rpc-lag');
    const h = await ingest(config(prefix, server.url, { fromSlot: 40, ingestStallMs: 4_000, ingestMaxLagSlots: 3 }));
    const last = () => lastPublishedSlot(kafka, topicNames(prefix));
    await waitFor(async () => (await last()) === 45n, { what: 'slot 45 in Kafka', timeoutMs: 300_000, intervalMs: 100 });
    // The tip moves on (a live node): caught up again within the stall limit, /health ok, nothing behind.
    server.tip.confirmed = 50;
    server.tip.finalized = 45;
    await waitFor(async () => (await last()) === 50n, { what: 'slot 50 in Kafka', timeoutMs: 300_000, intervalMs: 50 });
    expect(await health()).toBe('ok');
    await waitFor(async () => (await gauge('slotstream_ingest_lag_slots')) === 0 && (await gauge('slotstream_ingest_lag_ms')) === 0, {
      what: 'lag gauges at 0',
      timeoutMs: 300_000,
    });
    // The node's tip stays at 50: after 4 s the upstream counts as stalled.
    await waitFor(async () => (await health()) === 'behind', { what: '/health behind', timeoutMs: 300_000, intervalMs: 100 });
    expect(await gauge('slotstream_ingest_behind')).toBe(1);
    server.tip.confirmed = 58;
    server.tip.finalized = 50;
    await waitFor(async () => (await last()) === 58n, { what: 'slot 58 in Kafka', timeoutMs: 300_000, intervalMs: 100 });
    await waitFor(async () => (await health()) === 'ok', { what: '/health ok again', timeoutMs: 300_000, intervalMs: 100 });
    await h.stop();
  });
});
