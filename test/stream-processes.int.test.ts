// Streams served apart from the engine (issue 33, item 1), with the real broker and embedded ClickHouse:
// - `slotstream all --stream-processes 3`: three stream processes behind the one public gRPC port (Node's cluster
//   hands connections round-robin), the engine (projector, JSON-RPC, the views' internal endpoint) apart. Six
//   stream.Stream clients replay from slot 100 (start offsets from the engine's views over its endpoint) into the
//   live chain. One stream process is SIGKILLed: only its clients are dropped; each resumes with from_slot at the
//   last slot it saw, on a new connection (a survivor or the restarted process), and over both streams receives every
//   matching update exactly once; the other clients' streams run on untouched, complete. The primary restarts the
//   dead process. The engine's /metrics and status page count the streams of every stream process.
// - `slotstream api --serve streams` with no ClickHouse anywhere (no CLICKHOUSE_URL, no --views-url): serves a
//   complete from_slot stream (scanned from the log start) and never opens an engine (no data folder is made).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { ChainEvent } from '../schemas/codec.js';
import { cursorsTopic, topicNames } from '../schemas/topics.js';
import { ANY_PORTS } from './support/cli/served-ports.js';
import { portOf, startSlotstream, type SlotstreamProcess } from './support/cli/slotstream-process.js';
import { framedSlot } from './support/ingest/framed-slot.js';
import {
  accountEvent,
  b58,
  key,
  newClient,
  readTopics,
  slotEvent,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
  type Recorder,
  type StoredRecord,
} from './support/grpc/clients.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';

const A = key();
const OWNER = key();

function slotEvents(slot: bigint): ChainEvent[] {
  const data: ChainEvent[] = [
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, Buffer.alloc(8, Number(slot % 256n))) },
    { kind: 'transactions', event: txEvent(slot, [key(), A]) },
  ];
  return [...framedSlot(slot, data), { kind: 'slots', event: slotEvent(slot, 1) }, { kind: 'slots', event: slotEvent(slot, 2) }];
}

const isData = (u: Msg): boolean => u.update_oneof === 'transaction' || u.update_oneof === 'account';
const slotOf = (u: Msg): bigint => BigInt(u.transaction?.slot ?? u.account?.slot);
const idOf = (u: Msg): string =>
  u.update_oneof === 'transaction'
    ? `tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`
    : `acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`;

function expectedIds(records: StoredRecord[], from: bigint, to: bigint): string[] {
  const out: string[] = [];
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'transactions' && e.event.slot >= from && e.event.slot <= to && e.event.accountKeys.some((k) => k.equals(A)))
      out.push(`tx:${e.event.signatures[0]!.toString('hex')}`);
    if (e.kind === 'accounts' && e.event.slot >= from && e.event.slot <= to && e.event.owner.equals(OWNER))
      out.push(`acc:${e.event.pubkey.toString('hex')}`);
  }
  return out.sort();
}

const prefix = uniquePrefix('stream-procs');
const topics = topicNames(prefix);
const dir = mkdtempSync(join(tmpdir(), 'stream-procs-'));
const streamsDir = mkdtempSync(join(tmpdir(), 'streams-only-'));
let kafka: Kafka;
let pub: TestPublisher;
const procs: SlotstreamProcess[] = [];
const open: Recorder[] = [];
const clients: { close(): void }[] = [];
let nextSlot = 100n;

async function publishSlots(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await pub.publish(slotEvents(nextSlot++));
}

beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'stream-processes-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
  pub = await TestPublisher.start(kafka, topics);
  await publishSlots(20); // 100..119: history before any client
});

afterAll(async () => {
  for (const r of open) r.cancel();
  for (const c of clients) c.close();
  for (const p of procs) await p.stop(20_000);
  await pub?.stop();
  await kafka
    ?.admin()
    .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
    .catch(() => undefined);
  await kafka?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(streamsDir, { recursive: true, force: true });
});

const env = { KAFKA_BROKERS: testBrokers().join(','), CLICKHOUSE_URL: undefined };

describe('stream processes', () => {
  it('behind one port: a SIGKILLed one drops only its clients, who resume with from_slot and lose nothing; the others run on; it is restarted', async () => {
    const filters = { transactions: { a: { account_include: [await b58(A)] } }, accounts: { o: { owner: [await b58(OWNER)] } } };
    const all = await startSlotstream(
      ['all', '--source', 'none', '--stream-processes', '3', '--topic-prefix', prefix, '--data-dir', dir, ...ANY_PORTS],
      env,
    );
    procs.push(all);
    const serving = await all.line('api is serving');
    expect(serving.streamProcesses).toBe(3);
    const port = portOf(serving.grpc);
    const pids = (await all.line('stream processes are serving')).pids as number[];
    expect(new Set(pids).size).toBe(3);
    expect(pids).not.toContain(all.child.pid);

    const end = nextSlot + 59n; // 179
    const subscribeFrom = (from: bigint): Recorder => {
      const c = newClient(port); // its own connection (local subchannel pool): the cluster hands it to a process
      clients.push(c);
      const r = subscribe(c);
      open.push(r);
      r.send({ ...filters, from_slot: from.toString(), to_slot: end.toString() });
      return r;
    };
    const first = Array.from({ length: 6 }, () => subscribeFrom(100n));
    await publishSlots(20); // 120..139 while they stream
    const reached = (r: Recorder, slot: bigint) => r.updates.some((u) => isData(u) && slotOf(u) >= slot);
    await waitFor(() => first.every((r) => reached(r, nextSlot - 1n)), {
      what: 'every client live at the newest slot',
      timeoutMs: 300_000,
    });

    // The engine answers for its stream processes: its /metrics and status page count every process's streams.
    const metricsPort = Number((await all.line('metrics and health on /metrics and /health')).port);
    const rpcPort = portOf(serving.jsonrpc);
    const openOnEngine = async (): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return Number(/^slotstream_grpc_streams\{method="Subscribe"\} (\d+)$/m.exec(text)?.[1] ?? -1);
    };
    await waitFor(async () => (await openOnEngine()) === first.length, {
      what: `the engine's /metrics to count the ${first.length} streams of its stream processes`,
      timeoutMs: 300_000,
    });
    const status = (await (await fetch(`http://127.0.0.1:${rpcPort}/status.json`)).json()) as {
      streams: { grpc: Record<string, number> };
    };
    expect(status.streams.grpc.Subscribe).toBe(first.length);

    process.kill(pids[0]!, 'SIGKILL');
    await waitFor(() => first.some((r) => r.error !== undefined), {
      what: 'the killed process’s clients to see their stream end',
      timeoutMs: 300_000,
    });
    await publishSlots(10); // 140..149: the chain moves on meanwhile
    const dropped = first.filter((r) => r.error !== undefined);
    const kept = first.filter((r) => r.error === undefined);
    // Spread: the killed process had clients, and the others had theirs.
    expect(dropped.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);

    // Each dropped client resumes at the last slot it saw (its updates of that slot are taken again from there).
    const resumed = dropped.map((r) => {
      const data = r.updates.filter(isData);
      const last = data.reduce((m, u) => (slotOf(u) > m ? slotOf(u) : m), 0n);
      return { before: data.filter((u) => slotOf(u) < last), after: subscribeFrom(last) };
    });
    await publishSlots(35); // 150..184: past the end slot
    const streams = [...kept, ...resumed.map((x) => x.after)];
    await waitFor(() => streams.every((r) => r.ended || r.error !== undefined), {
      what: 'every stream to end at its end slot',
      timeoutMs: 180_000,
    });

    const want = expectedIds(await readTopics(kafka, topics), 100n, end);
    expect(want.length).toBeGreaterThan(100);
    for (const r of kept) {
      expect(r.error).toBeUndefined();
      const got = r.updates.filter(isData).map(idOf);
      expect(new Set(got).size).toBe(got.length);
      expect(got.sort()).toEqual(want);
    }
    for (const { before, after } of resumed) {
      expect(after.error).toBeUndefined();
      const got = [...before, ...after.updates.filter(isData)].map(idOf);
      expect(new Set(got).size).toBe(got.length);
      expect(got.sort()).toEqual(want);
    }
    // The primary started another in the dead one's place.
    await all.line('stream process restarted');
    expect(
      all
        .lines()
        .filter((l) => l.msg === 'stream process died: starting another')
        .map((l) => l.pid),
    ).toEqual([pids[0]]);
    // One stopped on purpose (SIGTERM, or the SIGINT Ctrl-C sends the whole group) is not replaced: only a crash is.
    process.kill(pids[1]!, 'SIGTERM');
    expect((await all.line('stream process stopped')).pid).toBe(pids[1]);
    expect(all.lines().filter((l) => l.msg === 'stream process died: starting another')).toHaveLength(1);
  });

  it('api --serve streams runs with no ClickHouse: a from_slot stream is complete, no engine folder is made', async () => {
    const filters = { transactions: { a: { account_include: [await b58(A)] } }, accounts: { o: { owner: [await b58(OWNER)] } } };
    const api = await startSlotstream(['api', '--serve', 'streams', '--topic-prefix', prefix, '--data-dir', streamsDir, ...ANY_PORTS], env);
    procs.push(api);
    const serving = await api.line('streams are serving');
    const c = newClient(portOf(serving.grpc));
    clients.push(c);
    const r = subscribe(c);
    open.push(r);
    const end = nextSlot + 4n;
    r.send({ ...filters, from_slot: '110', to_slot: end.toString() });
    await publishSlots(10);
    await waitFor(() => r.ended || r.error !== undefined, { what: 'the stream to end at its end slot', timeoutMs: 300_000 });
    expect(r.error).toBeUndefined();
    const got = r.updates.filter(isData).map(idOf);
    expect(got.sort()).toEqual(expectedIds(await readTopics(kafka, topics), 110n, end));
    expect(existsSync(join(streamsDir, 'clickhouse'))).toBe(false);
    expect(api.output()).toMatch(/no --views-url and no CLICKHOUSE_URL/);
  });
});
