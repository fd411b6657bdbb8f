// Subscribe against the real api fed by the real broker, with a client built from proto/stream.proto at
// run time: live delivery and `filters`, replace semantics, ping/pong, server pings, invalid filters,
// commitment levels, data slices, auth, and the unary calls, health and reflection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { createRequire } from 'node:module';
import { createKafka, partitionForKey, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { SlotStatus } from '../../../schemas/codec.js';
import { topicNames, u64Key } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import {
  accountEvent,
  b58,
  key,
  newClient,
  slotEvent,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
  type Recorder,
} from '../../../test/support/grpc/clients.js';

const TOKEN = 's3cret-token';

describe('gRPC Subscribe (live)', () => {
  const topics = topicNames(uniquePrefix('grpc-sub'));
  let kafka: Kafka;
  let server: TestGrpc;
  let authServer: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;
  const open: Recorder[] = [];
  let slot = 1000n;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-sub-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    const base = { kafka, topics, database: 'unused', host: '127.0.0.1', port: 0, queueSize: 1000, log: silentLogger };
    server = await startTestGrpc({ ...base, pingIntervalMs: 300 });
    authServer = await startTestGrpc({ ...base, pingIntervalMs: 10_000, authToken: TOKEN });
    client = newClient(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.cancel();
    client?.close();
    await server?.close();
    await authServer?.close();
    await pub?.stop();
    await kafka?.close();
  });

  function stream(c: Msg = client, md?: grpc.Metadata): Recorder {
    const r = subscribe(c, md);
    open.push(r);
    return r;
  }

  /** Sends a request and waits until the server applied it (a ping after it is answered in order). */
  let pingId = 1;
  async function request(r: Recorder, req: Msg): Promise<void> {
    r.send(req);
    const id = pingId++;
    r.send({ ping: { id } });
    await waitFor(() => r.of('pong').some((p) => p.pong.id === id), { what: `pong ${id}` });
  }

  it('delivers matching transactions and accounts live, with the names of every matching filter', async () => {
    const [a, b, c, owner, other] = [key(), key(), key(), key(), key()];
    const r = stream();
    await request(r, {
      transactions: {
        zeta: { account_include: [await b58(a)] },
        alpha: { account_required: [await b58(a), await b58(b)] },
        none: { account_include: [await b58(c)] },
      },
      accounts: { owned: { owner: [await b58(owner)] } },
    });
    const s = ++slot;
    const both = txEvent(s, [a, b]);
    const onlyA = txEvent(s, [a, other]);
    const miss = txEvent(s, [other]);
    const acc = accountEvent(s, key(), owner, Buffer.from('hello'));
    await pub.publish([
      { kind: 'transactions', event: both },
      { kind: 'transactions', event: onlyA },
      { kind: 'transactions', event: miss },
      { kind: 'accounts', event: acc },
      { kind: 'accounts', event: accountEvent(s, key(), other, Buffer.from('x')) },
    ]);
    await waitFor(() => r.of('transaction').length >= 2 && r.of('account').length >= 1, { what: 'live updates' });
    const bySig = new Map(r.of('transaction').map((u) => [Buffer.from(u.transaction.transaction.signature).toString('hex'), u]));
    expect(bySig.get(both.signatures[0]!.toString('hex'))!.filters).toEqual(['alpha', 'zeta']);
    expect(bySig.get(onlyA.signatures[0]!.toString('hex'))!.filters).toEqual(['zeta']);
    expect(bySig.has(miss.signatures[0]!.toString('hex'))).toBe(false);
    const t = bySig.get(both.signatures[0]!.toString('hex'))!;
    expect(t.transaction.slot).toBe(s.toString());
    expect(t.transaction.transaction.account_keys.map((k: Buffer) => Buffer.from(k).toString('hex'))).toEqual([
      a.toString('hex'),
      b.toString('hex'),
    ]);
    expect(t.created_at.seconds).not.toBe('0');
    const [u] = r.of('account');
    expect(u.filters).toEqual(['owned']);
    expect(Buffer.from(u.account.account.pubkey).equals(acc.pubkey)).toBe(true);
    expect(Buffer.from(u.account.account.data).toString()).toBe('hello');
    expect(u.account.account.rent_epoch).toBe('18446744073709551615');
    expect(u.account.is_startup).toBe(false);
    // Publishing more shows the non-matching events were not just late.
    await pub.publish([{ kind: 'transactions', event: txEvent(s, [a]) }]);
    await waitFor(() => r.of('transaction').length >= 3, { what: 'third transaction' });
    expect(r.of('transaction')).toHaveLength(3);
    expect(r.of('account')).toHaveLength(1);
  });

  it('replaces the whole filter set on each request; a ping request changes nothing', async () => {
    const [a, b] = [key(), key()];
    const r = stream();
    await request(r, { transactions: { first: { account_include: [await b58(a)] } } });
    await request(r, { transactions: { second: { account_include: [await b58(b)] } } });
    // A ping carrying other fields is validated, but does not change the filters.
    r.send({ ping: { id: 999 }, transactions: { third: { account_include: [await b58(a)] } } });
    await waitFor(() => r.of('pong').some((p) => p.pong.id === 999), { what: 'pong 999' });
    const s = ++slot;
    const ta = txEvent(s, [a]);
    const tb = txEvent(s, [b]);
    await pub.publish([
      { kind: 'transactions', event: ta },
      { kind: 'transactions', event: tb },
    ]);
    await waitFor(() => r.of('transaction').length >= 1, { what: 'transaction for b' });
    await pub.publish([{ kind: 'transactions', event: txEvent(s, [b]) }]);
    await waitFor(() => r.of('transaction').length >= 2, { what: 'second transaction for b' });
    const got = r.of('transaction');
    expect(got.every((u) => u.filters.length === 1 && u.filters[0] === 'second')).toBe(true);
    expect(got.some((u) => Buffer.from(u.transaction.transaction.signature).equals(ta.signatures[0]!))).toBe(false);
  });

  it('answers ping with pong carrying the same id and empty filters', async () => {
    const r = stream();
    r.send({ ping: { id: 42 } });
    r.send({ ping: { id: -7 } });
    await waitFor(() => r.of('pong').length >= 2, { what: 'pongs' });
    expect(r.of('pong').map((p) => p.pong.id)).toEqual([42, -7]);
    expect(r.of('pong').every((p) => p.filters.length === 0 && p.created_at)).toBe(true);
  });

  it('sends a server ping on every stream, even before any filter', async () => {
    const r = stream();
    await waitFor(() => r.of('ping').length >= 2, { what: 'two server pings', timeoutMs: 300_000 });
    expect(r.of('ping')[0].filters).toEqual([]);
    expect(r.updates.every((u) => u.update_oneof === 'ping')).toBe(true);
  });

  it('rejects invalid filters with INVALID_ARGUMENT "failed to create filter: ..." and ends the stream', async () => {
    const cases: [Msg, RegExp][] = [
      [{ transactions: { bad: { account_include: ['not-base58-0OIl'] } } }, /account_include/],
      [{ accounts: { bad: { filters: [{}, {}] } } }, /no filter set/],
      [{ accounts: { bad: { filters: [{ memcmp: { offset: 0, base58: '1'.repeat(176) } }] } } }, /175/],
      [{ accounts: { bad: { filters: Array.from({ length: 5 }, () => ({ datasize: 1 })) } } }, /at most 4/],
      [{ transactions: { ['n'.repeat(129)]: {} } }, /128/],
      [{ transactions: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, {}])) }, /101 filters, at most 100/],
    ];
    for (const [req, reason] of cases) {
      const r = stream();
      r.send(req);
      await waitFor(() => r.error, { what: 'INVALID_ARGUMENT' });
      expect(r.error!.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(r.error!.details).toMatch(/^failed to create filter: /);
      expect(r.error!.details).toMatch(reason);
    }
  });

  it('holds updates until their slot reaches the requested commitment', async () => {
    const a = key();
    const processed = stream();
    const confirmed = stream();
    const finalized = stream();
    const filter = { transactions: { f: { account_include: [await b58(a)] } } };
    await request(processed, filter);
    await request(confirmed, { ...filter, commitment: 'CONFIRMED' });
    await request(finalized, { ...filter, commitment: 'FINALIZED' });
    const s = ++slot;
    await pub.publish([
      { kind: 'slots', event: slotEvent(s, 0) },
      { kind: 'transactions', event: txEvent(s, [a]) },
    ]);
    await waitFor(() => processed.of('transaction').length === 1, { what: 'processed delivery' });
    // A marker in a later, already confirmed slot shows the stream is live while slot s stays held.
    const marker = ++slot;
    await pub.publish([
      { kind: 'slots', event: slotEvent(marker, 1) },
      { kind: 'transactions', event: txEvent(marker, [a]) },
    ]);
    await waitFor(() => confirmed.of('transaction').length === 1, { what: 'confirmed marker' });
    expect(confirmed.of('transaction')[0].transaction.slot).toBe(marker.toString());
    expect(finalized.of('transaction')).toHaveLength(0);
    await pub.publish([{ kind: 'slots', event: slotEvent(s, 1) }]);
    await waitFor(() => confirmed.of('transaction').length === 2, { what: 'confirmed release' });
    expect(confirmed.of('transaction')[1].transaction.slot).toBe(s.toString());
    expect(finalized.of('transaction')).toHaveLength(0);
    await pub.publish([
      { kind: 'slots', event: slotEvent(s, 2) },
      { kind: 'slots', event: slotEvent(marker, 2) },
    ]);
    await waitFor(() => finalized.of('transaction').length === 2, { what: 'finalized release' });
    // A skipped slot never releases.
    const skipped = ++slot;
    await pub.publish([
      { kind: 'transactions', event: txEvent(skipped, [a]) },
      { kind: 'slots', event: slotEvent(skipped, 3) },
    ]);
    await waitFor(() => processed.of('transaction').length === 3, { what: 'processed skipped-slot tx' });
    const after = ++slot;
    await pub.publish([
      { kind: 'transactions', event: txEvent(after, [a]) },
      { kind: 'slots', event: slotEvent(after, 1) },
    ]);
    await waitFor(() => confirmed.of('transaction').length === 3, { what: 'confirmed after skipped' });
    expect(confirmed.of('transaction').map((u) => u.transaction.slot)).not.toContain(skipped.toString());
  });

  it('never releases a dead slot at confirmed or finalized; progress statuses release nothing', async () => {
    const a = key();
    const processed = stream();
    const confirmed = stream();
    const finalized = stream();
    const filter = { transactions: { f: { account_include: [await b58(a)] } } };
    await request(processed, filter);
    await request(confirmed, { ...filter, commitment: 'CONFIRMED' });
    await request(finalized, { ...filter, commitment: 'FINALIZED' });
    // Three slots whose status records share a partition of the slots topic (2 partitions), so once the
    // marker's FINALIZED status has released its transaction, the statuses published before it were read.
    const partition = (n: bigint) => partitionForKey(u64Key(n), 2);
    const next = (p: number) => {
      do slot++;
      while (partition(slot) !== p);
      return slot;
    };
    const dead = next(partition(slot + 1n));
    const live = next(partition(dead));
    const marker = next(partition(dead));
    const st = (n: bigint, status: SlotStatus) => ({ kind: 'slots' as const, event: slotEvent(n, status) });
    await pub.publish([
      { kind: 'transactions', event: txEvent(dead, [a]) },
      st(dead, SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED),
      st(dead, SlotStatus.SLOT_STATUS_CREATED_BANK),
      st(dead, SlotStatus.SLOT_STATUS_DEAD),
      // A level after the death (a confused upstream) does not revive the slot.
      st(dead, SlotStatus.SLOT_STATUS_FINALIZED),
      { kind: 'transactions', event: txEvent(live, [a]) },
      st(live, SlotStatus.SLOT_STATUS_PROCESSED),
      st(live, SlotStatus.SLOT_STATUS_COMPLETED),
      { kind: 'transactions', event: txEvent(marker, [a]) },
      st(marker, SlotStatus.SLOT_STATUS_FINALIZED),
    ]);
    const slots = (r: Recorder) => r.of('transaction').map((u) => u.transaction.slot as string);
    await waitFor(() => processed.of('transaction').length === 3, { what: 'processed delivery of all three' });
    await waitFor(() => slots(confirmed).includes(marker.toString()) && slots(finalized).includes(marker.toString()), {
      what: 'the marker at confirmed and finalized',
    });
    expect(slots(confirmed)).toEqual([marker.toString()]);
    expect(slots(finalized)).toEqual([marker.toString()]);
    await pub.publish([st(live, SlotStatus.SLOT_STATUS_CONFIRMED)]);
    await waitFor(() => slots(confirmed).includes(live.toString()), { what: 'the live slot confirmed' });
    expect(slots(confirmed)).toEqual([marker.toString(), live.toString()]);
    expect(slots(finalized)).toEqual([marker.toString()]);
  });

  it('trims account data with accounts_data_slice', async () => {
    const owner = key();
    const r = stream();
    const full = stream();
    await request(r, {
      accounts: { o: { owner: [await b58(owner)] } },
      accounts_data_slice: [
        { offset: 6, length: 3 },
        { offset: 0, length: 2 },
        { offset: 30, length: 5 },
      ],
    });
    await request(full, { accounts: { o: { owner: [await b58(owner)] } } });
    await pub.publish([{ kind: 'accounts', event: accountEvent(++slot, key(), owner, Buffer.from('0123456789')) }]);
    await waitFor(() => r.of('account').length === 1 && full.of('account').length === 1, { what: 'sliced account' });
    expect(Buffer.from(r.of('account')[0].account.account.data).toString()).toBe('01678');
    expect(Buffer.from(full.of('account')[0].account.account.data).toString()).toBe('0123456789');
  });

  it('requires x-token when a token is configured', async () => {
    const c = newClient(authServer.port);
    try {
      const none = stream(c);
      none.send({ ping: { id: 1 } });
      await waitFor(() => none.error, { what: 'UNAUTHENTICATED' });
      expect(none.error!.code).toBe(grpc.status.UNAUTHENTICATED);
      const wrong = new grpc.Metadata();
      wrong.set('x-token', 'wrong');
      const bad = stream(c, wrong);
      await waitFor(() => bad.error, { what: 'UNAUTHENTICATED (wrong token)' });
      expect(bad.error!.code).toBe(grpc.status.UNAUTHENTICATED);
      const pingErr = await new Promise<grpc.ServiceError | null>((res) => c.Ping({ count: 1 }, (e: grpc.ServiceError | null) => res(e)));
      expect(pingErr?.code).toBe(grpc.status.UNAUTHENTICATED);
      const good = new grpc.Metadata();
      good.set('x-token', TOKEN);
      const ok = stream(c, good);
      ok.send({ ping: { id: 5 } });
      await waitFor(() => ok.of('pong').length === 1, { what: 'authorized pong' });
      expect(ok.error).toBeUndefined();
      const pong = await new Promise<Msg>((res, rej) => c.Ping({ count: 3 }, good, (e: Msg, v: Msg) => (e ? rej(e) : res(v))));
      expect(pong.count).toBe(3);
    } finally {
      c.close();
    }
  });

  it('answers Ping with the same count and GetVersion with the version JSON', async () => {
    const pong = await new Promise<Msg>((res, rej) => client.Ping({ count: 17 }, (e: Msg, v: Msg) => (e ? rej(e) : res(v))));
    expect(pong.count).toBe(17);
    const v = await new Promise<Msg>((res, rej) => client.GetVersion({}, (e: Msg, r: Msg) => (e ? rej(e) : res(r))));
    const parsed = JSON.parse(v.version);
    expect(parsed.version.package).toBe('slotstream');
    expect(parsed.version.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(parsed.version.proto).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof parsed.version.git).toBe('string');
    expect(typeof parsed.extra.hostname).toBe('string');
  });

  it('serves the health service and server reflection', async () => {
    const require = createRequire(import.meta.url);
    const healthProto = require.resolve('grpc-health-check/proto/health/v1/health.proto');
    const healthPkg = grpc.loadPackageDefinition(protoLoader.loadSync(healthProto, { enums: String })) as Msg;
    const hc = new healthPkg.grpc.health.v1.Health(`127.0.0.1:${authServer.port}`, grpc.credentials.createInsecure());
    const res = await new Promise<Msg>((ok, ko) => hc.Check({ service: 'stream.Stream' }, (e: Msg, r: Msg) => (e ? ko(e) : ok(r))));
    expect(res.status).toBe('SERVING'); // open even when a token is configured
    hc.close();

    const reflProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
    const reflPkg = grpc.loadPackageDefinition(protoLoader.loadSync(reflProto, { keepCase: true })) as Msg;
    const rc = new reflPkg.grpc.reflection.v1.ServerReflection(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const call = rc.ServerReflectionInfo();
    const answer = new Promise<Msg>((ok, ko) => {
      call.on('data', ok);
      call.on('error', ko);
    });
    call.write({ list_services: '' });
    const listed = (await answer).list_services_response.service.map((s: Msg) => s.name);
    call.end();
    rc.close();
    expect(listed).toContain('stream.Stream');
  });
});
