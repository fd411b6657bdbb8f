// A confirmed stream's from_slot replay hands over to live with Yellowstone's per-slot account deduplication
// (newest-writes.ts) on both sides of the hand-over, against a real broker: a slot whose records reached the
// session live while its replay still ran, and which the live statuses confirmed meanwhile, goes out with each
// account's last write only, as it would live or replayed (the fault test's confirmed stream got every write).
// The replay is held deterministically: it reads committed records up to the live positions, and those include
// an open transaction's records, which the live tail read uncommitted; the live slot is published in the same
// open transaction, so the replay cannot end before the commit.
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitmentLevel } from '../../proto/gen/stream.js';
import { createKafka, type Kafka, type TransactionalProducer } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { encodeRecord, SlotEvent, SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { streamRequest } from '../../test/support/filters/stream-request.js';
import { accountEvent, key } from '../../test/support/grpc/clients.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { framedSlot } from '../../test/support/ingest/framed-slot.js';
import { Commitment, compileSubscribeRequest } from '../filters/index.js';
import { LiveLayer } from './layer.js';
import type { ApplyOptions, LiveSession, SessionSink } from './session.js';
import type { SharedEvent } from './shared-event.js';

/** What one session was handed, in order: `<slot>:<write_version>` per account write. */
class Writes implements SessionSink {
  readonly got: string[] = [];
  failure: string | undefined;
  lastSlot: bigint | undefined;
  /** What `delivered` reported (a durable cursor's positions) and whether the end slot ended the stream. */
  readonly positions: bigint[] = [];
  ended = false;
  delivered(slot: bigint): void {
    this.positions.push(slot);
  }
  end(): void {
    this.ended = true;
  }
  deliver(u: SharedEvent): void {
    if (u.live.kind === 'account') this.got.push(`${u.slot}:${u.live.event.writeVersion}`);
    this.lastSlot = u.slot;
  }
  ping(): void {}
  fail(_reason: string, message: string): void {
    this.failure = message;
  }
}

describe('live layer, from_slot hand-over at confirmed', () => {
  const topics = topicNames(uniquePrefix('live-hand-over'));
  let kafka: Kafka;
  let live: LiveLayer;
  let producer: TransactionalProducer;
  const sessions: LiveSession[] = [];
  const watched = key();
  const owner = key();

  const open = (commitment: CommitmentLevel, fromSlot?: bigint, opts: ApplyOptions = {}): Writes => {
    const w = new Writes();
    const compiled = compileSubscribeRequest(
      streamRequest({ accounts: { a: { account: [bs58.encode(watched)] } }, commitment, ...(fromSlot === undefined ? {} : { fromSlot }) }),
      { maxFiltersPerKind: 10, maxKeysPerList: 10 },
    );
    if (!compiled.ok) throw new Error(compiled.error.message);
    const s = live.openSession(w, { bufferLimit: 10_000 });
    sessions.push(s);
    s.apply(compiled.value, opts);
    return w;
  };
  const write = (slot: bigint, writeVersion: bigint): ChainEvent => ({
    kind: 'accounts',
    event: accountEvent(slot, watched, owner, Buffer.from([1]), { writeVersion }),
  });
  const status = (slot: bigint, s: SlotStatus): ChainEvent => ({ kind: 'slots', event: SlotEvent.fromPartial({ slot, status: s }) });
  const send = (events: ChainEvent[]): void => {
    for (const e of events) producer.send({ topic: topics[e.kind], partition: 0, ...encodeRecord(e) });
  };

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'live-hand-over-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 60_000, log: silentLogger });
    producer = await kafka.transactionalProducer({ transactionalId: `${topics.accounts}-writer` });
  });

  afterAll(async () => {
    for (const s of sessions) s.close();
    await producer?.close();
    await live?.close();
    await kafka?.close();
  });

  it('a slot confirmed live while the replay ran goes out with each account last write only, and so does a replayed slot', async () => {
    const watcher = open(CommitmentLevel.PROCESSED);
    await producer.begin();
    // History for the replay: slot 500, written twice; the live tail reads it uncommitted.
    send(framedSlot(500n, [write(500n, 1n), write(500n, 2n)]));
    await waitFor(() => watcher.got.length === 2, { what: 'slot 500 read uncommitted', timeoutMs: 300_000 });
    // The stream resumes at slot 500: its replay waits for the open transaction (read committed).
    const resumed = open(CommitmentLevel.CONFIRMED, 500n);
    // Slot 501 arrives live (into the session's buffer) and is confirmed while the replay still waits.
    send([...framedSlot(501n, [write(501n, 3n), write(501n, 4n)]), status(501n, SlotStatus.SLOT_STATUS_CONFIRMED)]);
    await waitFor(() => watcher.got.length === 4 && live.chain.slot(Commitment.confirmed) === 501n, {
      what: 'slot 501 confirmed live',
      timeoutMs: 300_000,
    });
    expect(resumed.got).toEqual([]);
    await producer.commit();
    // The replay ends at the commit and hands over: slot 501 is confirmed, slot 500 not yet.
    await waitFor(() => resumed.got.length >= 1, { what: 'the hand-over', timeoutMs: 300_000 });
    await producer.begin();
    send([
      status(500n, SlotStatus.SLOT_STATUS_CONFIRMED),
      ...framedSlot(502n, [write(502n, 5n)]),
      status(502n, SlotStatus.SLOT_STATUS_CONFIRMED),
    ]);
    await producer.commit();
    await waitFor(() => resumed.got.includes('502:5'), { what: 'slot 502 on the resumed stream', timeoutMs: 300_000 });
    expect(resumed.failure).toBeUndefined();
    expect(resumed.got).toEqual(['501:4', '500:2', '502:5']);
    expect(watcher.got).toEqual(['500:1', '500:2', '501:3', '501:4', '502:5']);
  });
  it('a bounded stream on a cursor reports no position past its end slot, though later slots reached it live during the replay', async () => {
    const watcher = open(CommitmentLevel.PROCESSED);
    await producer.begin();
    send(framedSlot(600n, [write(600n, 10n)]));
    await waitFor(() => watcher.got.includes('600:10'), { what: 'slot 600 read uncommitted', timeoutMs: 300_000 });
    // Replays 600..601 and ends; its replay waits for the open transaction, so 601..603 reach it live meanwhile.
    const bounded = open(CommitmentLevel.PROCESSED, 600n, { toSlot: 601n, reportDelivered: true });
    send([...framedSlot(601n, [write(601n, 11n)]), ...framedSlot(602n, [write(602n, 12n)]), ...framedSlot(603n, [write(603n, 13n)])]);
    await waitFor(() => watcher.got.includes('603:13'), { what: 'slots 601..603 live', timeoutMs: 300_000 });
    expect(bounded.got).toEqual([]);
    await producer.commit();
    await waitFor(() => bounded.ended || bounded.failure !== undefined, { what: 'the bounded stream to end', timeoutMs: 300_000 });
    expect(bounded.failure).toBeUndefined();
    expect(bounded.got).toEqual(['600:10', '601:11']);
    // The cursor stops at the end slot: the next stream on it starts at 602, which this one never sent.
    expect(bounded.positions.at(-1)).toBe(601n);
    expect(bounded.positions.every((slot) => slot <= 601n)).toBe(true);
  });
});
