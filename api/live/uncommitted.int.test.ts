// The live layer reading uncommitted (live-tail.ts, identity-window.ts), against a real broker: records reach
// a stream before their Kafka transaction commits; a record of an aborted transaction and its identical
// re-publication (what a restarted ingest does) reach every stream once; a stream registered between the two
// copies, live or with a from_slot replay (which reads committed records only), gets the re-published one.
// One partition per topic, so per topic the reader's order is the produce order and "nothing more arrives"
// can be checked by waiting for a later record on each topic (across topics the order is not defined).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitmentLevel } from '../../proto/gen/stream.js';
import { createKafka, type Kafka, type TransactionalProducer } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { encodeRecord, type ChainEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { streamRequest } from '../../test/support/filters/stream-request.js';
import bs58 from 'bs58';
import { accountEvent, key, txEvent } from '../../test/support/grpc/clients.js';
import { compileSubscribeRequest } from '../filters/index.js';
import { LiveLayer } from './layer.js';
import type { LiveSession, SessionSink } from './session.js';
import type { SharedEvent } from './shared-event.js';

/** What one session was handed: update identities in order, and a failure if any. */
class Received implements SessionSink {
  readonly ids: string[] = [];
  failure: string | undefined;
  lastSlot: bigint | undefined;
  deliver(u: SharedEvent): void {
    if (u.live.kind === 'transaction') this.ids.push(`tx ${u.live.event.signatures[0]!.toString('hex')}`);
    else if (u.live.kind === 'account') this.ids.push(`acc ${u.live.event.pubkey.toString('hex')} ${u.live.event.writeVersion}`);
    this.lastSlot = u.slot;
  }
  ping(): void {}
  fail(_reason: string, message: string): void {
    this.failure = message;
  }
  count(id: string): number {
    return this.ids.filter((x) => x === id).length;
  }
}

const txId = (e: ChainEvent): string => (e.kind === 'transactions' ? `tx ${e.event.signatures[0]!.toString('hex')}` : '');
const accId = (e: ChainEvent): string => (e.kind === 'accounts' ? `acc ${e.event.pubkey.toString('hex')} ${e.event.writeVersion}` : '');

describe('live layer, read uncommitted', () => {
  const topics = topicNames(uniquePrefix('live-uncommitted'));
  let kafka: Kafka;
  let live: LiveLayer;
  let producer: TransactionalProducer;
  const sessions: LiveSession[] = [];
  const watched = key();
  let wv = 1n;

  const open = (fromSlot?: bigint): Received => {
    const r = new Received();
    const compiled = compileSubscribeRequest(
      streamRequest({
        transactions: { t: { accountInclude: [bs58.encode(watched)] } },
        accounts: { a: { account: [bs58.encode(watched)] } },
        commitment: CommitmentLevel.PROCESSED,
        ...(fromSlot === undefined ? {} : { fromSlot }),
      }),
      { maxFiltersPerKind: 10, maxKeysPerList: 10 },
    );
    if (!compiled.ok) throw new Error(compiled.error.message);
    const s = live.openSession(r, { bufferLimit: 10_000 });
    sessions.push(s);
    s.apply(compiled.value);
    return r;
  };
  const tx = (slot: bigint): ChainEvent => ({ kind: 'transactions', event: txEvent(slot, [watched, key()]) });
  const write = (slot: bigint): ChainEvent => ({
    kind: 'accounts',
    event: accountEvent(slot, watched, key(), Buffer.from([1]), { writeVersion: wv++ }),
  });
  const send = (events: ChainEvent[]): void => {
    for (const e of events) producer.send({ topic: topics[e.kind], partition: 0, ...encodeRecord(e) });
  };
  const id = (e: ChainEvent): string => txId(e) || accId(e);
  const has = (r: Received, events: ChainEvent[]) => (): boolean => events.every((e) => r.count(id(e)) > 0);
  /** Each of `events` exactly once, and nothing else. */
  const once = (r: Received, events: ChainEvent[]): void => {
    expect(r.failure).toBeUndefined();
    expect([...r.ids].sort()).toEqual(events.map(id).sort());
  };

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'live-uncommitted-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 60_000, log: silentLogger });
    producer = await kafka.transactionalProducer({ transactionalId: `${topics.transactions}-writer` });
  });

  afterAll(async () => {
    for (const s of sessions) s.close();
    await producer?.close();
    await live?.close();
    await kafka?.close();
  });

  it('hands records over before their transaction commits', async () => {
    const r = open();
    const events = [tx(100n), write(100n)];
    await producer.begin();
    send(events);
    // Not committed: a read_committed reader could not see these yet.
    await waitFor(has(r, events), { what: 'uncommitted records on the stream', timeoutMs: 300_000 });
    await producer.commit();
    const after = [tx(101n), write(101n)];
    await producer.begin();
    send(after);
    await producer.commit();
    await waitFor(has(r, after), { what: 'the next transaction', timeoutMs: 300_000 });
    once(r, [...events, ...after]);
  });

  it('an aborted record and its re-publication reach each stream once; a stream opened in between gets the re-published copy unless its from_slot is past it', async () => {
    const early = open();
    const aborted = [tx(200n), write(200n), tx(200n)];
    await producer.begin();
    send(aborted);
    await waitFor(has(early, aborted), { what: 'the aborted transaction read uncommitted', timeoutMs: 300_000 });
    await producer.abort();

    // Opened after the first copies went by: live only, and with a replay from their slot (the replay reads
    // committed records, so it never sees the aborted ones).
    const between = open();
    const replaying = open(200n);
    // A stream resuming past slot 200 says it holds that slot: the copies are not for it.
    const ahead = open(201n);

    // Something newer first, so every replay has handed over to live before the copies come.
    const newer = [tx(201n), write(201n)];
    await producer.begin();
    send(newer);
    await producer.commit();
    for (const r of [early, between, replaying, ahead]) await waitFor(has(r, newer), { what: 'slot 201 everywhere', timeoutMs: 300_000 });

    // The restarted ingest publishes the same records again, then goes on.
    const next = [tx(201n), write(201n)];
    await producer.begin();
    send([...aborted, ...next]);
    await producer.commit();
    const all = [...aborted, ...newer, ...next];
    for (const r of [early, between, replaying]) await waitFor(has(r, all), { what: 'every record', timeoutMs: 300_000 });
    // One partition: once the last record arrived, no copy is still on its way.
    for (const r of [early, between, replaying]) once(r, all);
    await waitFor(has(ahead, next), { what: 'slot 201 on the stream resuming there', timeoutMs: 300_000 });
    once(ahead, [...newer, ...next]);
  });

  it('a from_slot replay registered while a transaction is open hands it over once, whether it commits or aborts and comes again', async () => {
    // Commits: the replay (read committed) waits for it up to the live positions; the live side has it.
    const committed = [tx(300n), write(300n)];
    await producer.begin();
    send(committed);
    const watcher = open();
    await waitFor(has(watcher, committed), { what: 'the open transaction read uncommitted', timeoutMs: 300_000 });
    const r1 = open(300n);
    await producer.commit();
    // Aborts and comes again.
    const retried = [tx(301n), write(301n)];
    await producer.begin();
    send(retried);
    await waitFor(has(watcher, retried), { what: 'the second open transaction', timeoutMs: 300_000 });
    const r2 = open(301n);
    await producer.abort();
    await producer.begin();
    send(retried);
    const tail = [tx(302n), write(302n)];
    send(tail);
    await producer.commit();
    for (const r of [r1, r2, watcher]) await waitFor(has(r, tail), { what: 'the last record', timeoutMs: 300_000 });
    once(r1, [...committed, ...retried, ...tail]);
    once(r2, [...retried, ...tail]);
    once(watcher, [...committed, ...retried, ...tail]);
  });
});
