// from_slot replay against the real broker and embedded ClickHouse (slot_offsets rows built from the
// topic's contents, as the projector writes them): history then live with no gap and no duplicate while
// the chain keeps moving, the fallback scan without slot_offsets, and OUT_OF_RANGE once retention
// (here: Kafka DeleteRecords, which moves the log start the same way) removed the requested slots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { createClickHouse, type ClickHouseClient } from '../../../platform/clickhouse.js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { applyMigrations } from '../../../platform/migrations.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import {
  accountEvent,
  b58,
  key,
  newClient,
  readTopics,
  slotEvent,
  slotOffsetRows,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
  type Recorder,
  type StoredRecord,
} from '../../../test/support/grpc/clients.js';

const A = key();
const OWNER = key();
const OTHER = key();

/** One slot of chain: two transactions with A, one without, two account writes by OWNER, one by OTHER,
 * and the slot's statuses. */
function slotEvents(slot: bigint): ChainEvent[] {
  return [
    { kind: 'slots', event: slotEvent(slot, 0) },
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'transactions', event: txEvent(slot, [key(), A]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'accounts', event: accountEvent(slot, key(), OTHER, randomBytes(8)) },
    { kind: 'slots', event: slotEvent(slot, 1) },
    { kind: 'slots', event: slotEvent(slot, 2) },
  ];
}

/** Identity of an update: the signature of a transaction, or pubkey of an account write. */
function idOf(u: Msg): string {
  if (u.update_oneof === 'transaction') return `tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`;
  return `acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`;
}

function expectedIds(records: StoredRecord[], fromSlot: bigint): string[] {
  const out: string[] = [];
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'transactions' && e.event.slot >= fromSlot && e.event.accountKeys.some((k) => k.equals(A))) {
      out.push(`tx:${e.event.signatures[0]!.toString('hex')}`);
    }
    if (e.kind === 'accounts' && e.event.slot >= fromSlot && e.event.owner.equals(OWNER)) {
      out.push(`acc:${e.event.pubkey.toString('hex')}`);
    }
  }
  return out.sort();
}

describe('gRPC Subscribe from_slot replay', () => {
  const topics = topicNames(uniquePrefix('grpc-replay'));
  const dataDir = mkdtempSync(join(tmpdir(), 'grpc-replay-'));
  const database = `grpc_replay_${randomBytes(3).toString('hex')}`;
  let kafka: Kafka;
  let ch: ClickHouseClient;
  let server: TestGrpc;
  let noIndex: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  let nextSlot = 100n;
  const open: Recorder[] = [];

  async function publishSlots(n: number): Promise<void> {
    const events: ChainEvent[] = [];
    for (let i = 0; i < n; i++) events.push(...slotEvents(nextSlot++));
    await pub.publish(events);
  }

  async function filterRequest(fromSlot: bigint): Promise<Msg> {
    return {
      transactions: { a: { account_include: [await b58(A)] } },
      accounts: { o: { owner: [await b58(OWNER)] } },
      from_slot: fromSlot.toString(),
    };
  }

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-replay-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    ch = await createClickHouse({ dataDir, database });
    await applyMigrations(ch, database);
    await publishSlots(40); // history: slots 100..139
    // Index the history the way the projector does, from the topics' contents.
    const rows = slotOffsetRows(await readTopics(kafka, topics));
    await ch.insert({
      table: `${database}.slot_offsets`,
      values: rows,
      columns: ['topic', 'partition', 'slot', 'first_offset', 'last_offset'],
      format: 'JSONEachRow',
    });
    await publishSlots(5); // 140..144: in Kafka, not yet indexed (the projector trails)
    const base = { kafka, topics, database, host: '127.0.0.1', port: 0, pingIntervalMs: 10_000, queueSize: 100_000, log: silentLogger };
    server = await startTestGrpc({ ...base, ch });
    noIndex = await startTestGrpc(base); // no ClickHouse: replays scan from the log start
    client = newClient(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.cancel();
    client?.close();
    await server?.close();
    await noIndex?.close();
    await pub?.stop();
    await kafka?.close();
    await ch?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays history from from_slot, then continues live with no gap and no duplicate', async () => {
    // The chain keeps moving while the streams replay and hand over.
    let publishing = true;
    const mover = (async () => {
      while (publishing) await publishSlots(2);
    })();
    const noIndexClient = newClient(noIndex.port);
    const streams: [Recorder, bigint][] = [];
    try {
      for (const [c, from] of [
        [client, 120n],
        [client, 142n],
        [noIndexClient, 110n],
      ] as const) {
        const r = subscribe(c);
        open.push(r);
        r.send(await filterRequest(from));
        streams.push([r, from]);
      }
      // Wait until every stream is live well past the start of the test, then stop the chain.
      const liveMark = nextSlot + 10n;
      await waitFor(
        () => streams.every(([r]) => r.updates.some((u) => u.update_oneof === 'transaction' && BigInt(u.transaction.slot) >= liveMark)),
        {
          what: 'streams live past the hand-over',
          timeoutMs: 300_000,
        },
      );
    } finally {
      publishing = false;
      await mover;
    }
    const contents = await readTopics(kafka, topics);
    for (const [r, from] of streams) {
      const want = expectedIds(contents, from);
      await waitFor(() => r.updates.filter((u) => u.update_oneof !== 'ping').length >= want.length, {
        what: `all ${want.length} updates from slot ${from}`,
      });
      const got = r.updates.filter((u) => u.update_oneof !== 'ping').map(idOf);
      expect(r.error).toBeUndefined();
      expect(new Set(got).size).toBe(got.length); // no duplicate
      expect([...got].sort()).toEqual(want); // no gap, nothing extra
      const slots = r.updates.filter((u) => u.update_oneof === 'transaction').map((u) => BigInt(u.transaction.slot));
      expect(slots.every((s) => s >= from)).toBe(true);
    }
    noIndexClient.close();
  });

  it('starts a new replay when a later request carries from_slot', async () => {
    const r = subscribe(client);
    open.push(r);
    r.send(await filterRequest(135n));
    const contents = await readTopics(kafka, topics);
    const first = expectedIds(contents, 135n);
    await waitFor(() => r.updates.length >= first.length, { what: 'first replay' });
    r.send(await filterRequest(138n));
    const second = expectedIds(contents, 138n);
    await waitFor(() => r.updates.length >= first.length + second.length, { what: 'second replay' });
    const got = r.updates.filter((u) => u.update_oneof !== 'ping').map(idOf);
    expect([...got.slice(first.length)].sort()).toEqual(second);
  });

  it('answers OUT_OF_RANGE naming the first available slot once retention removed from_slot', async () => {
    const contents = await readTopics(kafka, topics);
    // Drop everything before slot 110 in every partition (what retention does, segment by segment).
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

    const old = subscribe(client);
    open.push(old);
    old.send(await filterRequest(105n));
    await waitFor(() => old.error, { what: 'OUT_OF_RANGE' });
    expect(old.error!.code).toBe(grpc.status.OUT_OF_RANGE);
    expect(old.error!.details).toContain(`first available slot is ${firstAvailable}`);

    const ok = subscribe(client);
    open.push(ok);
    ok.send(await filterRequest(firstAvailable));
    const want = expectedIds(contents, firstAvailable);
    await waitFor(() => ok.updates.length >= want.length, { what: 'replay from the first available slot' });
    expect(ok.error).toBeUndefined();
    expect(
      ok.updates
        .filter((u) => u.update_oneof !== 'ping')
        .map(idOf)
        .sort(),
    ).toEqual(want);
  });

  it('answers OUT_OF_RANGE for a cursor whose position fell out of retention (issue 23), whatever from_slot says', async () => {
    // After the test above cut the history before slot 110: a cursor at 104 resumes at 105, which is gone.
    await server.live.cursors.save('gone', 104n);
    const r = subscribe(client);
    open.push(r);
    r.send({ ...(await filterRequest(140n)), cursor: 'gone' });
    await waitFor(() => r.error, { what: 'OUT_OF_RANGE for the cursor' });
    expect(r.error!.code).toBe(grpc.status.OUT_OF_RANGE);
    expect(r.error!.details).toMatch(/^cursor gone: from_slot 105 is older than the retained history; first available slot is \d+$/);
  });
});
