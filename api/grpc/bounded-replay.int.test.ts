// Bounded and paced replays (issue 23 item 3) on both services, against the real broker: a recorded range of
// ~4 s of chain time at 20 ms slots. A replay with an end slot ends with status OK after it, with every
// matching update of the range once (stream.Stream: the `to_slot` field; geyser.Geyser through the real
// Yellowstone client, which cannot set request metadata: the reserved blocks_meta name
// `x-slotstream-to-slot=<slot>`). A paced one takes the recorded time (the records' Kafka timestamps) divided by
// the pace, within 10%.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import type { ChainEvent } from '../../schemas/codec.js';
import { cursorsTopic, topicNames } from '../../schemas/topics.js';
import { connectGeyser, geyserRequest } from '../../test/support/geyser/client.js';
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
  Recorder,
  type StoredRecord,
} from '../../test/support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from '../../test/support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { framedSlot } from '../../test/support/ingest/framed-slot.js';

const A = key();
const OWNER = key();
const SLOT_MS = 20;
const FIRST = 100n;
const LAST = 299n; // 200 slots: 4 s of chain time

/** One slot as the ingest frames it (data, then the end marker counting it; one partition), then its later levels. */
function slotEvents(slot: bigint): ChainEvent[] {
  const data: ChainEvent[] = [
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'accounts', event: accountEvent(slot, key(), key(), randomBytes(8)) },
  ];
  return [...framedSlot(slot, data), { kind: 'slots', event: slotEvent(slot, 1) }, { kind: 'slots', event: slotEvent(slot, 2) }];
}

/** The matching records of slots from..to: identity -> Kafka timestamp. */
function expected(records: StoredRecord[], from: bigint, to: bigint): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'transactions' && e.event.slot >= from && e.event.slot <= to && e.event.accountKeys.some((k) => k.equals(A)))
      out.set(`tx:${e.event.signatures[0]!.toString('hex')}`, r.timestamp);
    if (e.kind === 'accounts' && e.event.slot >= from && e.event.slot <= to && e.event.owner.equals(OWNER))
      out.set(`acc:${e.event.pubkey.toString('hex')}`, r.timestamp);
  }
  return out;
}

const idOf = (u: Msg): string =>
  u.update_oneof === 'transaction'
    ? `tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`
    : `acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`;

const dataOf = (r: Recorder): Msg[] => r.updates.filter((u) => u.update_oneof === 'transaction' || u.update_oneof === 'account');

describe('bounded and paced replays', () => {
  const topics = topicNames(uniquePrefix('bounded-replay'));
  let kafka: Kafka;
  let pub: TestPublisher;
  let server: TestGrpc;
  let client: Msg;
  const geyserStreams: { destroy(): void }[] = [];
  let contents: StoredRecord[];
  const open: Recorder[] = [];
  const filters = async (): Promise<Msg> => ({
    transactions: { a: { account_include: [await b58(A)] } },
    accounts: { o: { owner: [await b58(OWNER)] } },
  });

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'bounded-replay-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    // The recorded range: a slot every 20 ms (the chain's clock; the records' timestamps are when they went out).
    const start = performance.now();
    for (let s = FIRST; s <= LAST; s++) {
      await pub.publish(slotEvents(s));
      const due = start + Number(s - FIRST + 1n) * SLOT_MS;
      const now = performance.now();
      if (due > now) await new Promise((r) => setTimeout(r, due - now));
    }
    await pub.publish([...slotEvents(LAST + 1n), ...slotEvents(LAST + 2n)]);
    contents = await readTopics(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 60_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    client = newClient(server.port);
  }, 120_000);

  afterAll(async () => {
    for (const r of open) r.cancel();
    client?.close();
    for (const g of geyserStreams) g.destroy();
    await server?.close();
    await pub?.stop();
    await kafka
      ?.admin()
      .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
      .catch(() => undefined);
    await kafka?.close();
  });

  it('stream.Stream: from_slot with to_slot ends with OK after the end slot, every update of the range once', async () => {
    const r = subscribe(client);
    open.push(r);
    r.send({ ...(await filters()), from_slot: '120', to_slot: '160' });
    await waitFor(() => r.ended || r.error !== undefined, { what: 'the bounded stream to end', timeoutMs: 60_000 });
    expect(r.error).toBeUndefined();
    const got = dataOf(r).map(idOf);
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual([...expected(contents, 120n, 160n).keys()].sort());
  });

  it('SubscribeParsed: to_slot ends the replay with OK too (the range has no pump.fun transaction: nothing before the end)', async () => {
    const r = new Recorder(client.SubscribeParsed());
    open.push(r);
    r.send({ from_slot: '120', to_slot: '160' });
    await waitFor(() => r.ended || r.error !== undefined, { what: 'the bounded SubscribeParsed stream to end', timeoutMs: 60_000 });
    expect(r.error).toBeUndefined();
    expect(r.updates).toEqual([]);
  });

  it('stream.Stream: to_slot before from_slot, or a negative pace, is INVALID_ARGUMENT naming the field', async () => {
    for (const [req, field] of [
      [{ from_slot: '150', to_slot: '140' }, /to_slot: 140 is before from_slot 150/],
      [{ from_slot: '150', pace: -1 }, /pace: must be a finite number >= 0/],
      [{ pace: 2 }, /pace: paces a replay, so it needs from_slot or cursor/],
    ] as const) {
      const r = subscribe(client);
      open.push(r);
      r.send({ ...(await filters()), ...req });
      await waitFor(() => r.error !== undefined, { what: 'the refusal' });
      expect(r.error!.code).toBe(3); // INVALID_ARGUMENT
      expect(r.error!.details).toMatch(field);
    }
  });

  it('geyser.Geyser (real Yellowstone client): x-slotstream-to-slot ends the replay with OK after the end slot', async () => {
    const geyser = await connectGeyser(server.port);
    const stream = await geyser.subscribe();
    geyserStreams.push(stream);
    let ended = false;
    let error: Error | undefined;
    const ids: string[] = [];
    stream.on(
      'data',
      (u: { transaction?: { transaction?: { signature: Uint8Array } }; account?: { account?: { pubkey: Uint8Array } } }) => {
        if (u.transaction?.transaction) ids.push(`tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`);
        if (u.account?.account) ids.push(`acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`);
      },
    );
    stream.on('end', () => (ended = true));
    stream.on('error', (e: Error) => (error = e));
    stream.write(
      geyserRequest({
        transactions: { a: { accountInclude: [await b58(A)], accountExclude: [], accountRequired: [] } },
        accounts: { o: { account: [], owner: [await b58(OWNER)], filters: [] } },
        blocksMeta: { 'x-slotstream-to-slot=160': {} },
        fromSlot: '120',
      }),
    );
    await waitFor(() => ended || error !== undefined, { what: 'the bounded geyser stream to end', timeoutMs: 60_000 });
    expect(error).toBeUndefined();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...expected(contents, 120n, 160n).keys()].sort());
  });

  it('geyser.Geyser (real Yellowstone client): x-slotstream-cursor resumes right after the slot the last stream fully delivered', async () => {
    const geyser = await connectGeyser(server.port);
    const run = async (optIns: Record<string, object>): Promise<string[]> => {
      const stream = await geyser.subscribe();
      geyserStreams.push(stream);
      let ended = false;
      let error: Error | undefined;
      const ids: string[] = [];
      stream.on(
        'data',
        (u: { transaction?: { transaction?: { signature: Uint8Array } }; account?: { account?: { pubkey: Uint8Array } } }) => {
          if (u.transaction?.transaction) ids.push(`tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`);
          if (u.account?.account) ids.push(`acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`);
        },
      );
      stream.on('end', () => (ended = true));
      stream.on('error', (e: Error) => (error = e));
      stream.write(
        geyserRequest({
          transactions: { a: { accountInclude: [await b58(A)], accountExclude: [], accountRequired: [] } },
          accounts: { o: { account: [], owner: [await b58(OWNER)], filters: [] } },
          blocksMeta: optIns,
          fromSlot: '120',
        }),
      );
      await waitFor(() => ended || error !== undefined, { what: 'the geyser stream on a cursor to end', timeoutMs: 60_000 });
      expect(error).toBeUndefined();
      return ids;
    };
    const first = await run({ 'x-slotstream-cursor=g': {}, 'x-slotstream-to-slot=140': {} });
    expect(first.sort()).toEqual([...expected(contents, 120n, 140n).keys()].sort());
    // The position is stored once HTTP/2 took the end slot's updates; the next stream's from_slot 120 is ignored.
    await waitFor(async () => (await server.live.cursors.get('g'))?.slot === 140n, { what: 'cursor g at 140' });
    const second = await run({ 'x-slotstream-cursor=g': {}, 'x-slotstream-to-slot=150': {} });
    expect(second.sort()).toEqual([...expected(contents, 141n, 150n).keys()].sort());
  });

  it('stream.Stream: pace 2 replays the recorded range in its recorded time / 2 (within 10%)', async () => {
    const want = expected(contents, FIRST, LAST);
    const r = subscribe(client);
    open.push(r);
    r.send({ ...(await filters()), from_slot: FIRST.toString(), to_slot: LAST.toString(), pace: 2 });
    await waitFor(() => r.ended || r.error !== undefined, { what: 'the paced stream to end', timeoutMs: 60_000 });
    expect(r.error).toBeUndefined();
    const data = dataOf(r);
    const got = data.map(idOf);
    expect(got.sort()).toEqual([...want.keys()].sort());
    // Recorded: from the first delivered record's timestamp to the last's; taken: between their arrivals.
    const firstIdx = r.updates.indexOf(data[0]);
    const lastIdx = r.updates.indexOf(data[data.length - 1]);
    const recorded = want.get(idOf(data[data.length - 1]))! - want.get(idOf(data[0]))!;
    const taken = r.receivedAt[lastIdx]! - r.receivedAt[firstIdx]!;
    expect(recorded).toBeGreaterThan(3_000);
    expect(Math.abs(taken - recorded / 2)).toBeLessThan((recorded / 2) * 0.1);
  });
});
