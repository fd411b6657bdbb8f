// A from_slot replay delivers everything its filters match for every slot it covers (issue 32 item 7), on both
// services, at each commitment level, bounded (to_slot) and unbounded (through the hand-over to live): compared,
// update by update and filter name by filter name, with a live stream of the same filters and level that was open
// before the chain was published. Every geyser.Geyser filter kind is in one request (slots, accounts,
// transactions, transactions_status, entry, blocks with accounts and entries, blocks_meta), through the real
// @triton-one/yellowstone-grpc client; stream.Stream's (transactions, accounts) through grpc-js on stream.proto.
// The chain: 2 partitions a topic, framed by the ingest's own framer, enough account data a slot that the replay's
// reader serves the data topics far ahead of the slots topic (what lost a replay's first blocks), confirmations one
// slot behind and finalizations three behind, as on a real chain.
import { randomBytes } from 'node:crypto';
import type { SubscribeUpdate } from '@triton-one/yellowstone-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { SlotEvent, SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { cursorsTopic, RECORD_KINDS, topicNames, type RecordKind } from '../../schemas/topics.js';
import { SlotFramer } from '../../ingest/publish/framer.js';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../../test/support/geyser/client.js';
import {
  accountEvent,
  b58,
  key,
  newClient,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
  type Recorder,
} from '../../test/support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from '../../test/support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';

const A = key();
const OWNER = key();
const FIRST = 100n;
const HISTORY_END = 219n; // published before any replay
const LIVE_END = 239n; // published while the unbounded replays run
const FROM = 130n;
const TO = 190n;
const LEVELS = [0, 1, 2] as const; // processed, confirmed, finalized
const LEVEL_NAMES = ['PROCESSED', 'CONFIRMED', 'FINALIZED'] as const;
const hex = (b: Uint8Array | Buffer) => Buffer.from(b).toString('hex');

/** One slot's run as a source hands it (data, then its processed record with the block meta): the framer adds the
 * end marker's counts. 8 transactions (3 name A), 24 account writes (12 owned by OWNER, 400 bytes each), 2 entries. */
function slotRun(slot: bigint): ChainEvent[] {
  const out: ChainEvent[] = [];
  for (let i = 0; i < 8; i++) out.push({ kind: 'transactions', event: txEvent(slot, i % 3 === 0 ? [A, key()] : [key()], { index: i }) });
  for (let i = 0; i < 24; i++)
    out.push({
      kind: 'accounts',
      event: accountEvent(slot, key(), i % 2 === 0 ? OWNER : key(), randomBytes(400), { writeVersion: slot * 1000n + BigInt(i) }),
    });
  for (let i = 0n; i < 2n; i++)
    out.push({
      kind: 'entries',
      event: { slot, index: i, numHashes: 1n, hash: randomBytes(32), executedTransactionCount: 4n, startingTransactionIndex: i * 4n },
    });
  out.push({
    kind: 'slots',
    event: SlotEvent.fromPartial({
      slot,
      parent: slot - 1n,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: slot - 1n,
        blockhash: randomBytes(32),
        blockHeight: slot,
        blockTime: 1_700_000_000n,
        leader: randomBytes(32),
        transactionCount: 8,
        executedTransactionCount: 8n,
        entryCount: 2n,
        previousBlockhash: randomBytes(32),
      },
    }),
  });
  return out;
}

const status = (slot: bigint, st: number): ChainEvent => ({ kind: 'slots', event: SlotEvent.fromPartial({ slot, status: st }) });

/** Slots from..to, each with the confirmation of the slot before it and the finalization of the third before. */
function chain(from: bigint, to: bigint): ChainEvent[] {
  const out: ChainEvent[] = [];
  for (let s = from; s <= to; s++) {
    out.push(...slotRun(s));
    if (s - 1n >= FIRST) out.push(status(s - 1n, SlotStatus.SLOT_STATUS_CONFIRMED));
    if (s - 3n >= FIRST) out.push(status(s - 3n, SlotStatus.SLOT_STATUS_FINALIZED));
  }
  return out;
}

/** The last slots' later levels, so every slot of the chain reaches finalized. */
function tail(last: bigint): ChainEvent[] {
  return [
    status(last, SlotStatus.SLOT_STATUS_CONFIRMED),
    status(last - 2n, SlotStatus.SLOT_STATUS_FINALIZED),
    status(last - 1n, SlotStatus.SLOT_STATUS_FINALIZED),
    status(last, SlotStatus.SLOT_STATUS_FINALIZED),
  ];
}

/** An update as one comparable line: its kind, slot, identity and filter names; undefined for pings and pongs. */
function geyserKey(u: SubscribeUpdate): { slot: bigint; line: string } | undefined {
  const names = [...u.filters].sort().join(',');
  const at = (slot: string | number, line: string) => ({ slot: BigInt(slot), line: `${line} [${names}]` });
  if (u.account)
    return at(u.account.slot, `account ${u.account.slot} ${hex(u.account.account!.pubkey)} ${u.account.account!.writeVersion}`);
  if (u.transaction) return at(u.transaction.slot, `transaction ${u.transaction.slot} ${hex(u.transaction.transaction!.signature)}`);
  if (u.transactionStatus) return at(u.transactionStatus.slot, `status ${u.transactionStatus.slot} ${hex(u.transactionStatus.signature)}`);
  if (u.slot) return at(u.slot.slot, `slot ${u.slot.slot} ${u.slot.status}`);
  if (u.blockMeta) return at(u.blockMeta.slot, `blockMeta ${u.blockMeta.slot} ${u.blockMeta.blockhash}`);
  if (u.entry) return at(u.entry.slot, `entry ${u.entry.slot} ${u.entry.index}`);
  if (u.block) {
    const b = u.block;
    const txs = b.transactions.map((t) => hex(t.signature)).join(',');
    const accs = b.accounts
      .map((a) => `${hex(a.pubkey)}@${a.writeVersion}`)
      .sort()
      .join(',');
    return at(b.slot, `block ${b.slot} ${b.blockhash} txs=${txs} accounts=${accs} entries=${b.entries.map((e) => e.index).join(',')}`);
  }
  return undefined;
}

function streamKey(u: Msg): { slot: bigint; line: string } | undefined {
  const names = [...(u.filters as string[])].sort().join(',');
  if (u.update_oneof === 'transaction')
    return {
      slot: BigInt(u.transaction.slot),
      line: `transaction ${u.transaction.slot} ${hex(u.transaction.transaction.signature)} [${names}]`,
    };
  if (u.update_oneof === 'account')
    return {
      slot: BigInt(u.account.slot),
      line: `account ${u.account.slot} ${hex(u.account.account.pubkey)} ${u.account.account.write_version} [${names}]`,
    };
  return undefined;
}

/** The lines of updates of slots from..to, sorted; `statusesTo`: slot status updates only up to that slot. */
function lines(keys: ({ slot: bigint; line: string } | undefined)[], from: bigint, to: bigint, statusesTo: bigint = to): string[] {
  return keys
    .filter((k): k is { slot: bigint; line: string } => k !== undefined && k.slot >= from && k.slot <= to)
    .filter((k) => !k.line.startsWith('slot ') || k.slot <= statusesTo)
    .map((k) => k.line)
    .sort();
}

describe('from_slot replays deliver every update their filters match, for every slot they cover', () => {
  const topics = topicNames(uniquePrefix('replay-complete'));
  let kafka: Kafka;
  let pub: TestPublisher;
  let server: TestGrpc;
  let geyser: GeyserClient;
  let client: Msg;
  const geyserStreams: GeyserRecorder[] = [];
  const streams: Recorder[] = [];
  /** Per level: the live streams (open before the chain was published): the truth a replay is compared with. */
  const liveGeyser: GeyserRecorder[] = [];
  const liveStream: Recorder[] = [];
  let streamFilters: Msg;

  const geyserFilters = () =>
    geyserRequest({
      slots: { s: {} },
      accounts: { a: { account: [], owner: [bs(OWNER)], filters: [] } },
      transactions: { t: { accountInclude: [bs(A)], accountExclude: [], accountRequired: [] } },
      transactionsStatus: { ts: { accountInclude: [bs(A)], accountExclude: [], accountRequired: [] } },
      entry: { e: {} },
      blocks: { b: { accountInclude: [], includeTransactions: true, includeAccounts: true, includeEntries: true } },
      blocksMeta: { m: {} },
    });
  let bs: (b: Buffer) => string;

  async function openGeyser(level: number, extra: Partial<ReturnType<typeof geyserRequest>> = {}): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(geyser);
    geyserStreams.push(r);
    r.stream.on('end', () => ended.add(r));
    const base = geyserFilters();
    await r.request({ ...base, ...extra, blocksMeta: { ...base.blocksMeta, ...extra.blocksMeta }, commitment: level });
    return r;
  }

  function openStream(level: number, extra: Msg = {}): Recorder {
    const r = subscribe(client);
    streams.push(r);
    r.send({ ...streamFilters, commitment: LEVEL_NAMES[level], ...extra });
    return r;
  }

  const ended = new Set<GeyserRecorder>();

  beforeAll(async () => {
    bs = (await import('bs58')).default.encode;
    streamFilters = { transactions: { t: { account_include: [await b58(A)] } }, accounts: { a: { owner: [await b58(OWNER)] } } };
    kafka = createKafka({ brokers: testBrokers(), clientId: 'replay-complete-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 60_000,
      queueSize: 1_000_000,
      maxReplays: 16,
      log: silentLogger,
    });
    geyser = await connectGeyser(server.port);
    client = newClient(server.port);
    for (const level of LEVELS) {
      liveGeyser.push(await openGeyser(level));
      liveStream.push(openStream(level));
    }
    // A pong answers after the request before it was applied: the live streams are registered.
    for (const [i, r] of liveStream.entries()) {
      r.send({ ping: { id: i + 1 } });
      await waitFor(() => r.of('pong').some((u) => u.pong.id === i + 1), { what: 'the live stream registered' });
    }
    await pub.publishSlots([...chain(FIRST, HISTORY_END), ...tail(HISTORY_END)]);
    // The truth is in: every live stream has the last slot's finalized status or its last updates.
    for (const r of liveGeyser)
      await waitFor(() => r.of('slot').some((u) => BigInt(u.slot.slot) === HISTORY_END && u.slot.status === 2), {
        what: 'the live geyser streams to hold the history',
        timeoutMs: 300_000,
      });
    const lastTx = (r: Recorder) => r.updates.some((u) => u.update_oneof === 'transaction' && BigInt(u.transaction.slot) === HISTORY_END);
    for (const r of liveStream) await waitFor(() => lastTx(r), { what: 'the live streams to hold the history', timeoutMs: 300_000 });
  });

  afterAll(async () => {
    for (const r of geyserStreams) r.close();
    for (const r of streams) r.cancel();
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka
      ?.admin()
      .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
      .catch(() => undefined);
    await kafka?.close();
  });

  it('the live streams (the truth) hold a block, a block meta and each level of every slot', () => {
    for (const [level, r] of liveGeyser.entries()) {
      const slots = (kind: 'block' | 'blockMeta') => new Set(r.of(kind).map((u) => BigInt(u[kind].slot)));
      expect(slots('block').size, `level ${level}`).toBe(Number(HISTORY_END - FIRST + 1n));
      expect(slots('blockMeta').size, `level ${level}`).toBe(Number(HISTORY_END - FIRST + 1n));
      expect(
        r.of('block').every((u) => u.block.transactions.length === 8 && u.block.accounts.length === 24 && u.block.entries.length === 2),
      ).toBe(true);
    }
  });

  it.each(LEVELS)(
    "geyser.Geyser at level %i, bounded (to_slot): every update of from_slot..to_slot, the end slot's block meta included",
    async (level) => {
      const r = await openGeyser(level, { fromSlot: FROM.toString(), blocksMeta: { [`x-slotstream-to-slot=${TO}`]: {} } });
      await waitFor(() => ended.has(r) || r.error !== undefined, { what: 'the bounded geyser stream to end', timeoutMs: 300_000 });
      expect(r.error).toBeUndefined();
      const got = r.updates.map(geyserKey);
      // Slot statuses: those of slots whose levels all came before the end slot's (finalized three slots behind).
      const want = lines(liveGeyser[level]!.updates.map(geyserKey), FROM, TO, TO - 4n);
      expect(lines(got, FROM, TO, TO - 4n)).toEqual(want);
      expect(got.some((k) => k?.line.startsWith(`blockMeta ${TO} `))).toBe(true);
      // ... and the end slot's status at the stream's level (Yellowstone numbers them as the levels).
      expect(got.some((k) => k?.line.startsWith(`slot ${TO} ${level} `))).toBe(true);
      expect(got.some((k) => k !== undefined && k.slot > TO)).toBe(false);
    },
  );

  it.each(LEVELS)('stream.Stream at level %i, bounded (to_slot): every update of from_slot..to_slot', async (level) => {
    const r = openStream(level, { from_slot: FROM.toString(), to_slot: TO.toString() });
    await waitFor(() => r.ended || r.error !== undefined, { what: 'the bounded stream to end', timeoutMs: 300_000 });
    expect(r.error).toBeUndefined();
    expect(lines(r.updates.map(streamKey), FROM, TO)).toEqual(lines(liveStream[level]!.updates.map(streamKey), FROM, TO));
  });

  it('unbounded, on both services at every level: the history, the hand-over and live, every update once', async () => {
    const replays = [];
    for (const level of LEVELS) replays.push({ level, g: await openGeyser(level, { fromSlot: FROM.toString() }) });
    const plain = LEVELS.map((level) => ({ level, s: openStream(level, { from_slot: FROM.toString() }) }));
    // The chain moves on while the replays read the history: some of it reaches them live, through the hand-over.
    await pub.publishSlots([...chain(HISTORY_END + 1n, LIVE_END), ...tail(LIVE_END)]);
    const done = (r: GeyserRecorder) => r.of('slot').some((u) => BigInt(u.slot.slot) === LIVE_END && u.slot.status === 2);
    for (const r of [...liveGeyser, ...replays.map((x) => x.g)])
      await waitFor(() => done(r), { what: 'every geyser stream to reach the end of the chain', timeoutMs: 300_000 });
    for (const { level, g } of replays) {
      const want = lines(liveGeyser[level]!.updates.map(geyserKey), FROM, LIVE_END);
      expect(lines(g.updates.map(geyserKey), FROM, LIVE_END), `level ${level}`).toEqual(want);
      expect(new Set(want).size).toBe(want.length);
    }
    const lastTx = (r: Recorder) => r.updates.some((u) => u.update_oneof === 'transaction' && BigInt(u.transaction.slot) === LIVE_END);
    for (const { level, s } of plain) {
      const live = liveStream[level]!;
      const want = () => lines(live.updates.map(streamKey), FROM, LIVE_END);
      await waitFor(() => lastTx(live) && lastTx(s) && lines(s.updates.map(streamKey), FROM, LIVE_END).length >= want().length, {
        what: `the stream.Stream replay at level ${level} to reach the end of the chain`,
        timeoutMs: 300_000,
      });
      expect(lines(s.updates.map(streamKey), FROM, LIVE_END), `level ${level}`).toEqual(want());
    }
  });
});

describe('a slot whose records straddle the replay hand-over', () => {
  const topics = topicNames(uniquePrefix('replay-straddle'));
  let kafka: Kafka;
  let pub: TestPublisher;
  let partitions: Map<RecordKind, number>;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'replay-straddle-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    partitions = new Map(await Promise.all(RECORD_KINDS.map(async (k) => [k, await kafka.admin().partitionCount(topics[k])] as const)));
  });

  afterAll(async () => {
    await pub?.stop();
    await kafka
      ?.admin()
      .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
      .catch(() => undefined);
    await kafka?.close();
  });

  // The only blocks stream of its server: the live assembler starts at its registration, so the slot open then has
  // its first records in the replay and the rest live (before the fix neither assembler had it whole).
  it.each(LEVELS)('geyser.Geyser at level %i: its block reaches the replaying stream', async (level) => {
    const first = 100n + BigInt(level) * 100n;
    const straddle = first + 10n;
    await pub.publishSlots(chain(first, straddle - 1n));
    const run = slotRun(straddle);
    const framer = new SlotFramer(partitions, topics);
    const half = run.length / 2;
    await pub.publishFramed(framer.frame({ slot: straddle, events: run.slice(0, half), partial: true }));
    const server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 60_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    const geyser = await connectGeyser(server.port);
    const r = await GeyserRecorder.open(geyser);
    try {
      // Applied (registered, live positions taken) once the pong after it came back.
      await r.request(
        geyserRequest({
          blocks: { b: { accountInclude: [], includeTransactions: true, includeAccounts: true, includeEntries: true } },
          commitment: level,
          fromSlot: first.toString(),
        }),
      );
      await pub.publishFramed(framer.frame({ slot: straddle, events: run.slice(half), partial: false }));
      const levels: ChainEvent[] = [];
      for (let s = straddle - 3n; s <= straddle + 1n; s++)
        levels.push(status(s, SlotStatus.SLOT_STATUS_CONFIRMED), status(s, SlotStatus.SLOT_STATUS_FINALIZED));
      await pub.publishSlots([...slotRun(straddle + 1n), ...levels]);
      const blocks = () => r.of('block').map((u) => BigInt(u.block.slot));
      await waitFor(() => blocks().includes(straddle + 1n), { what: 'the block after the straddling slot', timeoutMs: 300_000 });
      await r.sync();
      const want = Array.from({ length: 12 }, (_, i) => first + BigInt(i));
      expect(blocks().sort((a, b) => (a < b ? -1 : 1))).toEqual(want);
      const b = r.of('block').find((u) => BigInt(u.block.slot) === straddle)!.block;
      expect([b.transactions.length, b.accounts.length, b.entries.length]).toEqual([8, 24, 2]);
    } finally {
      r.close();
      await server.close();
    }
  });
});
