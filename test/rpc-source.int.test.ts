// `--source rpc` against a local JSON-RPC test server and the real broker of the test run. The chain is the
// simulator's (every transaction-meta field filled), written as ConfirmedBlocks and served as Agave's getBlock
// JSON, with skipped slots of every kind (left out of getBlocks, -32007, -32009) and faults (HTTP 429 with
// Retry-After, a request that never gets an answer, -32004 twice). The expected records are built from the
// ConfirmedBlocks through schemas/yellowstone (not through the rpc converter), framed into slots as the ingest
// publishes them (ingest/publish/framer.ts: each slot's end marker last), and compared per key: every
// key's sequence of record values, in partition order, equals the expected one (behaviour.md, "Equality in tests").
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Connection } from '@solana/web3.js';
import bs58 from 'bs58';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { SlotFramer } from '../ingest/publish/framer.js';
import { createRpcSource } from '../ingest/sources/rpc/source.js';
import { startIngest } from '../ingest/run.js';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import type { SlotBatch } from '../ingest/source.js';
import { flagOf, makeConfig, type Config } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { SlotStatus, type ChainEvent, type SlotEvent } from '../schemas/codec.js';
import { topicNames, RECORD_KINDS } from '../schemas/topics.js';
import { blockFromConfirmedBlock, blockToConfirmedBlock } from '../schemas/yellowstone/index.js';
import type { ConfirmedBlock } from '../schemas/yellowstone/storage.js';
import { testBrokers, uniquePrefix } from './support/harness/kafka.js';
import { waitForSlotRecords } from './support/ingest/wait-published.js';
import { readTopics } from './support/kafka/read-topics.js';
import { startTestRpcServer, testLeaderOf, type Fault, type TestRpcServer, type TestSlot } from './support/rpc/test-server.js';
import { ingestSection } from '../cli/config-sections.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'ingest', 'child.ts');
const SLOTS_PER_EPOCH = 32;
const identities = [1, 2, 3].map((i) => Buffer.alloc(32, i));
const schedule = { identities, slotsPerEpoch: SLOTS_PER_EPOCH };
const FROM = 2;

interface Chain {
  blocks: Map<number, ConfirmedBlock>;
  last: number;
}

/** The simulator's produced blocks as ConfirmedBlocks, by slot. */
async function simChain(maxSlots: number): Promise<Chain> {
  const sim = createSimSource({
    ...DEFAULT_SIM_OPTIONS,
    seed: 11,
    slotMs: 0,
    tps: 40,
    skipRate: 0.12,
    slotsPerEpoch: 64,
    validators: 4,
    fast: true,
    maxSlots,
  });
  const blocks = new Map<number, ConfirmedBlock>();
  for await (const b of sim.batches({})) {
    const processed = b.events.find(
      (e) => e.kind === 'slots' && e.event.slot === b.slot && e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block,
    );
    if (!processed) continue;
    const txs = b.events.filter((e) => e.kind === 'transactions').map((e) => e.event);
    blocks.set(Number(b.slot), blockToConfirmedBlock({ slot: processed.event as SlotEvent, transactions: txs }));
  }
  return { blocks, last: maxSlots - 1 };
}

const slotRecord = (slot: number, status: SlotStatus): ChainEvent => ({
  kind: 'slots',
  event: { slot: BigInt(slot), status, block: undefined, deadError: undefined, gap: undefined, parent: undefined },
});

/** The epoch record of the server's schedule, built by hand: identities in order of first run led. */
function epochRecord(epoch: number): ChainEvent {
  const ids: Buffer[] = [];
  const runs: number[] = [];
  for (let r = 0; r < SLOTS_PER_EPOCH / 4; r++) {
    const id = testLeaderOf(schedule, epoch * SLOTS_PER_EPOCH + r * 4);
    let k = ids.findIndex((x) => x.equals(id));
    if (k < 0) k = ids.push(id) - 1;
    runs.push(k);
  }
  return {
    kind: 'epochs',
    event: {
      epoch: BigInt(epoch),
      firstSlot: BigInt(epoch * SLOTS_PER_EPOCH),
      slotsPerEpoch: BigInt(SLOTS_PER_EPOCH),
      slotsPerLeader: 4,
      identities: ids,
      schedule: runs,
    },
  };
}

/** What a bounded (finalized) run over [from, to] hands over, one batch per slot; `gaps`: slots expected as gap records. */
function expectedEvents(chain: Chain, from: number, to: number, gaps: ReadonlyMap<number, string> = new Map()): SlotBatch[] {
  const batches: SlotBatch[] = [];
  for (let s = from; s <= to; s++) {
    const out: ChainEvent[] = [];
    batches.push({ slot: BigInt(s), events: out });
    if (s === from || s % SLOTS_PER_EPOCH === 0) out.push(epochRecord(Math.floor(s / SLOTS_PER_EPOCH)));
    const reason = gaps.get(s);
    if (reason !== undefined) {
      out.push({
        kind: 'slots',
        event: {
          ...(slotRecord(s, SlotStatus.SLOT_STATUS_GAP).event as SlotEvent),
          gap: { firstSlot: BigInt(s), lastSlot: BigInt(s), reason },
        },
      });
      continue;
    }
    const b = chain.blocks.get(s);
    if (!b) {
      out.push(slotRecord(s, SlotStatus.SLOT_STATUS_SKIPPED));
      continue;
    }
    const a = blockFromConfirmedBlock(BigInt(s), b, testLeaderOf(schedule, s));
    out.push(
      { kind: 'slots', event: a.slot },
      slotRecord(s, SlotStatus.SLOT_STATUS_CONFIRMED),
      slotRecord(s, SlotStatus.SLOT_STATUS_FINALIZED),
    );
    for (const t of a.transactions) out.push({ kind: 'transactions', event: t });
  }
  return batches;
}

type ByKey = Map<string, string[]>;

/** The records Kafka must hold: the expected batches as slot framing (ingest/publish/framer.ts) publishes them, each
 * slot's own processed or skipped record last with its per-partition counts (3 partitions, as rpcConfig). */
function expectedByKey(batches: SlotBatch[]): ByKey {
  const framer = new SlotFramer(new Map(RECORD_KINDS.map((k) => [k, 3])), topicNames('expected'));
  const m: ByKey = new Map();
  for (const b of batches) {
    for (const r of framer.frame(b)) {
      const k = `${r.kind}/${r.key.toString('hex')}`;
      m.set(k, [...(m.get(k) ?? []), r.value.toString('hex')]);
    }
  }
  return m;
}

async function gotByKey(kafka: Kafka, prefix: string): Promise<ByKey> {
  const names = topicNames(prefix);
  const kinds = RECORD_KINDS;
  const contents = await readTopics(
    kafka,
    kinds.map((k) => names[k]),
  );
  const m: ByKey = new Map();
  for (const kind of kinds) {
    for (const part of contents.get(names[kind])!) {
      for (const r of part) {
        const k = `${kind}/${r.key.toString('hex')}`;
        m.set(k, [...(m.get(k) ?? []), r.value.toString('hex')]);
      }
    }
  }
  return m;
}

function difference(got: ByKey, want: ByKey): string | undefined {
  for (const [k, v] of want) {
    const g = got.get(k) ?? [];
    if (g.length !== v.length) return `${k}: ${g.length} records, expected ${v.length}`;
    const i = g.findIndex((x, j) => x !== v[j]);
    if (i >= 0) return `${k}: record ${i} differs`;
  }
  for (const k of got.keys()) if (!want.has(k)) return `${k}: not expected`;
  return undefined;
}

function captureLog(): { log: Logger; entries: Record<string, unknown>[] } {
  const entries: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) entries.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, sink), entries };
}

function rpcConfig(prefix: string, url: string, to: number, over: Partial<Omit<Config, 'role'>> = {}): Config {
  return makeConfig('ingest', {
    source: 'rpc',
    rpcUrl: url,
    fromSlot: FROM,
    toSlot: to,
    rpcConcurrency: 4,
    rpcTimeoutMs: 1000,
    rpcPollMs: 50,
    kafkaBrokers: testBrokers(),
    topicPrefix: prefix,
    partitions: 3,
    retentionMs: 3_600_000,
    ...over,
  });
}

let kafka: Kafka;
let chain: Chain;
const servers: TestRpcServer[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'rpc-source-int-test' });
  chain = await simChain(150);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of servers) await s.close();
  await kafka?.close();
});

async function serve(
  slots: Map<number, TestSlot>,
  opts: { faults?: Fault[]; getBlockDelayMs?: number; tip?: number } = {},
): Promise<TestRpcServer> {
  const { tip = chain.last, ...rest } = opts;
  const s = await startTestRpcServer({
    slots,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    identities,
    tip: { confirmed: tip, finalized: tip },
    ...rest,
  });
  servers.push(s);
  return s;
}

const blockSlots = (c: Chain): Map<number, TestSlot> => new Map([...c.blocks].map(([s, block]) => [s, { kind: 'block', block }]));

describe('--source rpc into Kafka', () => {
  it('publishes exactly the expected records through skipped slots, 429 with Retry-After, a timeout, -32004 and other errors', async () => {
    const to = 60;
    const produced = [...chain.blocks.keys()].filter((s) => s >= FROM && s <= to).sort((a, b) => a - b);
    const skipped = Array.from({ length: to - FROM + 1 }, (_, i) => FROM + i).filter((s) => !chain.blocks.has(s));
    expect(skipped.length).toBeGreaterThanOrEqual(3);
    const slots = blockSlots(chain);
    slots.set(skipped[0]!, { kind: 'listed-skipped', code: -32009 });
    slots.set(skipped[1]!, { kind: 'listed-skipped', code: -32007 });
    const [s429, sHang, s4, sErr, sBad] = [produced[2]!, produced[5]!, produced[8]!, produced[11]!, produced[14]!];
    const server = await serve(slots, {
      getBlockDelayMs: 20,
      faults: [
        { method: 'getBlock', slot: s429, times: 1, what: { http429: { retryAfterSeconds: 1 } } },
        { method: 'getBlock', slot: sHang, times: 1, what: { hang: true } },
        { method: 'getBlock', slot: s4, times: 2, what: { rpcError: -32004 } },
        { method: 'getBlock', slot: sErr, times: 2, what: { rpcError: -32603 } },
        { method: 'getBlock', slot: sBad, times: 5, what: { rpcError: -32603 } },
      ],
    });
    const prefix = uniquePrefix('rpc-faults');
    // A 5 s request timeout: only the hanging request may time out. With 1 s, a loaded machine (a suite beside a running
    // service) stalled an answer past it now and then, and the retry added a request to the exact sequences below.
    const cfg = rpcConfig(prefix, server.url, to, { rpcTimeoutMs: 5000 });
    const { log, entries } = captureLog();
    const infra = await connectKafka(cfg, log);
    try {
      await (
        await startIngest(ingestSection(cfg), log, infra)
      ).done;
    } finally {
      await infra.kafka.close();
    }
    const gapReason = 'getBlock failed 5 times: getBlock: -32603 injected';
    expect(
      difference(await gotByKey(kafka, prefix), expectedByKey(expectedEvents(chain, FROM, to, new Map([[sBad, gapReason]])))),
    ).toBeUndefined();

    // The faults happened and were handled as they should be.
    const reqs = (slot: number) => server.requests.filter((r) => r.method === 'getBlock' && r.params[0] === slot);
    const r429 = reqs(s429);
    expect(r429.map((r) => r.answer)).toEqual(['429', 'ok']);
    expect(r429[1]!.at - r429[0]!.at).toBeGreaterThanOrEqual(950);
    expect(reqs(sHang).map((r) => r.answer)).toEqual(['hang', 'ok']);
    expect(reqs(s4).map((r) => r.answer)).toEqual(['-32004', '-32004', 'ok']);
    expect(reqs(skipped[0]!).map((r) => r.answer)).toEqual(['-32009']);
    expect(reqs(sErr).map((r) => r.answer)).toEqual(['-32603', '-32603', 'ok']);
    expect(reqs(sBad).map((r) => r.answer)).toEqual(Array(5).fill('-32603'));
    expect(server.maxConcurrentGetBlock).toBeGreaterThan(1);
    expect(server.maxConcurrentGetBlock).toBeLessThanOrEqual(4);
    // Logs name slot and reason for what was skipped and retried.
    const msgs = entries.map((e) => e.msg as string);
    expect(msgs).toContain(
      `rpc source: slot ${skipped[0]} skipped (getBlock -32009: getBlock: -32009 Slot ${skipped[0]} was skipped, or missing in long-term storage)`,
    );
    expect(msgs).toContain(`rpc source: slot ${skipped[2]} skipped (not in getBlocks)`);
    expect(msgs.some((m) => m.startsWith('rpc source: getBlock failed (HTTP 429), retrying in 1000 ms'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('rpc source: getBlock failed (timed out after 5000 ms)'))).toBe(true);
    expect(msgs).toContain(`rpc source: block ${s4} not available yet (-32004), retrying`);
    expect(msgs).toContain(`rpc source: slot ${sBad} not published: ${gapReason}; a gap record names it`);
    expect(msgs.some((m) => m.startsWith('rpc source: rpc source: no account stream') || m.includes('no account stream'))).toBe(true);
  });

  it('continues after SIGKILL mid-backfill with nothing lost or duplicated', async () => {
    const to = chain.last;
    const server = await serve(blockSlots(chain), { getBlockDelayMs: 60 });
    const prefix = uniquePrefix('rpc-restart');
    const cfg = rpcConfig(prefix, server.url, to, { rpcConcurrency: 2 });
    const child = (): { proc: ChildProcess; exited: Promise<number | null>; stderr: () => string } => {
      const args: string[] = [];
      for (const name of [
        'source',
        'rpcUrl',
        'fromSlot',
        'toSlot',
        'rpcConcurrency',
        'rpcTimeoutMs',
        'kafkaBrokers',
        'topicPrefix',
        'partitions',
        'retentionMs',
      ] as const) {
        const v = cfg[name];
        args.push(flagOf(name), Array.isArray(v) ? v.join(',') : String(v));
      }
      let err = '';
      const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(proc);
      proc.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
      return { proc, exited: new Promise((res) => proc.once('exit', (code) => res(code))), stderr: () => err };
    };

    const first = child();
    await waitForSlotRecords(kafka, prefix, first, 90, 'the first ingest to publish ~30 slots');
    expect(first.proc.kill('SIGKILL')).toBe(true);
    expect(await first.exited).toBeNull();
    const partial = await gotByKey(kafka, prefix);
    const slotsBefore = [...partial.keys()].filter((k) => k.startsWith('slots/')).length;
    expect(slotsBefore).toBeLessThan(to - FROM + 1);

    const second = child();
    expect(await second.exited, second.stderr()).toBe(0);
    expect(second.stderr()).toMatch(/resuming after slot \d+/);
    expect(difference(await gotByKey(kafka, prefix), expectedByKey(expectedEvents(chain, FROM, to)))).toBeUndefined();
  });
});

describe('the test server, read by a real client', () => {
  it("@solana/web3.js's Connection.getBlock accepts every block, v0 transactions with lookups included", async () => {
    const server = await serve(blockSlots(chain));
    const conn = new Connection(server.url, 'confirmed');
    let v0 = 0;
    for (const [slot, block] of [...chain.blocks].slice(0, 40)) {
      const got = await conn.getBlock(slot, { maxSupportedTransactionVersion: 0, rewards: true });
      const a = blockFromConfirmedBlock(BigInt(slot), block, testLeaderOf(schedule, slot));
      expect(got!.blockhash).toBe(bs58.encode(a.slot.block!.blockhash));
      expect(got!.transactions).toHaveLength(a.transactions.length);
      got!.transactions.forEach((t, i) => {
        const e = a.transactions[i]!;
        expect(t.transaction.signatures).toEqual(e.signatures.map((x) => bs58.encode(x)));
        expect(t.version).toBe(e.versioned ? 0 : 'legacy');
        if (e.versioned) {
          v0++;
          expect(t.meta!.loadedAddresses!.writable.map((k) => k.toBase58())).toEqual(e.loadedWritable.map((x) => bs58.encode(x)));
          expect(t.meta!.loadedAddresses!.readonly.map((k) => k.toBase58())).toEqual(e.loadedReadonly.map((x) => bs58.encode(x)));
          expect(t.transaction.message.addressTableLookups).toHaveLength(e.addressTableLookups.length);
        }
        expect(BigInt(t.meta!.fee)).toBe(e.fee);
        expect(t.meta!.preTokenBalances ?? []).toHaveLength(e.preTokenBalances.length);
        expect((t.meta!.innerInstructions ?? []).length).toBe(e.innerInstructions.length);
      });
    }
    expect(v0).toBeGreaterThan(0);
  });
});

describe('--source rpc and what the topics hold', () => {
  const run = async (server: TestRpcServer, fromSlot: bigint, toSlot: bigint, afterSlot: bigint): Promise<SlotBatch[]> => {
    const source = createRpcSource({
      url: server.url,
      fromSlot,
      toSlot,
      concurrency: 2,
      timeoutMs: 2000,
      pollMs: 20,
      log: pino({ level: 'silent' }),
    });
    const out: SlotBatch[] = [];
    for await (const b of source.batches({ afterSlot })) out.push(b);
    return out;
  };

  it('never goes back before the newest slot in the topics, and names the slots a later --from-slot leaves out', async () => {
    const server = await serve(blockSlots(chain));
    expect((await run(server, 10n, 22n, 20n)).map((b) => b.slot)).toEqual([21n, 22n]);
    const ahead = await run(server, 30n, 32n, 20n);
    expect(ahead.map((b) => b.slot)).toEqual([21n, 30n, 31n, 32n]);
    expect(ahead[0]!.events).toMatchObject([
      { kind: 'slots', event: { slot: 21n, status: SlotStatus.SLOT_STATUS_GAP, gap: { firstSlot: 21n, lastSlot: 29n } } },
    ]);
    // Slot 32 starts epoch 1 (32 slots an epoch): its record comes first in that slot's batch, once.
    expect(ahead.flatMap((b) => b.events.filter((e) => e.kind === 'epochs').map((e) => [b.slot, e.event.epoch]))).toEqual([[32n, 1n]]);
  });
});

describe('--source rpc at the tip', () => {
  it('follows the confirmed tip and publishes finalized (or dead) records as the node roots the blocks', async () => {
    const produced = [...chain.blocks.keys()].filter((s) => s >= 40 && s <= 60).sort((a, b) => a - b);
    const slots = blockSlots(chain);
    // A confirmed block that never roots: after it is published, the node's rooted chain leaves it out.
    const orphan = produced[3]!;
    const server = await serve(slots, { tip: 0 });
    server.tip.confirmed = 50;
    server.tip.finalized = 40;
    const ac = new AbortController();
    const tips: [bigint, bigint | undefined][] = [];
    const source = createRpcSource({
      url: server.url,
      fromSlot: 40n,
      concurrency: 3,
      timeoutMs: 2000,
      pollMs: 20,
      log: pino({ level: 'silent' }),
      onTip: (tip, last) => tips.push([tip, last]),
    });
    const batches: SlotBatch[] = [];
    const it = source.batches({ signal: ac.signal })[Symbol.asyncIterator]();
    const nextBatch = async (): Promise<SlotBatch> => {
      const r = await it.next();
      if (r.done) throw new Error('source ended');
      batches.push(r.value);
      return r.value;
    };
    while ((await nextBatch()).slot < 50n);
    // Roots advance to 50 with the orphan gone; the tip moves on to 55.
    slots.delete(orphan);
    server.tip.finalized = 50;
    server.tip.confirmed = 55;
    while ((await nextBatch()).slot < 55n);
    ac.abort();
    expect((await it.next()).done).toBe(true);

    expect(batches.map((b) => Number(b.slot))).toEqual(Array.from({ length: 16 }, (_, i) => 40 + i));
    // The lag the metrics show: the tip moved to 55 while 50 was the last slot handed out.
    expect(tips).toContainEqual([55n, 50n]);
    const statuses = batches.flatMap((b) =>
      b.events.filter((e) => e.kind === 'slots').map((e) => [Number(b.slot), Number(e.event.slot), e.event.status]),
    );
    const of = (status: SlotStatus) => statuses.filter((s) => s[2] === status);
    // Slot 40 was rooted when fetched: all three at once. 41-50 (produced) finalized later, in a batch after 50.
    const producedTo50 = produced.filter((s) => s <= 50);
    expect(of(SlotStatus.SLOT_STATUS_FINALIZED).map((s) => s[1])).toEqual(producedTo50.filter((s) => s !== orphan));
    for (const [inBatch = -1, slot] of of(SlotStatus.SLOT_STATUS_FINALIZED)) expect(slot === 40 ? inBatch === 40 : inBatch > 50).toBe(true);
    expect(of(SlotStatus.SLOT_STATUS_DEAD).map((s) => s[1])).toEqual([orphan]);
    expect(of(SlotStatus.SLOT_STATUS_CONFIRMED).map((s) => s[1])).toEqual(produced.filter((s) => s <= 55));
    // Processed and confirmed records travel with their own slot.
    for (const [inBatch, slot, st] of statuses)
      if (st === SlotStatus.SLOT_STATUS_PROCESSED || st === SlotStatus.SLOT_STATUS_CONFIRMED) expect(inBatch).toBe(slot);

    // A restart after slot 55 (what Kafka holds): the blocks of 51-55, not rooted yet, still get their finalized record.
    server.tip.confirmed = 56;
    const again = createRpcSource({ url: server.url, concurrency: 3, timeoutMs: 2000, pollMs: 20, log: pino({ level: 'silent' }) });
    const ac2 = new AbortController();
    const it2 = again.batches({ afterSlot: 55n, signal: ac2.signal })[Symbol.asyncIterator]();
    const after: SlotBatch[] = [];
    for (;;) {
      const r = await it2.next();
      if (r.done) throw new Error('source ended');
      after.push(r.value);
      if (r.value.slot === 56n) {
        server.tip.finalized = 56;
        server.tip.confirmed = 58;
      }
      if (r.value.slot >= 58n) break;
    }
    ac2.abort();
    await it2.next();
    expect(after.map((b) => Number(b.slot))).toEqual([56, 57, 58]);
    const finalizedAfter = after.flatMap((b) =>
      b.events.flatMap((e) => (e.kind === 'slots' && e.event.status === SlotStatus.SLOT_STATUS_FINALIZED ? [Number(e.event.slot)] : [])),
    );
    expect(finalizedAfter).toEqual(produced.filter((s) => s > 50 && s <= 56));
  });
});
