// Compression on the gRPC host (issue 23 item 4) against the api fed by a real broker: the REAL
// @triton-one/yellowstone-grpc client (napi/tonic) with zstd and with gzip, helius-laserstream with zstd, and a
// grpc-js stream.Stream client (which accepts gzip unasked). Each gets exactly what a reference matcher written
// here selects from the records read back from the topics, and the server's counters show the updates went out
// compressed with the encoding the client accepts (a client that accepts none gets plain messages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import {
  CommitmentLevel,
  CompressionAlgorithms,
  shutdownAllStreams,
  subscribe as laserstreamSubscribe,
  type SubscribeUpdate as LsUpdate,
} from 'helius-laserstream';
import type { Kafka } from '../../../platform/kafka/index.js';
import { registry } from '../../../platform/metrics.js';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import {
  accountEvent,
  key,
  newClient,
  readTopics,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
} from '../../../test/support/grpc/clients.js';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../../../test/support/geyser/client.js';
import type { TestGrpc } from '../../../test/support/grpc/server.js';
import { startFedGrpc } from '../../../test/support/grpc/fed-server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** slotstream_grpc_compressed_messages_total{encoding} now. */
async function compressedCount(encoding: string): Promise<number> {
  const m = await registry.getSingleMetric('slotstream_grpc_compressed_messages_total')!.get();
  return m.values.find((v) => v.labels.encoding === encoding)?.value ?? 0;
}
async function allCompressed(): Promise<number> {
  return (await compressedCount('zstd')) + (await compressedCount('gzip'));
}

// ---- Reference matcher (Yellowstone's rules for the two filters used here, written apart from api/filters) ----
const txSelected = (t: TransactionEvent, include: string): boolean =>
  [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].some((k) => b58(k) === include);
const accSelected = (a: AccountEvent, owner: string, datasize: number): boolean => b58(a.owner) === owner && a.data.length === datasize;

/** Account data that compresses as a token account's does (mostly zeros, a few fields). */
const tokenLikeData = (): Buffer => {
  const d = Buffer.alloc(165);
  key().copy(d, 0);
  key().copy(d, 32);
  d.writeBigUInt64LE(BigInt(Math.floor(Math.random() * 1e12)), 64);
  d[108] = 1;
  return d;
};

describe('gRPC compression: zstd and gzip with the real clients', () => {
  const topics = topicNames(uniquePrefix('grpc-compress'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let slot = 9000n;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    // 'all': zstd for clients that accept it, else gzip (the default, 'zstd', leaves gzip-only clients plain).
    ({ kafka, pub, server } = await startFedGrpc({
      clientId: 'grpc-compress-test',
      topics,
      partitions: 2,
      pingIntervalMs: 60_000,
      compress: 'all',
    }));
  });

  afterAll(async () => {
    for (const c of closers) c();
    shutdownAllStreams(); // the SDK's reconnect loops would otherwise outlive the test
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  /** Publishes matching and non-matching transactions and accounts in a new slot; the reference matcher's selection of what the topics hold for that slot. */
  async function publishMix(include: Buffer, owner: Buffer): Promise<{ sigs: string[]; accounts: string[] }> {
    const s = ++slot;
    const other = key();
    const txs = [
      txEvent(s, [include, key(), key()]),
      txEvent(s, [other, key()]),
      txEvent(s, [key(), other], { loadedWritable: [include] }),
      txEvent(s, [include]),
      txEvent(s, [other]),
    ];
    const accounts = [
      accountEvent(s, key(), owner, tokenLikeData()),
      accountEvent(s, key(), owner, Buffer.alloc(80, 1)),
      accountEvent(s, key(), other, tokenLikeData()),
      accountEvent(s, key(), owner, tokenLikeData()),
    ];
    await pub.publish([
      ...txs.map((event) => ({ kind: 'transactions' as const, event })),
      ...accounts.map((event) => ({ kind: 'accounts' as const, event })),
    ]);
    const stored = (await readTopics(kafka, topics))
      .map((r) => r.event)
      .filter((e) => (e.kind === 'transactions' || e.kind === 'accounts') && e.event.slot === s);
    return {
      sigs: stored
        .flatMap((e) => (e.kind === 'transactions' && txSelected(e.event, b58(include)) ? [hex(e.event.signatures[0]!)] : []))
        .sort(),
      accounts: stored.flatMap((e) => (e.kind === 'accounts' && accSelected(e.event, b58(owner), 165) ? [hex(e.event.pubkey)] : [])).sort(),
    };
  }

  const geyserFilters = (include: Buffer, owner: Buffer) =>
    geyserRequest({
      transactions: { t: { accountInclude: [b58(include)], accountExclude: [], accountRequired: [] } },
      accounts: { a: { account: [], owner: [b58(owner)], filters: [{ datasize: '165' }] } },
    });

  /** The Yellowstone client with `algorithm` (0 gzip, 1 zstd, undefined none) gets exactly the selection; returns how many updates went out compressed with `encoding`. */
  async function yellowstoneRun(algorithm: 0 | 1 | undefined, encoding: string): Promise<number> {
    const client: GeyserClient = await connectGeyser(
      server.port,
      undefined,
      algorithm === undefined ? undefined : { grpcDefaultCompressionAlgorithm: algorithm },
    );
    // Unary calls with a compressed request (the client compresses requests with its algorithm).
    expect((await client.ping(2)).count).toBe(2);
    const r = await GeyserRecorder.open(client);
    closers.push(() => r.close());
    const [include, owner] = [key(), key()];
    await r.request(geyserFilters(include, owner));
    const before = await compressedCount(encoding);
    const want = await publishMix(include, owner);
    expect(want.sigs.length).toBe(3);
    expect(want.accounts.length).toBe(2);
    await waitFor(() => r.of('transaction').length >= want.sigs.length && r.of('account').length >= want.accounts.length, {
      what: 'compressed updates',
    });
    await r.sync(); // anything else would have come before the pong
    expect(
      r
        .of('transaction')
        .map((u) => hex(u.transaction.transaction!.signature))
        .sort(),
    ).toEqual(want.sigs);
    expect(
      r
        .of('account')
        .map((u) => hex(u.account.account!.pubkey))
        .sort(),
    ).toEqual(want.accounts);
    expect(r.of('account').every((u) => u.account.account!.data.length === 165)).toBe(true);
    expect(r.error).toBeUndefined();
    return (await compressedCount(encoding)) - before;
  }

  it('Yellowstone client with zstd: zstd requests decoded, updates sent zstd-compressed, exactly the reference selection', async () => {
    const compressed = await yellowstoneRun(1, 'zstd');
    // Every transaction and token account update (all over 64 bytes) went out compressed.
    expect(compressed).toBeGreaterThanOrEqual(5);
  });

  it('Yellowstone client with gzip: gzip requests decoded, updates sent gzip-compressed, exactly the reference selection', async () => {
    const compressed = await yellowstoneRun(0, 'gzip');
    expect(compressed).toBeGreaterThanOrEqual(5);
  });

  it('Yellowstone client without compression: plain updates, exactly the reference selection', async () => {
    const before = await allCompressed();
    await yellowstoneRun(undefined, 'zstd');
    expect((await allCompressed()) - before).toBe(0);
  });

  it('helius-laserstream with zstd: exactly the reference selection, zstd-compressed', async () => {
    const [include, owner] = [key(), key()];
    const got: LsUpdate[] = [];
    const errors: Error[] = [];
    const handle = await laserstreamSubscribe(
      {
        apiKey: '',
        endpoint: `http://127.0.0.1:${server.port}`,
        maxReconnectAttempts: 1,
        channelOptions: { 'grpc.default_compression_algorithm': CompressionAlgorithms.zstd } as never,
      },
      // The SDK's request types its uint64 fields as numbers (the Yellowstone client's as strings).
      {
        ...geyserFilters(include, owner),
        accounts: { a: { account: [], owner: [b58(owner)], filters: [{ datasize: 165 }] } },
        commitment: CommitmentLevel.PROCESSED,
      } as never,
      (u: LsUpdate) => void got.push(u),
      (e: Error) => void errors.push(e),
    );
    closers.push(() => handle.cancel());
    const before = await compressedCount('zstd');
    // The SDK gives no "subscribed" signal: publish until the first selected update arrives, then once more; that
    // last round must arrive whole, and nothing outside the rounds' selections may arrive at all.
    const selected = { sigs: [] as string[], accounts: [] as string[] };
    const round = async () => {
      const w = await publishMix(include, owner);
      selected.sigs.push(...w.sigs);
      selected.accounts.push(...w.accounts);
      return w;
    };
    await round();
    await waitFor(
      async () => {
        if (got.length === 0) await round();
        return got.length > 0;
      },
      { what: 'laserstream first update', intervalMs: 500 },
    );
    const want = await round();
    await waitFor(
      () =>
        want.sigs.every((s) => got.some((u) => u.transaction && hex(u.transaction.transaction!.signature) === s)) &&
        want.accounts.every((a) => got.some((u) => u.account && hex(u.account.account!.pubkey) === a)),
      { what: 'laserstream updates' },
    );
    const sigs = got.flatMap((u) => (u.transaction ? [hex(u.transaction.transaction!.signature)] : []));
    const accounts = got.flatMap((u) => (u.account ? [hex(u.account.account!.pubkey)] : []));
    // Nothing outside the selection, nothing twice.
    expect(sigs.every((s) => selected.sigs.includes(s))).toBe(true);
    expect(accounts.every((a) => selected.accounts.includes(a))).toBe(true);
    expect(new Set(sigs).size).toBe(sigs.length);
    expect((await compressedCount('zstd')) - before).toBeGreaterThanOrEqual(sigs.length + accounts.length);
    expect(errors).toEqual([]);
  });

  it('stream.Stream with a grpc-js client (accepts gzip unasked): gzip-compressed updates, exactly the reference selection', async () => {
    const client = newClient(server.port);
    closers.push(() => client.close());
    const r = subscribe(client);
    closers.push(() => r.cancel());
    const [include, owner] = [key(), key()];
    r.send({
      transactions: { t: { account_include: [b58(include)] } },
      accounts: { a: { owner: [b58(owner)], filters: [{ datasize: 165 }] } },
    } as Msg);
    r.send({ ping: { id: 1 } } as Msg);
    await waitFor(() => r.of('pong').length > 0, { what: 'pong' });
    const before = await compressedCount('gzip');
    const want = await publishMix(include, owner);
    await waitFor(() => r.of('transaction').length >= want.sigs.length && r.of('account').length >= want.accounts.length, {
      what: 'stream.Stream updates',
    });
    r.send({ ping: { id: 2 } } as Msg);
    await waitFor(() => r.of('pong').length > 1, { what: 'second pong' });
    expect(
      r
        .of('transaction')
        .map((u: Msg) => hex(u.transaction.transaction.signature))
        .sort(),
    ).toEqual(want.sigs);
    expect(
      r
        .of('account')
        .map((u: Msg) => hex(u.account.account.pubkey))
        .sort(),
    ).toEqual(want.accounts);
    expect((await compressedCount('gzip')) - before).toBeGreaterThanOrEqual(5);
  });
});
