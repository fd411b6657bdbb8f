// Issue 18 item 12: concurrent from_slot replays are bounded per process (--max-replays). With the bound at 1, a
// second concurrent replay, on either gRPC service, ends with RESOURCE_EXHAUSTED naming the limit; once the first
// ends (its history handed over, or its stream cancelled) a new one is accepted.
//
// A replay is held open deterministically by an open Kafka transaction: the live tail reads uncommitted, so its
// positions (where a replay must get to) are past the open transaction's records, while the replay reads
// committed and cannot pass them until the transaction commits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import * as grpc from '@grpc/grpc-js';
import { createKafka, type Kafka, type TransactionalProducer } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { encodeRecord, type ChainEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { key, newClient, subscribe, txEvent, type Msg, type Recorder } from '../../test/support/grpc/clients.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder, type GeyserClient } from '../../test/support/geyser/client.js';
import { replaysRunning } from '../live/metrics.js';
import { startTestGrpc, type TestGrpc } from '../../test/support/grpc/server.js';

const running = async (): Promise<number> => (await replaysRunning.get()).values[0]?.value ?? 0;

describe('bounded concurrent from_slot replays (--max-replays 1)', () => {
  const topics = topicNames(uniquePrefix('grpc-replay-limit'));
  const watched = key();
  const w58 = bs58.encode(watched);
  let kafka: Kafka;
  let server: TestGrpc;
  let producer: TransactionalProducer;
  let geyser: GeyserClient;
  let client: Msg;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-replay-limit-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    producer = await kafka.transactionalProducer({ transactionalId: `${topics.transactions}-writer` });
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      queueSize: 1000,
      log: silentLogger,
      pingIntervalMs: 60_000,
      maxReplays: 1,
    });
    geyser = await connectGeyser(server.port);
    client = newClient(server.port);
  });

  afterAll(async () => {
    for (const o of opened) o.close();
    client?.close();
    await server?.close();
    await producer?.close();
    await kafka?.close();
  });

  /** Begins a transaction holding a transaction of `watched` at `slot`, and waits until the live tail read it. */
  async function openTransaction(slot: bigint): Promise<string> {
    const e: ChainEvent = { kind: 'transactions', event: txEvent(slot, [watched, key()]) };
    await producer.begin();
    producer.send({ topic: topics.transactions, partition: 0, ...encodeRecord(e) });
    await waitFor(() => (server.chainTip() ?? 0n) >= slot, { what: `the live tail read slot ${slot} uncommitted`, timeoutMs: 300_000 });
    return bs58.encode(e.event.signatures[0]!);
  }

  async function streamReplay(fromSlot: bigint): Promise<Recorder> {
    const r = subscribe(client);
    opened.push({ close: () => r.cancel() });
    r.send({ transactions: { w: { account_include: [w58] } }, from_slot: String(fromSlot) });
    r.send({ ping: { id: 1 } });
    await waitFor(() => r.of('pong').length === 1 || r.error !== undefined, { what: 'stream.Stream request handled' });
    return r;
  }

  async function geyserReplay(fromSlot: bigint): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(geyser);
    opened.push(r);
    r.write(
      geyserRequest({
        transactions: { w: { accountInclude: [w58], accountExclude: [], accountRequired: [] } },
        fromSlot: String(fromSlot),
      }),
    );
    r.write(geyserRequest({ ping: { id: 1 } }));
    await waitFor(() => r.of('pong').length === 1 || r.error !== undefined, { what: 'geyser request handled' });
    return r;
  }

  const sigOf = (u: Msg): string => bs58.encode(u.transaction.transaction.signature);
  const geyserSigs = (r: GeyserRecorder): string[] => r.of('transaction').map((u) => bs58.encode(u.transaction.transaction!.signature));

  it('a second replay is refused with RESOURCE_EXHAUSTED naming the limit; after the first hands over, a new one is accepted', async () => {
    const slot = 1000n;
    const sig = await openTransaction(slot);

    const first = await geyserReplay(slot);
    expect(first.error).toBeUndefined();

    // Over the bound on both services.
    const secondStream = await streamReplay(slot);
    await waitFor(() => secondStream.error !== undefined, { what: 'stream.Stream refused' });
    expect(secondStream.error!.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(secondStream.error!.details).toMatch(/too many concurrent from_slot replays: at most 1 per api process \(--max-replays 1\)/);
    const secondGeyser = await geyserReplay(slot);
    await waitFor(() => secondGeyser.error !== undefined, { what: 'geyser.Geyser refused' });
    expect(errorText(secondGeyser.error)).toMatch(/resource has been exhausted/i);
    expect(errorText(secondGeyser.error)).toContain('at most 1 per api process (--max-replays 1)');
    // The refused ones took no permit: the first still runs, alone.
    expect(await running()).toBe(1);

    // The transaction commits: the first replay gets to the live positions, hands over, and its reader stops.
    await producer.commit();
    await waitFor(() => geyserSigs(first).includes(sig), { what: 'the first replay delivered the history' });
    await waitFor(async () => (await running()) === 0, { what: 'the first replay reader stopped' });
    expect(first.error).toBeUndefined();

    const next = await streamReplay(slot);
    await waitFor(() => next.of('transaction').some((u) => sigOf(u) === sig) || next.error !== undefined, {
      what: 'the next replay delivered the history',
    });
    expect(next.error).toBeUndefined();
    await waitFor(async () => (await running()) === 0, { what: 'the next replay reader stopped' });
  });

  it('a replay whose stream is cancelled gives its place back once its reader stopped', async () => {
    const slot = 2000n;
    const sig = await openTransaction(slot);

    const first = await streamReplay(slot);
    expect(first.error).toBeUndefined();
    const refused = await geyserReplay(slot);
    await waitFor(() => refused.error !== undefined, { what: 'geyser.Geyser refused' });
    expect(errorText(refused.error)).toContain('at most 1 per api process');
    expect(await running()).toBe(1);

    first.cancel();
    await waitFor(async () => (await running()) === 0, { what: 'the cancelled replay reader stopped' });
    const accepted = await geyserReplay(slot);
    expect(accepted.error).toBeUndefined();
    expect(await running()).toBe(1);
    await producer.commit();
    await waitFor(() => geyserSigs(accepted).includes(sig) || accepted.error !== undefined, {
      what: 'the accepted replay delivered the history',
    });
    expect(accepted.error).toBeUndefined();
  });
});
