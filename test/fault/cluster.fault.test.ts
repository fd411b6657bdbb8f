// Fault test on a 3-broker KRaft cluster (issue 10; replication factor 3, min.insync.replicas 2): the
// ingest (simulator, in a child process, paced), the projector and 10 gRPC Subscribe streams run while
// the ingest is SIGKILLed mid-run and restarted, and then, separately, while the restarted ingest runs,
// the leader of a slots partition is SIGKILLed and restarted. Afterwards:
// - the topics hold the same records as a fault-free run of the same seed (behaviour.md "Equality in
//   tests"; the reference runs on its own topic prefix in the same cluster, before the faults);
// - every view equals the independent computation from the topics (test/support/projector/expected.ts);
// - every stream received every matching update exactly once (multiset of identities). Streams are cut
//   on purpose while each fault lasts (and whenever the server ends one), and resume with `from_slot` =
//   the slot after the last one they had received whole, dropping what they held of later slots. A
//   resume the api refuses for its bound on concurrent replays (RESOURCE_EXHAUSTED, --max-replays, 8 by
//   default; 10 streams start with from_slot here) is asked again after a pause, as real clients do
//   (test/support/grpc/resumable-stream.ts); the api keeps its default bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectKafka, type KafkaInfra } from '../../cli/infrastructure.js';
import { startLocalKafka, type LocalKafka } from '../../platform/local-kafka/launcher.js';
import { startTestGrpc, type TestGrpc } from '../support/grpc/server.js';
import { newClient } from '../support/grpc/clients.js';
import { lastPublishedSlot } from '../support/ingest/last-published-slot.js';
import { resumePoint as ingestResumePoint, type ResumePoint } from '../../ingest/publish/resume-point.js';
import { checkMarkers } from '../support/ingest/framed-slot.js';
import { freezeAtCut } from '../support/ingest/freeze-at-cut.js';
import { startIngest } from '../../ingest/run.js';
import { MEMO_PROGRAM, PUMP_PROGRAM, TOKEN_PROGRAM } from '../../ingest/sources/sim/programs.js';
import { BONDING_CURVE_LEN, TOKEN_ACCOUNT_LEN } from '../../ingest/sources/sim/layouts.js';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import { makeConfig, type Config } from '../../cli/config.js';
import type { Logger } from '../../platform/log.js';
import { applyMigrations } from '../../platform/migrations.js';
import { startProjector, type Projector } from '../../projector/run.js';
import { dumpViews, heads, kafkaLag } from '../support/projector/dump.js';
import { expectedViews } from '../support/projector/expected.js';
import { consumeAll } from '../support/projector/kafka.js';
import { decodeRecord, type TransactionEvent } from '../../schemas/codec.js';
import { topicNames, type TopicKind, type TopicNames } from '../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../support/harness/kafka.js';
import { ResumableStream } from '../support/grpc/resumable-stream.js';
import {
  chainTruth,
  compareReceived,
  expectedBySlot,
  resumePoint,
  skippedUpdates,
  type ChainTruth,
  type PlacedEvent,
  type StreamExpectation,
} from '../support/grpc/stream-truth.js';
import { spawnIngest, type IngestProcess } from '../support/ingest/ingest-process.js';
import { brokerMetadata } from '../support/kafka/broker-metadata.js';
import { readKinds, recordCount, recordsDifference } from '../support/kafka/same-records.js';
import { snapshotTopics } from '../support/kafka/snapshot.js';
import { projectorSection } from '../../cli/config-sections.js';
import { ingestSection } from '../../cli/config-sections.js';

// The chain: ~45 records a slot. Paced at 50 ms a slot the fault run lasts about 150 s, long enough for
// the ingest to be killed and restarted mid-run, and then for a broker to be killed, fenced and restarted
// while the chain goes on.
const SIM = { source: 'sim', seed: 11, tps: 30, skipRate: 0.05, slotsPerEpoch: 256, validators: 8, maxSlots: 3000, fast: true } as const;
const PACED_SLOT_MS = 50;
const TOPICS = { partitions: 3, replicationFactor: 3, retentionMs: -1 } as const;
const KINDS: readonly TopicKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs', 'parsed', 'deadletter'];
const DATABASE = 'fault';

const started = Date.now();
const phases: string[] = [];
function note(msg: string): void {
  const line = `[fault +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`;
  phases.push(line);
  process.stderr.write(line + '\n');
}

// ---- the 10 streams: a SubscribeRequest and the same filter as a plain predicate --------------------

const b58 = (b: Buffer): string => bs58.encode(b);
const keysOf = (t: TransactionEvent): Buffer[] => [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly];
const has = (t: TransactionEvent, k: Buffer): boolean => keysOf(t).some((x) => x.equals(k));
const never = (): boolean => false;
const RICH = 10_000_000_000n; // 10 SOL

interface StreamSpec extends StreamExpectation {
  name: string;
  request: object;
}

const SPECS: StreamSpec[] = [
  {
    name: 'all-transactions',
    request: { transactions: { all: {} } },
    commitment: 'processed',
    matchTransaction: () => true,
    matchAccount: never,
  },
  {
    name: 'pump-transactions',
    request: { transactions: { pump: { account_include: [b58(PUMP_PROGRAM)] } } },
    commitment: 'processed',
    matchTransaction: (t) => has(t, PUMP_PROGRAM),
    matchAccount: never,
  },
  {
    name: 'votes',
    request: { transactions: { v: { vote: true } } },
    commitment: 'processed',
    matchTransaction: (t) => t.isVote,
    matchAccount: never,
  },
  {
    name: 'failed-non-votes',
    request: { transactions: { f: { vote: false, failed: true } } },
    commitment: 'processed',
    matchTransaction: (t) => !t.isVote && t.err !== undefined,
    matchAccount: never,
  },
  {
    name: 'token-without-pump',
    request: { transactions: { t: { account_include: [b58(TOKEN_PROGRAM)], account_exclude: [b58(PUMP_PROGRAM)] } } },
    commitment: 'processed',
    matchTransaction: (t) => has(t, TOKEN_PROGRAM) && !has(t, PUMP_PROGRAM),
    matchAccount: never,
  },
  {
    name: 'bonding-curves',
    request: { accounts: { c: { owner: [b58(PUMP_PROGRAM)], filters: [{ datasize: String(BONDING_CURVE_LEN) }] } } },
    commitment: 'processed',
    matchTransaction: never,
    matchAccount: (a) => a.owner.equals(PUMP_PROGRAM) && a.data.length === BONDING_CURVE_LEN,
  },
  {
    name: 'token-accounts',
    request: { accounts: { t: { owner: [b58(TOKEN_PROGRAM)], filters: [{ datasize: String(TOKEN_ACCOUNT_LEN) }] } } },
    commitment: 'processed',
    matchTransaction: never,
    matchAccount: (a) => a.owner.equals(TOKEN_PROGRAM) && a.data.length === TOKEN_ACCOUNT_LEN,
  },
  { name: 'all-accounts', request: { accounts: { all: {} } }, commitment: 'processed', matchTransaction: never, matchAccount: () => true },
  {
    name: 'memos-and-rich-accounts',
    request: {
      transactions: { m: { account_required: [b58(MEMO_PROGRAM)] } },
      accounts: { r: { filters: [{ lamports: { gt: String(RICH) } }] } },
    },
    commitment: 'processed',
    matchTransaction: (t) => has(t, MEMO_PROGRAM),
    matchAccount: (a) => a.lamports > RICH,
  },
  {
    name: 'pump-confirmed',
    request: {
      transactions: { p: { account_include: [b58(PUMP_PROGRAM)] } },
      accounts: { p: { owner: [b58(PUMP_PROGRAM)] } },
      commitment: 'CONFIRMED',
    },
    commitment: 'confirmed',
    matchTransaction: (t) => has(t, PUMP_PROGRAM),
    matchAccount: (a) => a.owner.equals(PUMP_PROGRAM),
  },
];
/** Cut on purpose while a broker is down, and while the ingest is down. */
const CUT_AT_BROKER_FAULT = [0, 5, 9];
const CUT_AT_INGEST_FAULT = [1, 7, 8];

// ---- the run ---------------------------------------------------------------------------------------

let cluster: LocalKafka | undefined;
let infra: KafkaInfra | undefined;
let ch: ClickHouseClient | undefined;
let projector: Projector | undefined;
let grpcServer: TestGrpc | undefined;
let ingest: IngestProcess | undefined;
const clients: { close(): void }[] = [];
const streams: { spec: StreamSpec; stream: ResumableStream }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'slotstream-fault-'));
let log: Logger;
let passed = false;

beforeAll(async () => {
  log = pino({ level: 'warn' }, pino.destination({ dest: join(dir, 'service.log'), sync: false }));
  cluster = await startLocalKafka({ nodes: 3, log: (msg, extra) => note(`${msg} ${JSON.stringify(extra ?? {})}`) });
});

afterAll(async () => {
  for (const { stream } of streams) stream.close();
  for (const c of clients) c.close();
  await ingest?.kill();
  await grpcServer?.close();
  await projector?.stop();
  await infra?.kafka.close();
  await ch?.close();
  await cluster?.stop();
  process.stderr.write(`[fault] phases:\n${phases.join('\n')}\n`);
  if (passed) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`[fault] service log and data kept in ${dir}\n`);
});

function config(role: 'ingest' | 'projector', prefix: string, extra: Partial<Omit<Config, 'role'>> = {}): Config {
  return makeConfig(role, { kafkaBrokers: cluster!.brokers, topicPrefix: prefix, ...TOPICS, logLevel: 'info', ...extra });
}

/** The highest slot committed so far (the ingest's own resume point). */
const lastSlot = async (topics: TopicNames): Promise<bigint> =>
  (await lastPublishedSlot(infra!.kafka, topics, { timeoutMs: 20_000 })) ?? -1n;

async function waitForSlot(topics: TopicNames, slot: bigint, what: string, timeoutMs = 180_000): Promise<bigint> {
  const got = await waitFor(
    async () => {
      const s = await lastSlot(topics);
      if (s >= slot) return s;
      return ingest && !ingest.running() ? 'exited' : undefined;
    },
    { what, timeoutMs, intervalMs: 250 },
  );
  if (got === 'exited')
    throw new Error(`waiting for ${what}: the ingest exited (${JSON.stringify(await ingest!.exited)}): ${ingest!.stderr().slice(-2000)}`);
  return got;
}

/** What Kafka holds now, while the chain moves on: the slots topic is listed first, so a slot whose end
 * marker (or confirmation) is in the snapshot has all its records in it (test/support/kafka/snapshot.ts). */
async function truthNow(topics: TopicNames): Promise<ChainTruth> {
  const kinds = ['slots', 'transactions', 'accounts'] as const;
  const snap = await snapshotTopics(
    infra!.kafka,
    kinds.map((k) => topics[k]),
  );
  const events: PlacedEvent[] = [];
  for (const kind of kinds) {
    snap.get(topics[kind])!.forEach((part, partition) => {
      for (const r of part) {
        const d = decodeRecord(kind, r.value);
        if (!d.ok) throw new Error(`undecodable ${kind} record at offset ${r.offset}: ${d.reason}`);
        events.push({ topic: topics[kind], partition, offset: r.offset, event: d.value });
      }
    });
  }
  return chainTruth(events);
}

/** Problems seen when a stream was cut (reported at the end, with the rest). */
const cutProblems: string[] = [];
let serial: Promise<void> = Promise.resolve();

/** Resumes streams whose session ended: each from the slot after the last one it received whole. */
function resume(topics: TopicNames, list: { spec: StreamSpec; stream: ResumableStream }[], why: string): Promise<void> {
  const run = async (): Promise<void> => {
    // Reading Kafka right after a broker crash fails until the leaders have moved and a new leader's
    // high watermark has caught up ("Leader high watermark is not caught up"): try again after a pause,
    // for up to a minute (five tries with no pause all failed within 0.1 s once).
    let truth: ChainTruth | undefined;
    const deadline = Date.now() + 60_000;
    while (!truth) {
      try {
        truth = await truthNow(topics);
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        note(`reading the topics to resume ${list.map((s) => s.spec.name).join(', ')} failed (${(err as Error).message}); again in 1 s`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
    for (const { spec, stream } of list) {
      const from = resumePoint(spec, truth, stream.received, 0n);
      // What the stream keeps (slots before the resume point, whole in Kafka) must be exactly what Kafka
      // holds: nothing extra or twice. Newer slots may hold records Kafka has not committed yet: the live
      // layer reads uncommitted, and a transaction the broker crash aborted comes again when the ingest
      // retries (docs/decisions.md "Live reads uncommitted"); the stream drops those slots and replays them.
      const { extra } = compareReceived(
        stream.received.filter((r) => r.slot < from),
        expectedBySlot(spec, truth),
      );
      if (extra.length > 0)
        cutProblems.push(`${spec.name} (${why}): ${extra.length} updates received more often than Kafka holds them, e.g. ${extra[0]}`);
      // Behind is allowed (the cut came first); a hole before what the session received is not.
      const skipped = skippedUpdates(spec, truth, stream.sessionUpdates(), stream.sessions.at(-1)!.fromSlot);
      if (skipped.length > 0) cutProblems.push(`${spec.name} (${why}): ${skipped.length} updates skipped, e.g. ${skipped[0]}`);
      const before = stream.received.length;
      const newest = stream.received.reduce((m, r) => (r.slot > m ? r.slot : m), -1n);
      stream.start(from);
      note(
        `${spec.name}: ${why}; resumed with from_slot ${from} (kept ${stream.received.length} of ${before} updates; newest slot received ${newest}; Kafka at slot ${truth.maxSlot})`,
      );
    }
  };
  const done = serial.then(run, run);
  serial = done.catch(
    (err: unknown) =>
      void cutProblems.push(`resuming ${list.map((s) => s.spec.name).join(', ')} (${why}) failed: ${(err as Error).message}`),
  );
  return serial;
}

/** Resumes, in the background, streams the server ended (none should be, but a client must cope). */
function healer(topics: TopicNames): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    const broken = streams.filter((s) => !s.stream.open && s.stream.broken !== undefined);
    if (broken.length === 0) return;
    busy = true;
    const why = broken.map((s) => `${s.spec.name}: ${s.stream.broken}`).join('; ');
    note(`server ended streams: ${why}`);
    void resume(topics, broken, 'ended by the server').finally(() => (busy = false));
  }, 250);
  return () => clearInterval(timer);
}

/** The first missing updates of a stream: slot, the slot's statuses, place in Kafka, and the sessions. */
function describeMissing(missing: readonly string[], truth: ChainTruth, stream: ResumableStream): string {
  const shown = missing.slice(0, 12).map((id) => {
    const p = truth.places.get(id);
    const statuses = p ? [...(truth.statuses.get(p.slot) ?? [])].sort().join('/') : '?';
    return `${id.slice(0, 20)}… slot ${p?.slot ?? '?'} (statuses ${statuses}; ${p?.tp ?? '?'} offset ${p?.offset ?? '?'})`;
  });
  const sessions = stream.sessions.map((s) => `from ${s.fromSlot}: ${s.received} received${s.endedBy ? `, ${s.endedBy}` : ''}`);
  return `${shown.join('; ')}; sessions: ${sessions.join(' | ')}`;
}

it('survives a broker crash and an ingest crash: same records, same views, every update once', async () => {
  // 1. The fault-free reference: the same seed, unpaced, on its own prefix.
  const refPrefix = uniquePrefix('fault-ref');
  const refConfig = config('ingest', refPrefix, { ...SIM, slotMs: 0 });
  const refInfra = await connectKafka(refConfig, log);
  try {
    await (
      await startIngest(ingestSection(refConfig), log, refInfra)
    ).done;
  } finally {
    await refInfra.kafka.close();
  }
  note('reference run published');

  // 2. Projector, api and streams on the fault run's prefix, before the first record.
  const prefix = uniquePrefix('fault-run');
  const projectorConfig = config('projector', prefix, {
    clickhouseDatabase: DATABASE,
    groupId: `g-${prefix}`,
    batchRows: 5000,
    batchMs: 100,
  });
  infra = await connectKafka(projectorConfig, log);
  const { topics } = infra;
  ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: DATABASE });
  await applyMigrations(ch, DATABASE);
  projector = await startProjector(projectorSection(projectorConfig), log, { ch, kafka: infra.kafka, topics });
  // Slow-client cut-offs are slow-client.int.test.ts's subject; here the clients share the server's CPU.
  grpcServer = await startTestGrpc({
    kafka: infra.kafka,
    topics,
    ch,
    database: DATABASE,
    host: '127.0.0.1',
    port: 0,
    pingIntervalMs: 10_000,
    queueSize: 1_000_000,
    log,
  });
  for (const spec of SPECS) {
    const client = newClient(grpcServer.port);
    clients.push(client);
    const stream = new ResumableStream(spec.name, client, spec.request);
    stream.start(0n);
    streams.push({ spec, stream });
  }
  const stopHealer = healer(topics);
  try {
    // 3. The ingest, paced, in a child process.
    const ingestConfig = config('ingest', prefix, { ...SIM, slotMs: PACED_SLOT_MS });
    ingest = spawnIngest(ingestConfig);
    await waitForSlot(topics, 300n, 'the ingest to publish 300 slots');

    // 4. Ingest fault: SIGKILL the child mid-slot (the slot's first records committed in Kafka, its end
    // marker not; each paced slot spans several Kafka transactions), found by freezing it
    // (test/support/ingest/freeze-at-cut.ts), then start it again on the same prefix. A kill that still
    // landed between two slots (a commit finishing as the child froze) is tried again.
    let cut: ResumePoint | undefined;
    for (let attempt = 1; !cut; attempt++) {
      expect(ingest.running()).toBe(true);
      await freezeAtCut(ingest, infra.kafka, topics, { timeoutMs: 120_000 });
      const exit = await ingest.kill();
      expect(exit.signal).toBe('SIGKILL');
      const point = await ingestResumePoint(infra.kafka, topics, { timeoutMs: 20_000 });
      if (point.openSlot !== undefined) {
        cut = point;
        break;
      }
      expect(attempt, 'no SIGKILL landed mid-slot in 5 tries').toBeLessThan(5);
      note(`ingest SIGKILLed between slots (after slot ${point.afterSlot}); restarting it to kill it again`);
      ingest = spawnIngest(ingestConfig);
      await waitForSlot(topics, (await lastSlot(topics)) + 10n, 'the restarted ingest to publish 10 more slots');
    }
    const atIngestKill = await lastSlot(topics);
    note(
      `ingest SIGKILLed mid-slot ${cut.openSlot}: ${cut.held.size} records after slot ${cut.afterSlot}, the newest whole one, are in Kafka`,
    );
    const cutLater = CUT_AT_INGEST_FAULT.map((i) => streams[i]!);
    for (const s of cutLater) s.stream.cut();
    await resume(topics, cutLater, 'cut while the ingest is down');
    ingest = spawnIngest(ingestConfig);
    const second = ingest;
    await waitForSlot(topics, atIngestKill + 200n, 'the restarted ingest to publish 200 more slots');
    expect(second.stderr()).toMatch(
      /resuming after slot \d+, the newest one Kafka holds whole; \d+ records published after it are skipped by identity/,
    );
    note(`restarted ingest at slot ${await lastSlot(topics)}`);

    // 5. Broker fault while the restarted ingest runs: SIGKILL the leader of the slots topic's
    // partition 0, let the chain go on with two brokers, start it again, wait until it has caught up.
    const meta = await brokerMetadata(cluster!.brokers[0]!, [topics.slots]);
    const leader = meta.topics[0]!.partitions.find((p) => p.partition === 0)!.leader;
    const victimAddress = meta.brokers.find((b) => b.nodeId === leader)!;
    const victim = cluster!.brokers.indexOf(`${victimAddress.host}:${victimAddress.port}`);
    expect(victim).toBeGreaterThanOrEqual(0);
    const atBrokerKill = await lastSlot(topics);
    expect(second.running()).toBe(true);
    await cluster!.stopNode(victim, 'SIGKILL');
    note(`broker ${cluster!.brokers[victim]} (node ${leader}) SIGKILLed at slot ${atBrokerKill}`);
    const cutNow = CUT_AT_BROKER_FAULT.map((i) => streams[i]!);
    for (const s of cutNow) s.stream.cut();
    // Resumed in the background: reading the topics waits for the leaders to move.
    const resumed = resume(topics, cutNow, 'cut while a broker is down');
    // Two of three brokers keep min.insync.replicas: the chain goes on.
    await waitForSlot(topics, atBrokerKill + 200n, 'the ingest to publish 200 more slots on two brokers');
    note(`ingest at slot ${await lastSlot(topics)} on two brokers`);
    // The streams left alone keep receiving live updates while the broker is down.
    const uncut = streams.filter((s, i) => !CUT_AT_BROKER_FAULT.includes(i) && s.spec.commitment === 'processed');
    const newestOf = (s: ResumableStream): bigint => s.received.reduce((m, r) => (r.slot > m ? r.slot : m), -1n);
    await waitFor(() => uncut.every((s) => newestOf(s.stream) >= atBrokerKill + 100n), {
      what: 'the streams not cut to receive updates 100 slots past the broker crash',
      timeoutMs: 120_000,
      intervalMs: 250,
    });
    note(`streams not cut are live past slot ${atBrokerKill + 100n} with the broker down`);
    await cluster!.startNode(victim);
    note(`broker ${cluster!.brokers[victim]} restarted`);
    const topicList = KINDS.map((k) => topics[k]);
    await waitFor(
      async () => {
        const view = await brokerMetadata(cluster!.brokers[victim]!, topicList);
        return view.topics.every((t) => t.errorCode === 0 && t.partitions.every((p) => p.isr.length === 3));
      },
      { what: 'the restarted broker back in every ISR', timeoutMs: 180_000, intervalMs: 500 },
    );
    note('restarted broker back in every ISR');
    await waitForSlot(topics, (await lastSlot(topics)) + 50n, 'the ingest to publish 50 more slots on three brokers');
    expect(second.running(), 'the ingest must still be running after the broker came back (pace it slower)').toBe(true);
    await resumed;
    // A resume that could not read the topics leaves its streams closed for good: say so now, not after
    // the wait for their updates times out.
    expect(cutProblems.filter((p) => p.startsWith('resuming'))).toEqual([]);
    const end = await waitFor(async () => (second.running() ? undefined : second.exited), {
      what: 'the ingest to finish',
      timeoutMs: 300_000,
      intervalMs: 250,
    });
    expect(end, second.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
    note('ingest finished');

    // 6. The topics hold the same records as the fault-free run.
    const got = await readKinds(infra.kafka, topics, KINDS);
    const want = await readKinds(infra.kafka, topicNames(refPrefix), KINDS);
    expect(recordCount(want)).toBeGreaterThan(50_000);
    expect(recordsDifference(got, want)).toBeUndefined();
    note(`topics equal the reference (${recordCount(got)} records)`);
    // Every slot ended with its marker, whose counts are what the partitions hold of the slot.
    const contents = new Map(KINDS.map((k) => [topics[k], got[k] ?? []]));
    const markers = checkMarkers(contents, topics);
    expect(markers).toEqual({ markers: SIM.maxSlots, wrong: [], late: [] });

    // 7. The views equal the independent computation from the topics.
    const records = await consumeAll(infra.kafka, topics);
    const programs = [...new Set(records.flatMap((r) => (r.event.kind === 'accounts' ? [b58(r.event.event.owner)] : [])))].sort();
    const views = expectedViews(records, programs);
    await waitFor(
      async () => (await kafkaLag(ch!, DATABASE)) === 0n && JSON.stringify(await heads(ch!, DATABASE)) === JSON.stringify(views.heads),
      {
        what: 'the projector to catch up',
        timeoutMs: 180_000,
        intervalMs: 500,
      },
    );
    const dumped = await dumpViews(ch, DATABASE, programs);
    for (const key of Object.keys(views)) expect(dumped[key], key).toEqual(views[key]);
    note(`views equal the independent computation (${views.transactions!.length} transactions)`);

    // 8. Every stream received every matching update exactly once.
    const truth = chainTruth(records);
    const expected = streams.map(({ spec }) => expectedBySlot(spec, truth));
    const total = (i: number): number => [...expected[i]!.values()].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
    // The wait's error names the streams still short (a timeout says which one and how it ended), and
    // then which updates each one lacks: their slots, statuses and places in Kafka.
    await waitFor(
      () => {
        const short = streams.flatMap(({ spec, stream }, i) =>
          stream.open && stream.received.length >= total(i)
            ? []
            : [
                `${spec.name}: ${stream.received.length}/${total(i)}${stream.open ? '' : ' (closed)'} over ${stream.sessions.length} session(s)`,
              ],
        );
        if (short.length > 0) throw new Error(`short: ${short.join('; ')}`);
        return true;
      },
      {
        what: 'every stream to receive its updates',
        timeoutMs: 180_000,
        intervalMs: 250,
      },
    ).catch((err: unknown) => {
      const lacking = streams.flatMap(({ spec, stream }, i) => {
        const { missing } = compareReceived(stream.received, expected[i]!);
        return missing.length === 0 ? [] : [`${spec.name} lacks ${missing.length}: ${describeMissing(missing, truth, stream)}`];
      });
      throw new Error(`${(err as Error).message}\n${lacking.join('\n')}`);
    });
    expect(cutProblems).toEqual([]);
    for (const [i, { spec, stream }] of streams.entries()) {
      const diff = compareReceived(stream.received, expected[i]!);
      expect(total(i), `${spec.name} expects updates`).toBeGreaterThan(0);
      expect({
        stream: spec.name,
        missing: diff.missing.length,
        extra: diff.extra.length,
        firstMissing: diff.missing[0],
        firstExtra: diff.extra[0],
      }).toEqual({
        stream: spec.name,
        missing: 0,
        extra: 0,
        firstMissing: undefined,
        firstExtra: undefined,
      });
      note(
        `${spec.name}: ${total(i)} updates once each over ${stream.sessions.length} session(s): ${stream.sessions.map((s) => `from ${s.fromSlot}${s.refused > 0 ? ` (refused ${s.refused}x, asked again)` : ''}${s.endedBy ? ` (${s.endedBy}, ${s.received} received, ${s.dropped ?? 0} dropped)` : ''}`).join(', ')}`,
      );
    }
    passed = true;
  } finally {
    stopHealer();
  }
});
