// SubscribeParsed and the October 2026 pump programs (issue 34) against the real broker, fed as the ingest
// publishes (each slot framed whole, its parsed records built by the framer): a client of today's proto
// (proto-loader on proto/stream.proto) sees a v3 trade, a PumpSwap v2 trade, a multi-hop route, a sweep and a
// synthetic migration with their typed members and trades (ParsedTrade; the route one per hop, the USDC-quoted trade
// and sweep with USDC named), live at every commitment (PROCESSED, CONFIRMED, FINALIZED) and again on from_slot
// replays at every commitment; a stream with trade filters gets only the transaction whose trade meets them.
// The transactions are built from the tables' layouts (test/support/pump/october-trades.ts says what facts they rest on).
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import type { TransactionEvent } from '../../../schemas/gen/events.js';
import { topicNames } from '../../../schemas/topics.js';
import { newClient, slotEvent, TestPublisher, txEvent, type Msg } from '../../../test/support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import {
  ammV2Buy,
  curveSweep,
  market,
  multiHop,
  pumpTx,
  syntheticMigration,
  USDC,
  v3Buy,
  WSOL,
} from '../../../test/support/pump/october-trades.js';

const SLOT = 900n;

function open(client: Msg, request: Msg): { call: Msg; got: Msg[] } {
  const call = client.SubscribeParsed();
  const got: Msg[] = [];
  call.on('data', (m: Msg) => got.push(m));
  call.on('error', () => undefined);
  call.write(request);
  return { call, got };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b58 = (b: Uint8Array): string => bs58.encode(b);

describe('gRPC SubscribeParsed: the October 2026 trades (issue 34)', () => {
  const topics = topicNames(uniquePrefix('grpc-parsed-oct'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  const user = randomBytes(32);
  const coin = market();
  const pooled = market();
  const hopA = market();
  const hopB = market();
  const migrating = market();
  const vault = randomBytes(32);
  let txs: Record<'v3' | 'v2' | 'hop' | 'sweep' | 'migration', TransactionEvent>;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-parsed-oct-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 1000,
      log: silentLogger,
    });
    client = newClient(server.port);
    const tx = (index: number, calls: Parameters<typeof pumpTx>[1]) => {
      const p = pumpTx(user, calls);
      return txEvent(SLOT, p.accountKeys, { index, instructions: p.instructions, innerInstructions: p.innerInstructions });
    };
    txs = {
      v3: tx(1, [v3Buy(user, coin)]),
      v2: tx(2, [ammV2Buy(user, pooled)]),
      hop: tx(3, [multiHop(user, hopA, hopB)]),
      sweep: tx(4, [curveSweep(coin, vault)]),
      migration: tx(5, [syntheticMigration(user, migrating)]),
    };
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  /** What a stream got, checked against the five transactions: typed members and trades. */
  function expectOctober(got: Msg[], what: string): void {
    const bySig = new Map(got.map((m) => [hex(m.signature), m]));
    const u = (k: keyof typeof txs): Msg => {
      const m = bySig.get(hex(txs[k].signatures[0]!));
      expect(m, `${what}: ${k}`).toBeDefined();
      return m;
    };
    expect(got, what).toHaveLength(5);

    const v3 = u('v3');
    expect(v3.instructions.map((x: Msg) => x.instruction_oneof)).toEqual(['buy_v3']);
    expect(v3.instructions[0].buy_v3).toMatchObject({ amount: '1000', max_sol_cost: '3000000', partial_fill: false });
    expect(v3.events[0].trade).toMatchObject({ ix_name: 'buy_v3', creator_fee_unclaimed: '107500', holder_rewards: '7500' });
    expect(v3.trades).toHaveLength(1);
    expect(v3.trades[0]).toMatchObject({ kind: 'buy', venue: 'curve', quote: 'USDC', quote_amount: '2500000', fees_kept: true });
    expect(b58(v3.trades[0].quote_mint)).toBe(b58(USDC));

    const v2 = u('v2');
    expect(v2.instructions.map((x: Msg) => x.instruction_oneof)).toEqual(['amm_buy_v2']);
    expect(v2.events[0].amm_buy).toMatchObject({ ix_name: 'buy_v2', virtual_quote_reserves: '-12345' });
    expect(v2.trades[0]).toMatchObject({ kind: 'buy', venue: 'pool', quote: 'SOL', base_amount: '4000', quote_amount: '800000' });
    expect(b58(v2.trades[0].mint)).toBe(b58(pooled.mint));

    const hop = u('hop');
    expect(hop.instructions.map((x: Msg) => x.instruction_oneof)).toEqual(['amm_multi_hop_swap', 'multi_hop_curve_swap']);
    // One ParsedTrade per hop, each with its own quote mint: SOL (as wrapped SOL) into A, then A itself into B.
    expect(hop.trades.map((t: Msg) => [t.venue, t.hop, t.hops, b58(t.mint), t.quote, b58(t.quote_mint)])).toEqual([
      ['pool', 0, 2, b58(hopA.mint), 'SOL', b58(WSOL)],
      ['curve', 1, 2, b58(hopB.mint), 'TOKEN', b58(hopA.mint)],
    ]);

    const sweep = u('sweep');
    expect(sweep.instructions.map((x: Msg) => x.instruction_oneof)).toEqual(['sweep_creator_fee']);
    expect(sweep.events[0].sweep_bonding_curve_fee).toMatchObject({ amount: '107500', bucket: 1 });
    expect(sweep.trades[0]).toMatchObject({ kind: 'fee_sweep', fee_bucket: 'creator', quote_amount: '107500', quote: 'USDC' });
    expect(b58(sweep.trades[0].trader)).toBe(b58(vault));

    const mig = u('migration');
    expect(mig.events.map((e: Msg) => e.event_oneof)).toEqual(['trade', 'complete', 'post_complete_buy']);
    expect(mig.events[2].post_complete_buy).toMatchObject({ base_out: '6000000', quote_in: '2000000000' });
    expect(mig.trades).toHaveLength(1);
    expect(mig.trades[0]).toMatchObject({
      kind: 'buy',
      venue: 'curve+pool',
      synthetic_migration: true,
      base_amount: '9000000',
      quote_amount: '3000000000',
    });
  }

  it('live and on from_slot replays at every commitment, with typed members and trades; trade filters on the trades', async () => {
    const live = open(client, {});
    const confirmed = open(client, { commitment: 'CONFIRMED' });
    const finalized = open(client, { commitment: 'FINALIZED' });
    // Trade filters: buys of the migrating coin of at least 2,000,000,000 lamports' quote (the summed trade only).
    const big = open(client, { trade_kinds: ['buy'], mints: [b58(migrating.mint)], min_quote_amount: '2000000001' });
    const sweeps = open(client, { trade_kinds: ['fee_sweep'], traders: [b58(vault)] });
    // The streams are open once the server counts them (a live stream starts at the tip).
    const { openStreams } = await import('../metrics.js');
    await waitFor(async () => ((await openStreams.get()).values.find((v) => v.labels.method === 'SubscribeParsed')?.value ?? 0) === 5, {
      what: 'five streams registered',
    });
    await pub.publishSlots([
      ...Object.values(txs).map((event) => ({ kind: 'transactions' as const, event })),
      { kind: 'slots', event: slotEvent(SLOT, 0) },
    ]);
    await waitFor(() => live.got.length >= 5, { what: 'the five transactions live' });
    expectOctober(live.got, 'live PROCESSED');
    await waitFor(() => big.got.length >= 1 && sweeps.got.length >= 1, { what: 'the trade-filtered streams' });
    expect(big.got.map((m) => hex(m.signature))).toEqual([hex(txs.migration.signatures[0]!)]);
    expect(sweeps.got.map((m) => hex(m.signature))).toEqual([hex(txs.sweep.signatures[0]!)]);

    // Held until the slot is confirmed (the processed stream, served from the same records, already has them).
    expect(confirmed.got).toHaveLength(0);
    expect(finalized.got).toHaveLength(0);
    await pub.publishSlots([{ kind: 'slots', event: slotEvent(SLOT, 1) }]);
    await waitFor(() => confirmed.got.length >= 5, { what: 'the five transactions at CONFIRMED' });
    expectOctober(confirmed.got, 'live CONFIRMED');

    // Replays from the slot at PROCESSED and CONFIRMED (the slot is confirmed); one at FINALIZED waits for it.
    const replay = open(client, { from_slot: String(SLOT) });
    const replayConfirmed = open(client, { from_slot: String(SLOT), commitment: 'CONFIRMED' });
    const replayFinalized = open(client, { from_slot: String(SLOT), commitment: 'FINALIZED' });
    await waitFor(() => replay.got.length >= 5 && replayConfirmed.got.length >= 5, { what: 'the five transactions replayed from_slot' });
    expectOctober(replay.got, 'from_slot PROCESSED');
    expectOctober(replayConfirmed.got, 'from_slot CONFIRMED');
    expect(finalized.got).toHaveLength(0);
    expect(replayFinalized.got).toHaveLength(0);

    await pub.publishSlots([{ kind: 'slots', event: slotEvent(SLOT, 2) }]);
    await waitFor(() => finalized.got.length >= 5 && replayFinalized.got.length >= 5, { what: 'the five transactions at FINALIZED' });
    expectOctober(finalized.got, 'live FINALIZED');
    expectOctober(replayFinalized.got, 'from_slot FINALIZED (opened before the slot was final)');
    // A replay opened once the slot is final gets them at once.
    const lateFinalized = open(client, { from_slot: String(SLOT), commitment: 'FINALIZED' });
    await waitFor(() => lateFinalized.got.length >= 5, { what: 'the five transactions replayed at FINALIZED' });
    expectOctober(lateFinalized.got, 'from_slot FINALIZED');
    for (const s of [live, confirmed, finalized, big, sweeps, replay, replayConfirmed, replayFinalized, lateFinalized]) s.call.cancel();
    // Nothing more arrived on the filtered streams (the other four transactions do not meet their filters).
    expect(big.got).toHaveLength(1);
    expect(sweeps.got).toHaveLength(1);
  });
});
