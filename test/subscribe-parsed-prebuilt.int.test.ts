// SubscribeParsed's updates built once by the ingest (issue 20, one parsed stream at 50,000 updates/s): the
// framer writes each pump transaction's encoded SubscribeUpdateParsedTransaction and a filter summary into its
// record (ingest/publish/parsed-update.ts) and the api forwards them (api/grpc/stream/prebuilt-parsed.ts).
// Against the real broker, over the simulator's traffic: the same chain published twice, as records written
// before (the api decodes, joins, encodes) and as the ingest writes them now; for every request filter both
// deliver exactly the same updates, live and through a from_slot replay. And the api does forward the record's
// bytes: a record whose prebuilt update differs from its decoded content goes out as the record says.
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUMP } from '../api/pumpfun/pump-table.js';
import { PUMP_AMM } from '../api/pumpfun/pump-amm-table.js';
import { parsedUpdates } from '../ingest/publish/parsed-update.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { SubscribeUpdateParsedTransaction } from '../proto/gen/stream.js';
import type { ChainEvent, TransactionEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { newClient, TestPublisher, type Msg } from './support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from './support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { collect } from './support/sim/checks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const MARKER = Buffer.from('prebuilt-marker');

class Parsed {
  readonly updates: Msg[] = [];
  error: grpc.ServiceError | undefined;
  constructor(readonly call: grpc.ClientDuplexStream<Msg, Msg>) {
    call.on('data', (m: Msg) => this.updates.push(m));
    call.on('error', (e: grpc.ServiceError) => (this.error = e));
  }
  bySignature(): Map<string, Msg> {
    return new Map(this.updates.map((u) => [hex(u.signature), u]));
  }
}

/** The chain's events as the framer writes them: each slot batch's pump transactions with their prebuilt fields. */
function withPrebuilt(batches: readonly { events: ChainEvent[] }[]): ChainEvent[] {
  return batches.flatMap((b) => {
    const fields = parsedUpdates(b.events);
    return b.events.map((e): ChainEvent => {
      const f = e.kind === 'transactions' ? fields.get(e.event) : undefined;
      return f === undefined ? e : { kind: 'transactions', event: { ...(e.event as TransactionEvent), ...f } };
    });
  });
}

describe('SubscribeParsed forwards the ingest-built updates: the same updates as the api builds (real broker)', () => {
  const plainTopics = topicNames(uniquePrefix('parsed-plain'));
  const builtTopics = topicNames(uniquePrefix('parsed-built'));
  let kafka: Kafka;
  const servers: TestGrpc[] = [];
  const clients: Msg[] = [];
  const open: Parsed[] = [];
  let plain: ChainEvent[] = [];
  let built: ChainEvent[] = [];
  let firstSlot = 0n;

  async function serve(topics: TopicNames): Promise<Msg> {
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    const server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    servers.push(server);
    const client = newClient(server.port);
    clients.push(client);
    return client;
  }

  async function publish(topics: TopicNames, events: readonly ChainEvent[]): Promise<void> {
    const pub = await TestPublisher.start(kafka, topics);
    for (let i = 0; i < events.length; i += 2_000) await pub.publish(events.slice(i, i + 2_000));
    await pub.stop();
  }

  function parsed(client: Msg, req?: Msg): Parsed {
    const p = new Parsed(client.SubscribeParsed());
    open.push(p);
    if (req !== undefined) p.call.write(req);
    return p;
  }

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'parsed-prebuilt-test' });
    // At 1,000 tx/s curves complete within a few slots: PumpSwap pools are created and traded too.
    const batches = await collect({ seed: 7, maxSlots: 8, fast: true, tps: 1000 });
    plain = batches.flatMap((b) => b.events);
    built = withPrebuilt(batches);
    firstSlot = plain.reduce((m, e) => (e.kind === 'transactions' && (m === 0n || e.event.slot < m) ? e.event.slot : m), 0n);
  }, 120_000);

  afterAll(async () => {
    for (const p of open) p.call.cancel();
    for (const c of clients) c.close();
    for (const s of servers) await s.close();
    await kafka?.close();
  });

  it('every filter, live and from_slot: the same updates from records with and without the prebuilt update', async () => {
    const prebuilt = built.filter((e) => e.kind === 'transactions' && (e.event as TransactionEvent).parsedUpdate !== undefined);
    const nonEmpty = prebuilt.filter((e) => (e.event as TransactionEvent).parsedUpdate!.length > 0);
    // Nearly every pump transaction of the simulator is joined inside its slot batch.
    expect(nonEmpty.length).toBeGreaterThan(500);
    const plainClient = await serve(plainTopics);
    const builtClient = await serve(builtTopics);
    // Filter values from the traffic: signers of pump transactions, keys the instructions name.
    const pumpTxs = prebuilt.map((e) => e.event as TransactionEvent);
    const users = [...new Set(pumpTxs.map((t) => bs58.encode(t.accountKeys[0]!)))].slice(0, 5);
    const mints = [...new Set(pumpTxs.flatMap((t) => t.accountKeys.slice(1, 3).map((k) => bs58.encode(k))))].slice(0, 4);
    const cases: [string, Msg | undefined][] = [
      ['default (sends nothing)', undefined],
      ['programs: PumpSwap', { programs: [PUMP_AMM.programId] }],
      ['programs: pump.fun', { programs: [PUMP.programId] }],
      ['instruction_kinds: buy_v2, buy_exact_sol_in', { instruction_kinds: ['buy_v2', 'buy_exact_sol_in'] }],
      ['event_kinds: TradeEvent, top level only', { event_kinds: ['TradeEvent'], instruction_level: 'TOP_LEVEL_ONLY' }],
      ['event_kinds: BuyEvent, inner only', { event_kinds: ['BuyEvent'], instruction_level: 'INNER_ONLY' }],
      ['inner only', { instruction_level: 'INNER_ONLY' }],
      ['mints', { mints }],
      ['users', { users }],
      ['include_failed', { include_failed: true }],
    ];
    const pairs = cases.map(([, r]) => [parsed(plainClient, r), parsed(builtClient, r)] as const);
    await new Promise((r) => setTimeout(r, 1_000));
    await publish(plainTopics, plain);
    await publish(builtTopics, built);
    const settle = async (ps: readonly Parsed[]): Promise<void> => {
      // Each pair's two streams end up with as many updates; then nothing more comes (the join's longest wait).
      for (let round = 0; round < 2; round++) {
        let last = -1;
        await waitFor(
          () => {
            const n = ps.reduce((a, p) => a + p.updates.length, 0);
            const still = n === last;
            last = n;
            return (still && n > 0) || ps.some((p) => p.error);
          },
          { what: 'the streams settle', timeoutMs: 60_000, intervalMs: 1_000 },
        );
      }
    };
    await settle(pairs.flat());
    const sizes: number[] = [];
    for (let i = 0; i < cases.length; i++) {
      const [a, b] = pairs[i]!;
      const what = cases[i]![0];
      expect(a.error, what).toBeUndefined();
      expect(b.error, what).toBeUndefined();
      expect(b.updates.length, `${what}: no duplicate`).toBe(b.bySignature().size);
      expect(b.bySignature(), what).toEqual(a.bySignature());
      sizes.push(a.updates.length);
    }
    // The cases select something, and the filters narrow.
    expect(
      sizes.every((n) => n > 0),
      JSON.stringify(sizes),
    ).toBe(true);
    expect(Math.max(...sizes.slice(1, -1))).toBeLessThan(sizes[0]!);
    expect(sizes[sizes.length - 1]).toBeGreaterThan(sizes[0]!);

    // A from_slot replay of the records with the prebuilt update: the same as live.
    const replay = parsed(builtClient, { from_slot: String(firstSlot) });
    await settle([replay]);
    expect(replay.error).toBeUndefined();
    expect(replay.bySignature()).toEqual(pairs[0]![1].bySignature());
  }, 240_000);

  it("forwards the record's prebuilt bytes as they are (the api does not rebuild them)", async () => {
    const builtClient = clients[1]!;
    const live = parsed(builtClient);
    await new Promise((r) => setTimeout(r, 1_000));
    const template = built.find(
      (e) =>
        e.kind === 'transactions' &&
        (e.event as TransactionEvent).parsedUpdate !== undefined &&
        (e.event as TransactionEvent).parsedUpdate!.length > 0,
    )!.event as TransactionEvent;
    const signature = randomBytes(64);
    const slot = 900_000n;
    // An update the api's own path would never build from this transaction: no instructions, a marker blockhash.
    const marker = Buffer.from(
      SubscribeUpdateParsedTransaction.encode(
        SubscribeUpdateParsedTransaction.fromPartial({ signature, slot, recentBlockhash: MARKER }),
      ).finish(),
    );
    await publish(builtTopics, [
      {
        kind: 'transactions',
        event: { ...template, slot, signatures: [signature, ...template.signatures.slice(1)], parsedUpdate: marker },
      },
    ]);
    await waitFor(() => live.updates.some((u) => hex(u.signature) === hex(signature)) || live.error, { what: 'the marked update' });
    const u = live.updates.find((x) => hex(x.signature) === hex(signature))!;
    expect(hex(u.recent_blockhash)).toBe(hex(MARKER));
    expect(u.instructions ?? []).toEqual([]);
  }, 60_000);
});
