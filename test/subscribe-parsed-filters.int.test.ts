// SubscribeParsed's request fields (issue 20 item 3) against the real broker, over the simulator's traffic
// (today's pump.fun and PumpSwap: create_v2, buy_v2, buy_exact_sol_in, routed trades as inner instructions,
// migrations, pools, every event as a self-CPI, some failed transactions): streams with each filter (programs,
// instruction and event kinds, mints, users, include_failed, top-level/inner) get exactly the transactions a
// reference matcher written here from the proto's comments selects (Anchor discriminators computed here, the
// self-CPI rule applied to the raw instructions; no code shared with api/pumpfun but the kind names);
// invalid fields end the stream with INVALID_ARGUMENT naming the field; `commitment` holds a slot's
// transactions until it is confirmed; `from_slot` replays the history then goes live with no gap and no
// duplicate, and answers OUT_OF_RANGE naming the first available slot once retention removed it (embedded
// ClickHouse with slot_offsets, as the projector writes them), as Subscribe does.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStreams } from '../api/grpc/metrics.js';
import { PUMP } from '../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../schemas/pumpfun/pump-amm-table.js';
import { SlotFramer, type FramedRecord } from '../ingest/publish/framer.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import type { ChainEvent, TransactionEvent } from '../schemas/codec.js';
import { RECORD_KINDS, topicNames } from '../schemas/topics.js';
import { newClient, readTopics, slotEvent, slotOffsetRows, TestPublisher, type Msg } from './support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from './support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { collect } from './support/sim/checks.js';

const PUMP_ID = PUMP.programId;
const AMM_ID = PUMP_AMM.programId;
const PROGRAM_NAME: Record<string, 'pump' | 'pump_amm'> = { [PUMP_ID]: 'pump', [AMM_ID]: 'pump_amm' };
const sha8 = (s: string): string => createHash('sha256').update(s).digest().subarray(0, 8).toString('hex');
const EVENT_TAG = 'e445a52e51cb9a1d';
// The kinds of each program by Anchor discriminator (sha256("global:<name>"), sha256("event:<Name>")).
const kinds = (names: readonly string[], ns: string) => new Map(names.map((n) => [sha8(`${ns}:${n}`), n]));
const INSTRUCTIONS = {
  pump: kinds([...PUMP.instructions.map((d) => d.name), 'withdraw'], 'global'),
  pump_amm: kinds(
    PUMP_AMM.instructions.map((d) => d.name),
    'global',
  ),
};
const EVENTS = {
  pump: kinds(
    PUMP.events.map((d) => d.name),
    'event',
  ),
  pump_amm: kinds(
    PUMP_AMM.events.map((d) => d.name),
    'event',
  ),
};

// ---- The reference: the proto's comments on SubscribeParsedRequest, over the raw transaction ----

interface Req {
  programs?: string[];
  instruction_kinds?: string[];
  event_kinds?: string[];
  mints?: string[];
  users?: string[];
  include_failed?: boolean;
  instruction_level?: 'BOTH' | 'TOP_LEVEL_ONLY' | 'INNER_ONLY';
}

interface RefIx {
  program: 'pump' | 'pump_amm';
  index: number;
  inner: boolean;
  name: string;
  keys: string[];
}
interface RefEvent {
  program: 'pump' | 'pump_amm';
  index: number;
  name: string;
  data: Buffer;
}

type RefParsed = { ixs: RefIx[]; events: RefEvent[] };
// refParse of each transaction, kept: the reference asks for it once per filter case and stream (tens of times a
// transaction), and parsing it again each time was a third of the file's CPU. A pure function of the transaction.
const parsedOf = new WeakMap<TransactionEvent, RefParsed>();

/** The pump.fun / PumpSwap instructions (known kinds) and self-CPI events of a transaction, read from its raw instructions. */
function refParse(t: TransactionEvent): RefParsed {
  let got = parsedOf.get(t);
  if (got === undefined) parsedOf.set(t, (got = parseRef(t)));
  return got;
}

function parseRef(t: TransactionEvent): RefParsed {
  const keys = [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map((k) => bs58.encode(k));
  const ixs: RefIx[] = [];
  const events: RefEvent[] = [];
  const take = (ix: { programIdIndex: number; accounts: Uint8Array; data: Uint8Array }, index: number, inner: boolean, parent?: string) => {
    const program = PROGRAM_NAME[keys[ix.programIdIndex] ?? ''];
    if (!program) return;
    const data = Buffer.from(ix.data);
    // A self-CPI event: the tag, invoked by the same program one level up (Anchor's emit_cpi!).
    if (inner && data.subarray(0, 8).toString('hex') === EVENT_TAG && parent === keys[ix.programIdIndex]) {
      const name = EVENTS[program].get(data.subarray(8, 16).toString('hex'));
      if (name) events.push({ program, index, name, data: data.subarray(16) });
      return;
    }
    const name = INSTRUCTIONS[program].get(data.subarray(0, 8).toString('hex'));
    if (name) ixs.push({ program, index, inner, name, keys: [...ix.accounts].map((a) => keys[a] ?? '') });
  };
  t.instructions.forEach((ix, index) => {
    take(ix, index, false);
    const group = t.innerInstructions.find((g) => g.index === index)?.instructions ?? [];
    // The program running one stack level up: the nearest earlier instruction of the group one level higher.
    const programAt: string[] = [keys[ix.programIdIndex]!];
    for (const inner of group) {
      const h = inner.stackHeight ?? 2;
      take(inner, index, true, programAt[h - 2]);
      programAt[h - 1] = keys[inner.programIdIndex]!;
      programAt.length = h;
    }
  });
  return { ixs, events };
}

function refMatches(r: Req, t: TransactionEvent): boolean {
  const { ixs, events } = refParse(t);
  if (ixs.length === 0 && events.length === 0) return false;
  if (t.err !== undefined && !r.include_failed) return false;
  if (r.users?.length) {
    const signers = t.accountKeys.slice(0, t.numRequiredSignatures).map((k) => bs58.encode(k));
    if (!r.users.some((u) => signers.includes(u))) return false;
  }
  const programs = r.programs?.length ? r.programs.map((p) => PROGRAM_NAME[p]) : ['pump', 'pump_amm'];
  const level = r.instruction_level ?? 'BOTH';
  const levelOk = (inner: boolean) => level === 'BOTH' || (level === 'INNER_ONLY') === inner;
  const passing = ixs.filter((x) => programs.includes(x.program) && levelOk(x.inner));
  const ixKinds = r.instruction_kinds?.length ? r.instruction_kinds : undefined;
  const evKinds = r.event_kinds?.length ? r.event_kinds : undefined;
  const mints = r.mints?.length ? r.mints : undefined;
  // Kinds and mints are per transaction (docs/decisions.md, "SubscribeParsed's messages and filters"): over the
  // instructions that count and the events that count (their program passing, under a passing instruction unless BOTH),
  // one of them must be of a kind asked for and one (the same or another) must name a mint asked for, with or without
  // event_kinds (a PumpSwap sweep names its coin only in SweepPoolFeeEvent.base_mint).
  const counted = events.filter((e) => programs.includes(e.program) && (level === 'BOTH' || passing.some((x) => x.index === e.index)));
  if (passing.length === 0 && counted.length === 0) return false;
  const kind = (!ixKinds && !evKinds) || passing.some((x) => ixKinds?.includes(x.name)) || counted.some((e) => evKinds?.includes(e.name));
  const mint =
    !mints ||
    passing.some((x) => x.keys.some((k) => mints.includes(k))) ||
    counted.some((e) => mints.some((m) => e.data.includes(Buffer.from(bs58.decode(m)))));
  return kind && mint;
}

const parsedStreams = async (): Promise<number> =>
  (await openStreams.get()).values.find((v) => v.labels.method === 'SubscribeParsed')?.value ?? 0;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A SubscribeParsed stream and what it received (signatures, hex). */
class Parsed {
  readonly updates: Msg[] = [];
  error: grpc.ServiceError | undefined;
  constructor(readonly call: grpc.ClientDuplexStream<Msg, Msg>) {
    call.on('data', (m: Msg) => this.updates.push(m));
    call.on('error', (e: grpc.ServiceError) => (this.error = e));
  }
  get signatures(): string[] {
    return this.updates.map((u) => hex(u.signature));
  }
}

describe('SubscribeParsed filters, commitment and from_slot (simulator traffic, real broker)', () => {
  const topics = topicNames(uniquePrefix('parsed-filters'));
  const dataDir = mkdtempSync(join(tmpdir(), 'parsed-filters-'));
  const database = `parsed_filters_${randomBytes(3).toString('hex')}`;
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  let ch: ClickHouseClient | undefined;
  let indexed: TestGrpc | undefined;
  let chain: ChainEvent[] = [];
  /** The simulated chain's records as the ingest frames them (each slot's end marker after its records). */
  let framed: FramedRecord[] = [];
  /** Every transaction published so far, in order. */
  const published: TransactionEvent[] = [];
  const open: Parsed[] = [];

  const txsOf = (events: readonly ChainEvent[]): TransactionEvent[] => events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : []));
  const expected = (r: Req, txs: readonly TransactionEvent[]): string[] =>
    txs.filter((t) => refMatches(r, t)).map((t) => hex(t.signatures[0]!));

  /** Publishes events as the ingest does (each slot's run framed whole, with its parsed records). */
  async function publish(events: ChainEvent[]): Promise<void> {
    published.push(...txsOf(events));
    await pub.publishSlots(events);
  }

  /** Publishes the simulated chain, framed. */
  async function publishChain(): Promise<void> {
    published.push(...txsOf(chain));
    await pub.publishFramed(framed);
  }

  /** The slots the simulated chain confirmed, and `more`. */
  const confirmedSlots = (...more: bigint[]): Set<bigint> =>
    new Set([...chain.flatMap((e) => (e.kind === 'slots' && e.event.status === 1 ? [e.event.slot] : [])), ...more]);

  function parsed(req?: Msg, on: Msg = client): Parsed {
    const p = new Parsed(on.SubscribeParsed());
    open.push(p);
    if (req !== undefined) p.call.write(req);
    return p;
  }

  /** Waits until every stream has its `want` (and, a moment later, nothing more), then compares each. */
  async function expectExactly(...checks: [p: Parsed, want: string[], what: string][]): Promise<void> {
    for (const [p, want, what] of checks)
      await waitFor(() => p.signatures.length >= want.length || p.error, { what: `${what}: ${want.length} updates`, timeoutMs: 300_000 });
    // One more wait for all of them: anything extra would be in by now.
    await new Promise((r) => setTimeout(r, 1_500));
    for (const [p, want, what] of checks) {
      expect(p.error, what).toBeUndefined();
      expect(p.signatures.length, `${what}: no duplicate`).toBe(new Set(p.signatures).size);
      expect([...p.signatures].sort(), what).toEqual([...want].sort());
    }
  }

  /** A copy of a simulated transaction that a default stream gets, in its own slot, with a fresh signature. */
  function freshCopy(slot: bigint): TransactionEvent {
    const t = txsOf(chain).find((x) => refMatches({}, x))!;
    return { ...t, slot, signatures: [randomBytes(64), ...t.signatures.slice(1)] };
  }

  /** Trades write their curve (pump.fun) or pool (PumpSwap); other pump-owned writes (a global account) are neither. */
  const PUMP_TRADES = new Set(['buy', 'sell', 'buy_v2', 'buy_exact_sol_in', 'buy_exact_quote_in_v2', 'sell_v2']);
  const AMM_TRADES = new Set(['amm_buy', 'amm_sell', 'amm_buy_exact_quote_in']);

  /** Each trade `p` received carries the write its own transaction made (behaviour.md "SubscribeParsed"): a
   * pump.fun trade its curve as `account` (an account pump.fun owns), a PumpSwap trade its pool as `pool` (one
   * PumpSwap owns), each with the trade's signature. */
  function expectOwnWrites(p: Parsed, what: string): { curves: number; pools: number } {
    const owned = new Map([PUMP_ID, AMM_ID].map((id) => [hex(bs58.decode(id)), id]));
    /** `<signature>:<owner id>` -> pubkeys written. */
    const writes = new Map<string, Set<string>>();
    for (const e of chain) {
      const owner = e.kind === 'accounts' && e.event.txnSignature ? owned.get(hex(e.event.owner)) : undefined;
      if (e.kind !== 'accounts' || owner === undefined) continue;
      const k = `${hex(e.event.txnSignature!)}:${owner}`;
      if (!writes.has(k)) writes.set(k, new Set());
      writes.get(k)!.add(hex(e.event.pubkey));
    }
    const own = (u: Msg, a: Msg | undefined, owner: string): boolean =>
      a?.account?.txn_signature !== undefined &&
      hex(a.account.txn_signature) === hex(u.signature) &&
      (writes.get(`${hex(u.signature)}:${owner}`)?.has(hex(a.account.pubkey)) ?? false);
    const kinds = (u: Msg): string[] => (u.instructions as Msg[]).map((i) => i.instruction_oneof as string);
    let curves = 0;
    let pools = 0;
    const wrong: string[] = [];
    for (const u of p.updates) {
      const sig = hex(u.signature);
      if (kinds(u).some((k) => PUMP_TRADES.has(k)) && writes.has(`${sig}:${PUMP_ID}`)) {
        curves++;
        if (!own(u, u.account, PUMP_ID)) wrong.push(`${bs58.encode(u.signature)} (curve)`);
      }
      if (kinds(u).some((k) => AMM_TRADES.has(k)) && writes.has(`${sig}:${AMM_ID}`)) {
        pools++;
        if (!own(u, u.pool, AMM_ID)) wrong.push(`${bs58.encode(u.signature)} (pool)`);
      }
    }
    expect(curves + pools, `${what}: trades that wrote a curve or pool`).toBeGreaterThan(0);
    expect({ what, wrong: wrong.length, first: wrong[0] }, `${what}: trades without the write they made`).toEqual({
      what,
      wrong: 0,
      first: undefined,
    });
    return { curves, pools };
  }

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'parsed-filters-test' });
    // One partition: streams see records in publish order.
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    client = newClient(server.port);
    // At 1,000 tx/s curves complete within a few slots, so PumpSwap pools are created and traded too.
    const batches = await collect({ seed: 7, maxSlots: 16, fast: true, tps: 1000 });
    chain = batches.flatMap((b) => b.events);
    // Framed as the ingest frames them: a replay's frame gate then holds each slot's end marker until the slot's
    // records are read (unframed records would let a confirmed replay release a slot before all its writes came).
    const framer = new SlotFramer(new Map(RECORD_KINDS.map((k) => [k, 1])), topics);
    framed = batches.flatMap((b) => framer.frame(b));
  });

  afterAll(async () => {
    for (const p of open) p.call.cancel();
    client?.close();
    await indexed?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
    await ch?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('each filter delivers exactly what the reference matcher selects; CONFIRMED only confirmed slots', async () => {
    const txs = txsOf(chain);
    // Mints and users of the traffic: the first TradeEvent's mints, the signers of some pump transactions.
    const trades = txs.flatMap((t) => refParse(t).events.filter((e) => e.name === 'TradeEvent' || e.name === 'BuyEvent'));
    const mints = [...new Set(trades.filter((e) => e.name === 'TradeEvent').map((e) => bs58.encode(e.data.subarray(0, 32))))].slice(0, 3);
    const users = [...new Set(txs.filter((t) => refMatches({}, t)).map((t) => bs58.encode(t.accountKeys[0]!)))].slice(0, 5);
    const cases: [string, Req][] = [
      ['default (sends nothing)', {}],
      ['programs: PumpSwap', { programs: [AMM_ID] }],
      ['programs: pump.fun', { programs: [PUMP_ID] }],
      ['instruction_kinds: buy_v2, buy_exact_sol_in', { instruction_kinds: ['buy_v2', 'buy_exact_sol_in'] }],
      ['instruction_kinds: sell + event_kinds: CompleteEvent', { instruction_kinds: ['sell'], event_kinds: ['CompleteEvent'] }],
      ['event_kinds: TradeEvent, top level only', { event_kinds: ['TradeEvent'], instruction_level: 'TOP_LEVEL_ONLY' }],
      ['event_kinds: BuyEvent (PumpSwap)', { event_kinds: ['BuyEvent'] }],
      ['inner only', { instruction_level: 'INNER_ONLY' }],
      ['top level only', { instruction_level: 'TOP_LEVEL_ONLY' }],
      ['mints', { mints }],
      ['mints + event_kinds: TradeEvent', { mints, event_kinds: ['TradeEvent'] }],
      ['users', { users }],
      ['include_failed', { include_failed: true }],
    ];
    const streams = cases.map(([, r]) => (Object.keys(r).length === 0 ? parsed() : parsed(r)));
    const confirmed = parsed({ commitment: 'CONFIRMED' });
    await waitFor(async () => (await parsedStreams()) >= cases.length + 1, { what: 'streams registered' });
    await publishChain();
    const confirmedSet = confirmedSlots();
    await expectExactly(...cases.map(([what, r], i): [Parsed, string[], string] => [streams[i]!, expected(r, txs), what]), [
      confirmed,
      expected(
        {},
        txs.filter((t) => confirmedSet.has(t.slot)),
      ),
      'CONFIRMED',
    ]);

    // At PROCESSED and at CONFIRMED alike: a hot curve is written by several trades of one slot, and a confirmed
    // stream must not lose the earlier ones' writes.
    const checked = expectOwnWrites(streams[0]!, 'default');
    expect(checked.curves > 0 && checked.pools > 0, `default: curves and pools checked (${JSON.stringify(checked)})`).toBe(true);
    expectOwnWrites(confirmed, 'CONFIRMED');

    // The traffic exercises what is compared: each case selects something, and the filters narrow.
    const sizes = cases.map(([, r]) => expected(r, txs).length);
    expect(
      sizes.every((n) => n > 0),
      JSON.stringify(sizes),
    ).toBe(true);
    const [all, amm, pump, , , , , inner, top, , , , failed] = sizes;
    expect(amm! + pump!).toBeGreaterThan(all!); // some transactions touch both (migrations)
    expect(inner).toBeLessThan(all!);
    expect(top).toBeLessThan(all!);
    expect(failed).toBeGreaterThan(all!);
    expect(confirmed.signatures.length).toBeLessThan(all!);

    // The gate: a slot's transactions wait for its confirmation.
    const held = freshCopy(9_000n);
    const live = parsed({ include_failed: false });
    await new Promise((r) => setTimeout(r, 500));
    await publish([
      { kind: 'slots', event: slotEvent(9_000n, 0) },
      { kind: 'transactions', event: held },
    ]);
    await waitFor(() => live.signatures.includes(hex(held.signatures[0]!)), { what: 'the processed stream gets it' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(confirmed.signatures).not.toContain(hex(held.signatures[0]!));
    await publish([{ kind: 'slots', event: slotEvent(9_000n, 1) }]);
    await waitFor(() => confirmed.signatures.includes(hex(held.signatures[0]!)), { what: 'released at confirmed' });
  });

  it('rejects invalid fields with INVALID_ARGUMENT naming the field', async () => {
    const cases: [Msg, string][] = [
      [{ programs: [PUMP_ID, 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'] }, 'programs[1]: '],
      [{ instruction_kinds: ['buy', 'purchase'] }, 'instruction_kinds[1]: "purchase" is no instruction'],
      [{ event_kinds: ['Trade'] }, 'event_kinds[0]: "Trade" is no event'],
      [{ mints: ['not-base58-0OIl'] }, 'mints[0]: "not-base58-0OIl" is not a base58 pubkey'],
      [{ users: [bs58.encode(Buffer.alloc(31, 1))] }, 'users[0]: '],
      [{ mints: Array.from({ length: 257 }, () => PUMP_ID) }, 'mints: 257 entries, at most 256'],
    ];
    for (const [req, message] of cases) {
      const p = parsed(req);
      await waitFor(() => p.error, { what: `INVALID_ARGUMENT for ${JSON.stringify(req).slice(0, 80)}` });
      expect(p.error!.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(p.error!.details).toContain(`failed to create filter: ${message}`);
    }
  });

  it('from_slot replays the history with its filters, then goes live with no gap and no duplicate', async () => {
    // Runs after the live test: the topic holds the simulated chain and that test's copy; from slot 8, half the
    // chain is history (its trades' curve/pool writes too, which the replay joins).
    const req: Req = { programs: [PUMP_ID], include_failed: true };
    const p = parsed({ ...req, from_slot: '8' });
    // The same history at CONFIRMED: the confirmed slots only (the first test confirmed slot 9,000), each trade with
    // its own curve/pool write (joined in the ingest, whatever the commitment).
    const atConfirmed = parsed({ commitment: 'CONFIRMED', from_slot: '8' });
    const confirmedSet = confirmedSlots(9_000n);
    await waitFor(() => p.updates.length > 0, { what: 'the replay under way', timeoutMs: 300_000 });
    const later = freshCopy(10_000n);
    await publish([{ kind: 'transactions', event: later }]);
    const want = expected(
      req,
      published.filter((t) => t.slot >= 8n),
    );
    expect(want).toContain(hex(later.signatures[0]!));
    await expectExactly([p, want, 'from_slot 8']);
    expect(p.updates.every((u) => BigInt(u.slot) >= 8n)).toBe(true);
    expectOwnWrites(p, 'from_slot 8');
    await expectExactly([
      atConfirmed,
      expected(
        {},
        published.filter((t) => t.slot >= 8n && confirmedSet.has(t.slot)),
      ),
      'from_slot 8 at CONFIRMED',
    ]);
    expectOwnWrites(atConfirmed, 'from_slot 8 at CONFIRMED');
  });

  it('answers OUT_OF_RANGE naming the first available slot once retention removed from_slot', async () => {
    ch = await createClickHouse({ dataDir, database });
    await applyMigrations(ch, database);
    const contents = await readTopics(kafka, topics);
    await ch.insert({
      table: `${database}.slot_offsets`,
      values: slotOffsetRows(contents),
      columns: ['topic', 'partition', 'slot', 'first_offset', 'last_offset'],
      format: 'JSONEachRow',
    });
    // Drop everything before slot 15 (what retention does, segment by segment); one partition per topic.
    let firstAvailable = 0n;
    for (const topic of new Set(contents.map((r) => r.topic))) {
      const cut = contents.find((r) => r.topic === topic && r.event.kind !== 'epochs' && r.event.event.slot >= 15n);
      if (!cut) continue;
      const slot = (cut.event.event as { slot: bigint }).slot;
      if (slot > firstAvailable) firstAvailable = slot;
      await kafka.admin().deleteRecords(topic, 0, cut.offset);
    }
    indexed = await startTestGrpc({
      kafka,
      topics,
      ch,
      database,
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    const c = newClient(indexed.port);
    try {
      const refused = parsed({ from_slot: '5' }, c);
      await waitFor(() => refused.error, { what: 'OUT_OF_RANGE' });
      expect(refused.error!.code).toBe(grpc.status.OUT_OF_RANGE);
      expect(refused.error!.details).toContain('from_slot 5 is older than the retained history');
      expect(refused.error!.details).toContain(`first available slot is ${firstAvailable}`);
      const ok = parsed({ from_slot: String(firstAvailable) }, c);
      await expectExactly([
        ok,
        expected(
          {},
          published.filter((t) => t.slot >= firstAvailable),
        ),
        `from_slot ${firstAvailable}`,
      ]);
    } finally {
      c.close();
    }
  });
});
