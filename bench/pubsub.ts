// npm run bench:pubsub — the PubSub endpoint under load, through a real broker: the api (live layer +
// PubSub) in its own process (bench/pubsub-worker.ts api), clients in two other processes (50 WebSocket
// connections each), the chain published by this process.
// 1. Latency: 1,000 subscriptions at `processed` over 100 connections, half programSubscribe (Token
//    program, dataSize 165 + memcmp on a token account's owner wallet at offset 32), half logsSubscribe
//    `{mentions: [wallet]}`, wallets drawn from a pool of 5,000. The chain: BENCH_TPS (5,000) tx/s in
//    slots of BENCH_SLOT_MS (400 ms), each slot published whole as the simulator emits it (transactions
//    mentioning two pool wallets, as many token account writes of pool wallets, then the slot's processed
//    record) and as the ingest publishes it: framed by the ingest's SlotFramer (the processed record last,
//    as the end marker with its per-partition counts) and sent in one Kafka transaction (`Chain`).
//    Api-internal latency (behaviour.md "Latency, one definition"): the api writes
//    `readAt` (Date.now() when it read the record from Kafka; for an account notification, the account's
//    last write in the slot) into each notification (a bench-only option); the client's receive callback
//    subtracts it from its own Date.now(): one wall clock shared by every process on the machine, 1 ms
//    resolution. Account notifications are sent when the slot's end marker has been read (behaviour.md:
//    per slot, the account's last state), so they include that wait.
// 2. Most notifications/s: 1,000 logsSubscribe subscriptions (10 per connection) mentioning one hot key;
//    the api's live feed is paused, BENCH_BACKLOG (500) transactions mentioning the key are published,
//    the feed resumes, and the clients count notifications (no parsing) from the first to the last.
// 3. The streams of issue 23 (Agave's slotsUpdatesSubscribe, blockSubscribe, voteSubscribe; Helius's
//    transactionSubscribe): 1,000 subscriptions over 100 connections, each connection holding one
//    slotsUpdatesSubscribe, one voteSubscribe, one blockSubscribe `{mentionsAccountOrProgram: wallet}` (confirmed,
//    base64, transactionDetails signatures) and seven transactionSubscribe `{accountInclude: [wallet]}` (processed,
//    base64, full). The chain: BENCH_TPS transactions per second as in phase 1 (no account writes) plus
//    BENCH_VOTES (20) vote transactions per slot (Vote instruction first, as Agave's vote parser wants), each
//    slot's processed end marker and the previous slot's confirmed status (blocks go out at confirmed). Measured
//    over BENCH_STREAMS_SECONDS (10) after BENCH_WARMUP_S: notifications/s and api-internal p50/p99 per method
//    (readAt as in phase 1; a block's is when it was assembled at processed, so its latency includes waiting for
//    its confirmed status, published with the next slot, up to BENCH_SLOT_MS later).
// Last line: pubsub p50_ms=<a> p99_ms=<b> subscriptions=1000 max_notifications_per_s=<n>
//   [streams_notifications_per_s=<n> streams_p50_ms=<a> streams_p99_ms=<b>]
// Env: BENCH_PHASES (latency,max,streams: which phases run, in that order; the A/B against the tree before issue 23
// runs latency,max, the phases both trees have),
// BENCH_TPS, BENCH_SLOT_MS, BENCH_SECONDS (measured window, 20), BENCH_WARMUP_S (5), BENCH_BACKLOG,
// BENCH_KAFKA_BROKERS (default: a local broker is started), BENCH_API_PROFILE (a folder: CPU profile of the api),
// BENCH_API_NODE_ARGS (node options of the api process).
import { startWorker as startChild, stopWorker, type Worker } from './support/workers.js';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import bs58 from 'bs58';
import { benchBrokers } from './support/brokers.js';
import { SlotFramer } from '../ingest/publish/framer.js';
import { createKafka, type OutRecord, type TransactionalProducer } from '../platform/kafka/index.js';
import { AccountEvent, SlotEvent, SlotStatus, TransactionEvent, type ChainEvent } from '../schemas/codec.js';
import { TOKEN_PROGRAM } from '../schemas/programs.js';
import { topicNames, type TopicNames, type RecordKind } from '../schemas/topics.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const TPS = env('BENCH_TPS', 5000);
const SLOT_MS = env('BENCH_SLOT_MS', 400);
const SECONDS = env('BENCH_SECONDS', 20);
const WARMUP_S = env('BENCH_WARMUP_S', 5);
const BACKLOG = env('BENCH_BACKLOG', 500);
const VOTES = env('BENCH_VOTES', 20);
const STREAMS_SECONDS = env('BENCH_STREAMS_SECONDS', 10);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'latency,max,streams').split(','));
const CONNECTIONS = 100;
const SUBSCRIPTIONS = 1000;
const POOL = 5000;
const say = (msg: string): void => void process.stderr.write(`[bench:pubsub] ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function startWorker(role: 'api' | 'clients', envs: Record<string, string>): Promise<{ w: Worker; port?: number }> {
  // BENCH_API_PROFILE=<dir>: a V8 CPU profile of the api process, written there when it stops.
  // BENCH_API_NODE_ARGS: more node options for the api process (e.g. `--max-semi-space-size=64`, as bin/slotstream).
  const profile = role === 'api' && process.env.BENCH_API_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_PROFILE}`] : [];
  const nodeArgs = role === 'api' ? (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];
  return startChild(new URL('./pubsub-worker.ts', import.meta.url), role, envs, [...profile, ...nodeArgs]);
}

interface Sub {
  method: string;
  params: unknown[];
}

/** Both client processes, half of the connections each. */
class Clients {
  constructor(private readonly workers: Worker[]) {}

  /** `byMethod`: the clients keep latencies per notification method too (phase 3). */
  async open(port: number, conns: Sub[][], byMethod = false): Promise<void> {
    const half = Math.ceil(conns.length / this.workers.length);
    await Promise.all(
      this.workers.map((w, i) => w.request({ cmd: 'open', port, conns: conns.slice(i * half, (i + 1) * half), byMethod }, 'opened')),
    );
  }

  async reset(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.request({ cmd: 'reset' }, 'reset')));
  }

  async take(): Promise<Taken> {
    const parts = await Promise.all(this.workers.map((w) => w.request<Taken>({ cmd: 'take' }, 'take')));
    const methods: Record<string, number[]> = {};
    for (const p of parts) for (const [m, l] of Object.entries(p.methods ?? {})) (methods[m] ??= []).push(...l);
    const active = parts.filter((p) => p.n > 0);
    return {
      n: parts.reduce((a, p) => a + p.n, 0),
      first: Math.min(...active.map((p) => p.first)),
      last: Math.max(...active.map((p) => p.last)),
      latencies: parts.flatMap((p) => p.latencies),
      program: parts.flatMap((p) => p.program),
      methods,
    };
  }
}

interface Taken {
  n: number;
  first: number;
  last: number;
  latencies: number[];
  program: number[];
  /** Per notification method (clients opened with byMethod). */
  methods?: Record<string, number[]>;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const TOKEN = Buffer.from(bs58.decode(TOKEN_PROGRAM));
const SOME_PROGRAM = randomBytes(32);

function tokenAccountData(mint: Buffer, owner: Buffer, amount: bigint): Buffer {
  const d = Buffer.alloc(165);
  mint.copy(d, 0);
  owner.copy(d, 32);
  d.writeBigUInt64LE(amount, 64);
  d[108] = 1; // initialized
  return d;
}

/** One slot: transactions and token account writes mentioning pool wallets, then the processed end marker. */
function slotEvents(slot: bigint, n: number, pool: Buffer[], mint: Buffer, hot?: Buffer, txOnlyPool?: Buffer[]): ChainEvent[] {
  // txOnlyPool: transactions of those wallets and no account writes (phase 3).
  const from = txOnlyPool ?? pool;
  const pick = (): Buffer => from[Math.floor(Math.random() * from.length)]!;
  const events: ChainEvent[] = [];
  for (let i = 0; i < n; i++) {
    const keys = hot ? [randomBytes(32), hot, SOME_PROGRAM] : [pick(), pick(), SOME_PROGRAM];
    events.push({
      kind: 'transactions',
      event: TransactionEvent.fromPartial({
        slot,
        index: i,
        signatures: [randomBytes(64)],
        numRequiredSignatures: 1,
        numReadonlyUnsignedAccounts: 1,
        accountKeys: keys,
        recentBlockhash: randomBytes(32),
        instructions: [{ programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.from([3, 1]) }],
        fee: 5000n,
        logMessages: ['Program log: Instruction: Transfer', 'Program consumed 4645 of 200000 compute units'],
      }),
    });
    if (hot || txOnlyPool) continue;
    events.push({
      kind: 'accounts',
      event: AccountEvent.fromPartial({
        pubkey: randomBytes(32),
        owner: TOKEN,
        lamports: 2_039_280n,
        data: tokenAccountData(mint, pick(), BigInt(i)),
        rentEpoch: 18446744073709551615n,
        slot,
        writeVersion: slot * 100_000n + BigInt(i),
        isStartup: false,
      }),
    });
  }
  events.push({
    kind: 'slots',
    event: SlotEvent.fromPartial({
      slot,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: slot - 1n,
        blockhash: randomBytes(32),
        blockHeight: slot,
        leader: randomBytes(32),
        transactionCount: n,
        previousBlockhash: randomBytes(32),
      },
    }),
  });
  return events;
}

const PARTITIONS = 4;

/**
 * The chain as the ingest publishes it: slots framed by the ingest's own SlotFramer (every record on its
 * key's partition, the slot's processed record last as its end marker, with the per-partition counts of
 * SlotEvent.end) and sent into a Kafka transaction, committed after the slot. The ingest sends records into
 * its open transaction as they arrive and commits every 50 ms (ingest/publish/pump.ts): the live tail, reading
 * uncommitted, sees a whole slot's records the same way, as the broker takes them in.
 */
class Chain {
  private readonly framer: SlotFramer;

  constructor(
    private readonly producer: TransactionalProducer,
    private readonly topics: TopicNames,
  ) {
    const kinds: RecordKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];
    this.framer = new SlotFramer(new Map(kinds.map((k) => [k, PARTITIONS])), topics);
  }

  /** One whole slot's records, in publish order. */
  frame(slot: bigint, events: ChainEvent[]): OutRecord[] {
    return this.framer
      .frame({ slot, events })
      .map((r) => ({ topic: this.topics[r.kind], partition: r.partition, key: r.key, value: r.value }));
  }

  async publish(records: readonly OutRecord[]): Promise<void> {
    await this.producer.begin();
    try {
      for (const r of records) this.producer.send(r);
      await this.producer.commit();
    } catch (err) {
      await this.producer.abort().catch(() => {});
      throw err;
    }
  }
}

async function latencyPhase(chain: Chain, clients: Clients, port: number, api: Worker, pool: Buffer[], mint: Buffer, firstSlot: bigint) {
  const conns: Sub[][] = Array.from({ length: CONNECTIONS }, () => []);
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const wallet = bs58.encode(pool[i]!);
    conns[i % CONNECTIONS]!.push(
      i % 2 === 0
        ? {
            method: 'programSubscribe',
            params: [
              TOKEN_PROGRAM,
              { commitment: 'processed', encoding: 'base64', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: wallet } }] },
            ],
          }
        : { method: 'logsSubscribe', params: [{ mentions: [wallet] }, { commitment: 'processed' }] },
    );
  }
  await clients.open(port, conns);
  say(`opened ${SUBSCRIPTIONS} subscriptions over ${CONNECTIONS} connections; publishing ${TPS} tx/s in ${SLOT_MS} ms slots`);
  const perSlot = Math.round((TPS * SLOT_MS) / 1000);
  // Built and encoded before the clock starts, so the publisher keeps the rate on a busy machine.
  const slots = Math.ceil(((WARMUP_S + SECONDS) * 1000) / SLOT_MS) + 1;
  say(`encoding ${slots} slots of ${perSlot} transactions and ${perSlot} account writes`);
  const records = Array.from({ length: slots }, (_, i) =>
    chain.frame(firstSlot + 1n + BigInt(i), slotEvents(firstSlot + 1n + BigInt(i), perSlot, pool, mint)),
  );
  let slot = firstSlot;
  let measuring = false;
  let cpu0 = { user: 0, system: 0 };
  let published = 0;
  const t0 = Date.now();
  const end = t0 + (WARMUP_S + SECONDS) * 1000;
  let tStart = 0;
  for (let k = 0; Date.now() < end; k++) {
    if (!measuring && Date.now() >= t0 + WARMUP_S * 1000) {
      measuring = true;
      await clients.reset();
      cpu0 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
      tStart = Date.now();
      published = 0;
    }
    const next = records[Number(++slot - firstSlot - 1n)];
    if (!next) break;
    await chain.publish(next);
    if (measuring) published += perSlot;
    const wait = t0 + (k + 1) * SLOT_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
  await sleep(1000); // the last slot's notifications
  const wall = (Date.now() - tStart) / 1000;
  const cpu1 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  const got = await clients.take();
  const logs = [...got.latencies].sort((a, b) => a - b);
  const program = [...got.program].sort((a, b) => a - b);
  const lat = [...got.latencies, ...got.program].sort((a, b) => a - b);
  return {
    logs: [percentile(logs, 50), percentile(logs, 99), logs.length],
    program: [percentile(program, 50), percentile(program, 99), program.length],
    slot,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat[lat.length - 1] ?? NaN,
    samples: lat.length,
    txPerS: published / (wall - 1),
    notificationsPerS: got.n / (wall - 1),
    apiCpu: (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6 / wall,
  };
}

async function maxPhase(chain: Chain, clients: Clients, port: number, api: Worker, mint: Buffer, firstSlot: bigint) {
  const hot = randomBytes(32);
  const conns: Sub[][] = Array.from({ length: CONNECTIONS }, () =>
    Array.from({ length: SUBSCRIPTIONS / CONNECTIONS }, () => ({
      method: 'logsSubscribe',
      params: [{ mentions: [bs58.encode(hot)] }, { commitment: 'processed' }],
    })),
  );
  await clients.open(port, conns);
  await clients.reset();
  await api.request({ cmd: 'pause', paused: true }, 'paused');
  let slot = firstSlot;
  for (let left = BACKLOG; left > 0; left -= 250) {
    slot++;
    await chain.publish(chain.frame(slot, slotEvents(slot, Math.min(250, left), [], mint, hot)));
  }
  await sleep(1000);
  const want = BACKLOG * SUBSCRIPTIONS;
  const cpu0 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  await api.request({ cmd: 'pause', paused: false }, 'paused');
  let got = await clients.take();
  let lastN = -1;
  let still = 0;
  while (got.n < want && still < 20) {
    await sleep(250);
    got = await clients.take();
    still = got.n === lastN ? still + 1 : 0;
    lastN = got.n;
  }
  const cpu1 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  const seconds = (got.last - got.first) / 1000;
  return {
    delivered: got.n,
    want,
    seconds,
    perS: got.n / seconds,
    apiCpuS: (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6,
    slot,
  };
}

const VOTE_PROGRAM = Buffer.from(bs58.decode('Vote111111111111111111111111111111111111111'));

/** A vote transaction as a validator sends it: VoteInstruction::Vote (bincode: u32 variant 2, Vec<u64> slots, hash,
 * Option<i64> timestamp) first, the vote account its first account. */
function voteTransaction(slot: bigint, index: number, voter: Buffer, voteAccount: Buffer): TransactionEvent {
  const data = Buffer.alloc(4 + 8 + 8 + 32 + 9);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(1n, 4);
  data.writeBigUInt64LE(slot - 1n, 12);
  randomBytes(32).copy(data, 20);
  data[52] = 1;
  data.writeBigInt64LE(BigInt(Math.floor(Date.now() / 1000)), 53);
  return TransactionEvent.fromPartial({
    slot,
    index,
    signatures: [randomBytes(64)],
    numRequiredSignatures: 1,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [voter, voteAccount, VOTE_PROGRAM],
    recentBlockhash: randomBytes(32),
    instructions: [{ programIdIndex: 2, accounts: Buffer.from([1, 0]), data }],
    fee: 5000n,
    isVote: true,
    logMessages: [
      'Program Vote111111111111111111111111111111111111111 invoke [1]',
      'Program Vote111111111111111111111111111111111111111 success',
    ],
  });
}

/** One slot of phase 3: the previous slot's confirmed status, transactions of pool wallets, votes, the end marker. */
function streamSlotEvents(slot: bigint, n: number, pool: Buffer[], mint: Buffer, voters: Buffer[][]): ChainEvent[] {
  const txs = slotEvents(slot, n, [], mint, undefined, pool);
  const marker = txs.pop()!;
  const votes = voters.map(([voter, account], i) => ({
    kind: 'transactions' as const,
    event: voteTransaction(slot, n + i, voter!, account!),
  }));
  const confirmed: ChainEvent = {
    kind: 'slots',
    event: SlotEvent.fromPartial({ slot: slot - 1n, status: SlotStatus.SLOT_STATUS_CONFIRMED, parent: slot - 2n }),
  };
  return [confirmed, ...txs, ...votes, marker];
}

/** Transactions per slot at BENCH_TPS. */
const perSlotOf = (): number => Math.round((TPS * SLOT_MS) / 1000);

async function streamsPhase(chain: Chain, clients: Clients, port: number, api: Worker, pool: Buffer[], mint: Buffer, firstSlot: bigint) {
  const conns: Sub[][] = Array.from({ length: CONNECTIONS }, (_, c) => {
    const wallet = (k: number) => bs58.encode(pool[(c * 8 + k) % pool.length]!);
    return [
      { method: 'slotsUpdatesSubscribe', params: [] },
      { method: 'voteSubscribe', params: [] },
      {
        method: 'blockSubscribe',
        params: [
          { mentionsAccountOrProgram: wallet(0) },
          { commitment: 'confirmed', encoding: 'base64', transactionDetails: 'signatures', maxSupportedTransactionVersion: 0 },
        ],
      },
      ...Array.from({ length: 7 }, (_, k) => ({
        method: 'transactionSubscribe',
        params: [
          { accountInclude: [wallet(k + 1)] },
          { commitment: 'processed', encoding: 'base64', transactionDetails: 'full', maxSupportedTransactionVersion: 0 },
        ],
      })),
    ];
  });
  await clients.open(port, conns, true);
  const perSlot = Math.round((TPS * SLOT_MS) / 1000);
  const voters = Array.from({ length: VOTES }, () => [randomBytes(32), randomBytes(32)]);
  const slots = Math.ceil(((WARMUP_S + STREAMS_SECONDS) * 1000) / SLOT_MS) + 1;
  say(
    `streams: ${SUBSCRIPTIONS} subscriptions over ${CONNECTIONS} connections; encoding ${slots} slots of ${perSlot} transactions and ${VOTES} votes`,
  );
  const records = Array.from({ length: slots }, (_, i) =>
    chain.frame(firstSlot + 1n + BigInt(i), streamSlotEvents(firstSlot + 1n + BigInt(i), perSlot, pool, mint, voters)),
  );
  let slot = firstSlot;
  let measuring = false;
  let cpu0 = { user: 0, system: 0 };
  const t0 = Date.now();
  const end = t0 + (WARMUP_S + STREAMS_SECONDS) * 1000;
  let tStart = 0;
  let published = 0;
  for (let k = 0; Date.now() < end; k++) {
    if (!measuring && Date.now() >= t0 + WARMUP_S * 1000) {
      measuring = true;
      await clients.reset();
      cpu0 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
      tStart = Date.now();
    }
    const next = records[Number(++slot - firstSlot - 1n)];
    if (!next) break;
    await chain.publish(next);
    if (measuring) published++;
    const wait = t0 + (k + 1) * SLOT_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
  await sleep(1000); // the last slot's notifications
  const wall = (Date.now() - tStart) / 1000;
  const cpu1 = await api.request<{ user: number; system: number }>({ cmd: 'cpu' }, 'cpu');
  const got = await clients.take();
  const all = Object.values(got.methods ?? {})
    .flat()
    .sort((a, b) => a - b);
  const methods = Object.entries(got.methods ?? {}).map(([m, l]) => {
    const sorted = [...l].sort((a, b) => a - b);
    return { method: m, n: l.length, perS: l.length / (wall - 1), p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  const apiCpuS = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6;
  return {
    slot,
    /** Slots published per second in the window (the publisher falls behind BENCH_SLOT_MS on a loaded machine). */
    slotsPerS: published / (wall - 1),
    methods,
    n: got.n,
    perS: got.n / (wall - 1),
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    apiCpu: apiCpuS / wall,
    perApiCpuS: got.n / apiCpuS,
  };
}

async function main(): Promise<void> {
  const { brokers, local } = await benchBrokers(say);
  const prefix = `bench.pubsub.${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  const kafka = createKafka({ brokers, clientId: 'bench-pubsub' });
  await kafka.admin().ensureTopics(topics, { partitions: PARTITIONS, retentionMs: -1, replicationFactor: 1 });
  const producer = await kafka.transactionalProducer({ transactionalId: `${prefix}.chain` });
  const chain = new Chain(producer, topics);
  const { w: api, port } = await startWorker('api', { BENCH_BROKERS: brokers.join(','), BENCH_PREFIX: prefix });
  const workers = [(await startWorker('clients', {})).w, (await startWorker('clients', {})).w];
  const clients = new Clients(workers);
  try {
    say(`machine at start: load avg ${load()}`);
    const pool = Array.from({ length: POOL }, () => randomBytes(32));
    const mint = randomBytes(32);
    let lat: Awaited<ReturnType<typeof latencyPhase>> | undefined;
    let max: Awaited<ReturnType<typeof maxPhase>> | undefined;
    let streams: Awaited<ReturnType<typeof streamsPhase>> | undefined;
    let slot = 1000n;
    if (PHASES.has('latency')) {
      lat = await latencyPhase(chain, clients, port!, api, pool, mint, slot);
      slot = lat.slot + 10n;
      say(
        `latency at ${lat.txPerS.toFixed(0)} tx/s: api-internal (readAt -> client receive callback) p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms over ${lat.samples} notifications ` +
          `(${lat.notificationsPerS.toFixed(0)} notifications/s; logs p50/p99/n ${lat.logs.join('/')}, program ${lat.program.join('/')}); api CPU ${(lat.apiCpu * 100).toFixed(0)}% of a core; load avg ${load()}`,
      );
    }
    if (PHASES.has('max')) {
      max = await maxPhase(chain, clients, port!, api, mint, slot);
      slot = max.slot + 10n;
      say(
        `max: ${max.perS.toFixed(0)} notifications/s (${max.delivered}/${max.want} in ${max.seconds.toFixed(2)} s; api CPU ${max.apiCpuS.toFixed(1)} s = ` +
          `${(max.delivered / max.apiCpuS).toFixed(0)} notifications per api CPU s); load avg ${load()}`,
      );
    }
    if (PHASES.has('streams')) {
      streams = await streamsPhase(chain, clients, port!, api, pool, mint, slot);
      say(
        `streams at ${((streams.slotsPerS * SLOT_MS) / 1000).toFixed(2)}x the pace (${(streams.slotsPerS * perSlotOf()).toFixed(0)} tx/s + ${VOTES} votes per slot): ${streams.perS.toFixed(0)} notifications/s, api-internal p50 ${streams.p50} ms, p99 ${streams.p99} ms; ` +
          `api CPU ${(streams.apiCpu * 100).toFixed(0)}% of a core (${streams.perApiCpuS.toFixed(0)} notifications per api CPU s); load avg ${load()}`,
      );
      for (const m of streams.methods) say(`  ${m.method}: ${m.perS.toFixed(0)}/s (${m.n}), api-internal p50 ${m.p50} ms, p99 ${m.p99} ms`);
    }
    say(
      `machine at end: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load avg ${load()}`,
    );
    if (max && max.delivered !== max.want) say(`WARNING: ${max.want - max.delivered} notifications missing in the max phase`);
    console.log(
      `pubsub p50_ms=${lat?.p50 ?? '-'} p99_ms=${lat?.p99 ?? '-'} subscriptions=${SUBSCRIPTIONS} max_notifications_per_s=${max ? Math.round(max.perS) : '-'}` +
        (streams
          ? ` streams_notifications_per_s=${Math.round(streams.perS)} streams_p50_ms=${streams.p50} streams_p99_ms=${streams.p99}`
          : ''),
    );
  } finally {
    for (const w of workers) await stopWorker(w);
    await stopWorker(api);
    await producer.close();
    await kafka.close();
    await local?.stop();
  }
}

main().catch((err: Error) => {
  say(err.stack ?? err.message);
  process.exit(1);
});
