// geyser.Geyser from_slot against the real broker and embedded ClickHouse (slot_offsets rows built from the
// topics' contents, as the projector writes them), with the real @triton-one/yellowstone-grpc client:
// SubscribeReplayInfo names the oldest slot the topics hold, a replay delivers the history then live with no
// gap and no duplicate, and once retention (here Kafka DeleteRecords, which moves the log start the same
// way) removed the requested slots the stream ends with OUT_OF_RANGE naming the first available slot, which
// SubscribeReplayInfo names too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from '../../../platform/clickhouse.js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { applyMigrations } from '../../../platform/migrations.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import {
  accountEvent,
  key,
  readTopics,
  slotEvent,
  slotOffsetRows,
  TestPublisher,
  txEvent,
  type StoredRecord,
} from '../../../test/support/grpc/clients.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder, type GeyserClient } from '../../../test/support/geyser/client.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';

const A = key();
const OWNER = key();

function slotEvents(slot: bigint): ChainEvent[] {
  return [
    { kind: 'slots', event: slotEvent(slot, 0) },
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'accounts', event: accountEvent(slot, key(), key(), randomBytes(8)) },
    { kind: 'slots', event: slotEvent(slot, 1) },
  ];
}

/** What a geyser stream with the test's filters must deliver from `fromSlot` on: identities, in no order. */
function expectedIds(records: StoredRecord[], fromSlot: bigint): string[] {
  const out: string[] = [];
  for (const { event: e } of records) {
    if (e.kind === 'transactions' && e.event.slot >= fromSlot && e.event.accountKeys.some((k) => k.equals(A)))
      out.push(`tx:${e.event.signatures[0]!.toString('hex')}`);
    if (e.kind === 'accounts' && e.event.slot >= fromSlot && e.event.owner.equals(OWNER)) out.push(`acc:${e.event.pubkey.toString('hex')}`);
  }
  return out.sort();
}

function idsOf(r: GeyserRecorder): string[] {
  return [
    ...r.of('transaction').map((u) => `tx:${Buffer.from(u.transaction.transaction!.signature).toString('hex')}`),
    ...r.of('account').map((u) => `acc:${Buffer.from(u.account.account!.pubkey).toString('hex')}`),
  ].sort();
}

const request = (fromSlot: bigint) =>
  geyserRequest({
    transactions: { a: { accountInclude: [bs58.encode(A)], accountExclude: [], accountRequired: [] } },
    accounts: { o: { account: [], owner: [bs58.encode(OWNER)], filters: [] } },
    fromSlot: fromSlot.toString(),
  });

describe('geyser.Geyser from_slot replay', () => {
  const topics = topicNames(uniquePrefix('geyser-replay'));
  const dataDir = mkdtempSync(join(tmpdir(), 'geyser-replay-'));
  const database = `geyser_replay_${randomBytes(3).toString('hex')}`;
  let kafka: Kafka;
  let ch: ClickHouseClient;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: GeyserClient;
  let nextSlot = 100n;
  const open: GeyserRecorder[] = [];

  async function publishSlots(n: number): Promise<void> {
    const events: ChainEvent[] = [];
    for (let i = 0; i < n; i++) events.push(...slotEvents(nextSlot++));
    await pub.publish(events);
  }

  async function stream(): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(client);
    open.push(r);
    return r;
  }

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-replay-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    ch = await createClickHouse({ dataDir, database });
    await applyMigrations(ch, database);
    await publishSlots(30); // history: slots 100..129
    const rows = slotOffsetRows(await readTopics(kafka, topics));
    await ch.insert({
      table: `${database}.slot_offsets`,
      values: rows,
      columns: ['topic', 'partition', 'slot', 'first_offset', 'last_offset'],
      format: 'JSONEachRow',
    });
    server = await startTestGrpc({
      kafka,
      topics,
      database,
      ch,
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    client = await connectGeyser(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
    await ch?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('SubscribeReplayInfo names the oldest slot held; a replay delivers the history, then live, once each', async () => {
    expect((await client.subscribeReplayInfo()).firstAvailable).toBe('100');
    const r = await stream();
    r.write(request(115n));
    const history = expectedIds(await readTopics(kafka, topics), 115n);
    await waitFor(() => idsOf(r).length >= history.length, { what: 'history' });
    await publishSlots(3);
    const all = expectedIds(await readTopics(kafka, topics), 115n);
    await waitFor(() => idsOf(r).length >= all.length, { what: 'history and live' });
    await r.sync();
    expect(idsOf(r)).toEqual(all);
  });

  it('once retention removed from_slot: OUT_OF_RANGE naming the first available slot, which SubscribeReplayInfo names too', async () => {
    const contents = await readTopics(kafka, topics);
    let firstAvailable = 0n;
    const byPartition = new Map<string, StoredRecord[]>();
    for (const r of contents) {
      const k = `${r.topic}\u0000${r.partition}`;
      byPartition.set(k, [...(byPartition.get(k) ?? []), r]);
    }
    for (const [k, records] of byPartition) {
      const [topic, partition] = k.split('\u0000') as [string, string];
      const cut = records.find((r) => r.event.kind !== 'epochs' && r.event.event.slot >= 110n)!;
      const slot = (cut.event.event as { slot: bigint }).slot;
      if (slot > firstAvailable) firstAvailable = slot;
      await kafka.admin().deleteRecords(topic, Number(partition), cut.offset);
    }
    expect((await client.subscribeReplayInfo()).firstAvailable).toBe(firstAvailable.toString());

    const old = await stream();
    old.write(request(105n));
    await waitFor(() => old.error !== undefined, { what: 'OUT_OF_RANGE' });
    expect(errorText(old.error)).toMatch(/past the valid range.*first available slot is /);
    expect(errorText(old.error)).toContain(`first available slot is ${firstAvailable}`);

    const ok = await stream();
    ok.write(request(firstAvailable));
    const want = expectedIds(contents, firstAvailable);
    await waitFor(() => idsOf(ok).length >= want.length, { what: 'replay from the first available slot' });
    await ok.sync();
    expect(ok.error).toBeUndefined();
    expect(idsOf(ok)).toEqual(want);
  });
});
