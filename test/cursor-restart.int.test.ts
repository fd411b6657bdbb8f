// Durable cursors across api processes (issue 23 item 2): a stream.Stream client streams on cursor "c" from an
// api process while the chain moves; the api is SIGKILLed (no shutdown step runs) and the client dropped with
// all its state; the chain moves on; a NEW client on the same cursor, on ANOTHER api process (its own embedded
// ClickHouse, the same Kafka), sends a from_slot the cursor must override and an end slot. Over the whole run the
// two clients together received every matching update of the chain exactly once. Then ListCursors and
// DeleteCursor on the second process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { ChainEvent } from '../schemas/codec.js';
import { cursorsTopic, topicNames } from '../schemas/topics.js';
import { startApi, type ApiProcess } from './support/cli/api-process.js';
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

/** One slot as the ingest frames it (data, then the end marker counting it), then its later levels. */
function slotEvents(slot: bigint): ChainEvent[] {
  const data: ChainEvent[] = [
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'accounts', event: accountEvent(slot, key(), key(), randomBytes(8)) },
    { kind: 'transactions', event: txEvent(slot, [key(), A]) },
  ];
  return [...framedSlot(slot, data), { kind: 'slots', event: slotEvent(slot, 1) }, { kind: 'slots', event: slotEvent(slot, 2) }];
}

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

const prefix = uniquePrefix('cursor-restart');
const topics = topicNames(prefix);
const dirs = [mkdtempSync(join(tmpdir(), 'cursor-api-a-')), mkdtempSync(join(tmpdir(), 'cursor-api-b-'))];
let kafka: Kafka;
let pub: TestPublisher;
const apis: ApiProcess[] = [];
const open: Recorder[] = [];
const clients: { close(): void }[] = [];
let nextSlot = 100n;

async function publishSlots(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await pub.publish(slotEvents(nextSlot++));
}

beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'cursor-restart-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
  pub = await TestPublisher.start(kafka, topics);
});

afterAll(async () => {
  for (const r of open) r.cancel();
  for (const c of clients) c.close();
  for (const a of apis) await a.kill();
  await pub?.stop();
  await kafka
    ?.admin()
    .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
    .catch(() => undefined);
  await kafka?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

it('a client on a cursor, after a SIGKILL of its api and of itself, resumes on another api with every update exactly once', async () => {
  const filters = { transactions: { a: { account_include: [await b58(A)] } }, accounts: { o: { owner: [await b58(OWNER)] } } };
  await publishSlots(20); // history before the first client: 100..119

  const first = await startApi({ brokers: testBrokers(), topicPrefix: prefix, dataDir: dirs[0]! });
  apis.push(first);
  const c1 = newClient(first.grpcPort);
  clients.push(c1);
  const r1 = subscribe(c1);
  open.push(r1);
  r1.send({ ...filters, from_slot: '100', cursor: 'c' });

  // The chain moves while the first client streams (replay of 100..119, then live).
  await publishSlots(30); // 120..149
  const lastBeforeKill = nextSlot - 1n;
  const received = (r: Recorder) => r.updates.filter((u) => u.update_oneof === 'transaction' || u.update_oneof === 'account');
  await waitFor(() => received(r1).some((u) => BigInt(u.transaction?.slot ?? u.account?.slot) === lastBeforeKill), {
    what: `the first client to reach slot ${lastBeforeKill}`,
    timeoutMs: 300_000,
  });
  // The api stores the position once HTTP/2 took a slot's updates: wait for the last one, then kill both sides.
  const listed = (c: Msg): Promise<{ name: string; slot: string }[]> =>
    new Promise((resolve, reject) =>
      c.ListCursors({ prefix: '' }, (err: Error | null, res: Msg) => (err ? reject(err) : resolve(res.cursors))),
    );
  await waitFor(async () => (await listed(c1)).find((x) => x.name === 'c')?.slot === lastBeforeKill.toString(), {
    what: `cursor c at slot ${lastBeforeKill}`,
    timeoutMs: 300_000,
  });
  await first.kill();
  r1.cancel();
  const got1 = received(r1).map(idOf);

  // The chain goes on with no api at all.
  await publishSlots(20); // 150..169
  const second = await startApi({ brokers: testBrokers(), topicPrefix: prefix, dataDir: dirs[1]! });
  apis.push(second);
  const c2 = newClient(second.grpcPort);
  clients.push(c2);
  const r2 = subscribe(c2);
  open.push(r2);
  const end = nextSlot + 9n; // 179: live by then
  // from_slot 100 would replay everything: the cursor overrides it.
  r2.send({ ...filters, from_slot: '100', cursor: 'c', to_slot: end.toString() });
  await publishSlots(15); // 170..184: beyond the end slot too
  await waitFor(() => r2.ended || r2.error !== undefined, { what: 'the second stream to end after its end slot', timeoutMs: 300_000 });
  expect(r2.error).toBeUndefined();
  const got2 = received(r2).map(idOf);

  const contents = await readTopics(kafka, topics);
  const want = expectedIds(contents, 100n, end);
  const all = [...got1, ...got2];
  expect(got1.length).toBeGreaterThan(0);
  expect(got2.length).toBeGreaterThan(0);
  expect(new Set(all).size).toBe(all.length); // no update twice, across both clients
  expect(all.sort()).toEqual(want); // none missing, none past the end slot

  // The cursor is shared by the replicas: listed on the second api at the end slot, then deleted.
  await waitFor(async () => (await listed(c2)).find((x) => x.name === 'c')?.slot === end.toString(), {
    what: `cursor c at the end slot ${end}`,
    timeoutMs: 300_000,
  });
  const del = (name: string): Promise<Msg> =>
    new Promise((resolve, reject) => c2.DeleteCursor({ name }, (err: Error | null, res: Msg) => (err ? reject(err) : resolve(res))));
  expect((await del('c')).deleted).toBe(true);
  expect((await listed(c2)).some((x) => x.name === 'c')).toBe(false);
  expect((await del('c')).deleted).toBe(false);
  await expect(del('no spaces allowed')).rejects.toThrow(/name: cursor name must be/);
});
