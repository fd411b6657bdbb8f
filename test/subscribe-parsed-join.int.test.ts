// SubscribeParsed's curve/pool join against the real broker when the two topics are read far apart
// (api/pumpfun/join.ts, issue 20): the simulator's pump.fun/PumpSwap traffic on 2 partitions per topic, the
// account writes published (and read by the live tail) well before their transactions, as a tail that reads the
// accounts topic ahead does in a backlog; then the same history replayed through `from_slot`. Every delivered
// transaction that wrote a pump-owned account carries that write (`account`, and `pool` for PumpSwap), in both.
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUMP } from '../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../schemas/pumpfun/pump-amm-table.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import type { AccountEvent, ChainEvent } from '../schemas/codec.js';
import { topicNames } from '../schemas/topics.js';
import { newClient, TestPublisher, type Msg } from './support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from './support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { collect } from './support/sim/checks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const OWNERS = new Set([PUMP.programIdBytes, PUMP_AMM.programIdBytes].map(hex));

class Parsed {
  readonly updates: Msg[] = [];
  error: grpc.ServiceError | undefined;
  constructor(readonly call: grpc.ClientDuplexStream<Msg, Msg>) {
    call.on('data', (m: Msg) => this.updates.push(m));
    call.on('error', (e: grpc.ServiceError) => (this.error = e));
  }
}

describe('SubscribeParsed join: every trade carries its write when the topics are read far apart (real broker)', () => {
  const topics = topicNames(uniquePrefix('parsed-join'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  const open: Parsed[] = [];
  let writes: ChainEvent[] = [];
  let rest: ChainEvent[] = [];
  /** Pump-owned writes by the signature of the transaction that made them (hex): their pubkeys (hex). */
  const wrote = new Map<string, Set<string>>();
  let firstSlot = 0n;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'parsed-join-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
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
    // At 1,000 tx/s curves complete within a few slots: PumpSwap pools are created and traded too.
    const chain = (await collect({ seed: 7, maxSlots: 8, fast: true, tps: 1000 })).flatMap((b) => b.events);
    writes = chain.filter((e) => e.kind === 'accounts');
    rest = chain.filter((e) => e.kind !== 'accounts');
    for (const e of writes) {
      const a = e.event as AccountEvent;
      if (!a.txnSignature?.length || !OWNERS.has(hex(a.owner))) continue;
      const s = hex(a.txnSignature);
      if (!wrote.has(s)) wrote.set(s, new Set());
      wrote.get(s)!.add(hex(a.pubkey));
    }
    firstSlot = chain.reduce((m, e) => (e.kind === 'transactions' && (m === 0n || e.event.slot < m) ? e.event.slot : m), 0n);
  }, 120_000);

  afterAll(async () => {
    for (const p of open) p.call.cancel();
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  function parsed(req?: Msg): Parsed {
    const p = new Parsed(client.SubscribeParsed());
    open.push(p);
    if (req !== undefined) p.call.write(req);
    return p;
  }

  /** Every update whose transaction wrote a pump-owned account carries a write of that transaction. */
  function expectJoined(p: Parsed, what: string): void {
    expect(p.error, what).toBeUndefined();
    const lacking: string[] = [];
    let joined = 0;
    for (const u of p.updates) {
      const sig = hex(u.signature);
      const keys = wrote.get(sig);
      if (keys === undefined) continue;
      const acc = u.account?.account;
      const ok = acc !== undefined && hex(acc.txn_signature ?? Buffer.alloc(0)) === sig && keys.has(hex(acc.pubkey));
      if (ok) joined++;
      else lacking.push(sig.slice(0, 16));
    }
    expect(lacking, `${what}: transactions delivered without their curve/pool write`).toEqual([]);
    expect(joined, `${what}: joined transactions`).toBeGreaterThan(100);
  }

  it('live: writes read well before their transactions; then a from_slot replay of the backlog', async () => {
    const live = parsed();
    await pub.publish(writes);
    const lastWriteSlot = writes.reduce((m, e) => ((e.event as AccountEvent).slot > m ? (e.event as AccountEvent).slot : m), 0n);
    await waitFor(() => (server.chainTip() ?? 0n) >= lastWriteSlot, { what: 'the tail read the writes' });
    // The transactions come 1.5 s of wall time after their writes (a tail reading the accounts topic ahead).
    await new Promise((r) => setTimeout(r, 1_500));
    for (let i = 0; i < rest.length; i += 2_000) await pub.publish(rest.slice(i, i + 2_000));
    const want = rest.filter((e) => e.kind === 'transactions' && wrote.has(hex(e.event.signatures[0]!))).length;
    await waitFor(() => live.updates.filter((u) => wrote.has(hex(u.signature))).length >= want || live.error, {
      what: `live: ${want} transactions with writes`,
      timeoutMs: 60_000,
    });
    expectJoined(live, 'live');

    const replay = parsed({ from_slot: String(firstSlot) });
    await waitFor(() => replay.updates.filter((u) => wrote.has(hex(u.signature))).length >= want || replay.error, {
      what: `replay: ${want} transactions with writes`,
      timeoutMs: 60_000,
    });
    expectJoined(replay, 'from_slot replay');
  }, 180_000);
});
