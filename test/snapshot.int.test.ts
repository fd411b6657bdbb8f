// Snapshot, then stream (issue 23, item 1) through the whole pipeline: a writer publishes slots of account writes to a
// real broker, the projector stores them in embedded ClickHouse, and while the writer runs a client subscribes to a
// program's accounts at `confirmed` with a snapshot, on stream.Stream (the `snapshot` field), on geyser.Geyser (the
// real @triton-one/yellowstone-grpc client with its `grpcSetXRequestSnapshot` channel option: Yellowstone's
// `x-request-snapshot` metadata) and on PubSub (web3.js, with the `snapshot` config member). Checked, per transport:
// - the snapshot is the state at ONE slot S (every startup update carries it) and equals the state at S the test
//   computes from what it published, account for account;
// - the live part is exactly each account's last write of each slot after S (confirmed streams' per-slot
//   deduplication), none missing, none doubled, nothing of a slot at or below S;
// - the client's view at the end (snapshot plus updates) equals the accounts view (ClickHouse) at the last slot.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { Connection, PublicKey, type KeyedAccountInfo, type Context } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPubSub, type PubSubServer } from '../api/pubsub/server.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { startProjector, type Projector } from '../projector/run.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder } from './support/geyser/client.js';
import { newClient, subscribe, type Msg } from './support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from './support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { heads } from './support/projector/dump.js';
import { RawClient } from './support/pubsub/raw-client.js';
import { foldView, SnapshotChain, sortedIds, type SeenAccount } from './support/live/snapshot-chain.js';

const DB = 'snapshot_int';
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let projector: Projector;
let grpcServer: TestGrpc;
let pubsub: PubSubServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  topics = topicNames(uniquePrefix('snapshot'));
  kafka = createKafka({ brokers: testBrokers(), clientId: 'snapshot-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
  await applyMigrations(ch, DB);
  projector = await startProjector({ database: DB, groupId: 'g-snapshot', batchRows: 200, batchMs: 20 }, silentLogger, {
    ch,
    kafka,
    topics,
  });
  grpcServer = await startTestGrpc({
    kafka,
    topics,
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    pingIntervalMs: 10_000,
    queueSize: 10_000,
    log: silentLogger,
  });
  pubsub = await startPubSub({
    live: grpcServer.live,
    host: '127.0.0.1',
    port: 0,
    maxConnections: 10,
    maxSubscriptionsPerConnection: 10,
    maxMessageBytes: 65536,
    maxBufferedBytes: 1 << 24,
    pingIntervalMs: 10_000,
    log: silentLogger,
  });
});

afterAll(async () => {
  await pubsub?.close();
  await grpcServer?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The confirmed head the views hold. */
async function confirmedHead(): Promise<bigint | undefined> {
  const row = (await heads(ch, DB)).find((h) => h.startsWith('confirmed|'));
  return row === undefined ? undefined : BigInt(row.split('|')[1]!);
}

/** The accounts view at `slot`: each owned account's newest write at or below it, open ones only (plain SQL). */
async function viewAt(owner: Buffer, slot: bigint): Promise<Map<string, { lamports: bigint; data: string }>> {
  const rs = await ch.query({
    query: `SELECT pubkey, lamports, hex(base64Decode(data)) AS data FROM (
              SELECT pubkey, owner, lamports, data FROM {db:Identifier}.account_writes WHERE slot <= {slot:UInt64}
              ORDER BY pubkey, slot DESC, write_version DESC LIMIT 1 BY pubkey)
            WHERE owner = {owner:String} AND lamports > 0`,
    query_params: { db: DB, slot: slot.toString(), owner: bs58.encode(owner) },
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ pubkey: string; lamports: string; data: string }>();
  return new Map(rows.map((r) => [r.pubkey, { lamports: BigInt(r.lamports), data: r.data.toLowerCase() }]));
}

/**
 * The scenario every transport runs: history, then a writer running while `open` subscribes with a snapshot; the
 * writer stops once live updates came after the snapshot; then the checks above. `seen` is what the client got.
 */
async function scenario(
  tag: string,
  first: bigint,
  open: (chain: SnapshotChain) => Promise<{ seen: () => SeenAccount[]; close: () => void }>,
) {
  const chain = await SnapshotChain.start(kafka, topics, tag, first);
  try {
    for (let i = 0; i < 20; i++) await chain.slot();
    await waitFor(async () => ((await confirmedHead()) ?? 0n) >= first + 15n, { what: 'the views hold the history', timeoutMs: 300_000 });
    chain.run();
    const client = await open(chain);
    try {
      await waitFor(() => client.seen().filter((u) => !u.startup).length >= 20, {
        what: 'live updates after the snapshot',
        timeoutMs: 300_000,
      });
      const last = await chain.stop();
      await chain.confirm(last);
      // The first watched account is written in every slot: the last slot's write closes the stream's part of it.
      await waitFor(() => client.seen().some((u) => u.slot === last), { what: `slot ${last} on the stream`, timeoutMs: 300_000 });
      await waitFor(async () => (await confirmedHead()) === last, { what: `the views at slot ${last}`, timeoutMs: 300_000 });
      const seen = client.seen();
      const startup = seen.filter((u) => u.startup);
      const live = seen.filter((u) => !u.startup);
      const slots = [...new Set(startup.map((u) => u.slot))];
      expect(slots).toHaveLength(1);
      const S = slots[0]!;
      expect(S).toBeGreaterThanOrEqual(first + 15n);
      expect(S).toBeLessThan(last);
      // The snapshot came first, and is the state at S.
      expect(seen.slice(0, startup.length).every((u) => u.startup)).toBe(true);
      expect(sortedIds(startup)).toEqual(sortedIds([...chain.stateAt(S).values()]));
      // Then every write after S once (each account's last of its slot), and nothing else.
      expect(sortedIds(live)).toEqual(sortedIds(chain.liveAfter(S, last)));
      // The client's view equals the accounts view at the end.
      const view = foldView(seen);
      expect(view).toEqual(await viewAt(chain.owner, last));
      expect(view).toEqual(foldView([...chain.stateAt(last).values()]));
    } finally {
      client.close();
      await chain.stop();
    }
  } finally {
    await chain.close();
  }
}

describe('snapshot, then stream', () => {
  it('stream.Stream: snapshot = true', async () => {
    await scenario('stream', 1_000n, async (chain) => {
      const client = newClient(grpcServer.port);
      const r = subscribe(client);
      r.send({ accounts: { w: { owner: [bs58.encode(chain.owner)] } }, commitment: 'CONFIRMED', snapshot: true });
      const seen = (): SeenAccount[] =>
        r.of('account').map((u: Msg) => ({
          slot: BigInt(u.account.slot),
          pubkey: bs58.encode(u.account.account.pubkey),
          lamports: BigInt(u.account.account.lamports),
          data: Buffer.from(u.account.account.data).toString('hex'),
          startup: u.account.is_startup === true,
        }));
      return {
        seen: () => {
          if (r.error) throw r.error;
          return seen();
        },
        close: () => {
          r.cancel();
          client.close();
        },
      };
    });
  });

  it('geyser.Geyser: the real Yellowstone client with grpcSetXRequestSnapshot (x-request-snapshot)', async () => {
    await scenario('geyser', 2_000n, async (chain) => {
      const client = await connectGeyser(grpcServer.port, undefined, { grpcSetXRequestSnapshot: true });
      const r = await GeyserRecorder.open(client);
      r.write(
        geyserRequest({
          accounts: { w: { account: [], owner: [bs58.encode(chain.owner)], filters: [] } },
          commitment: 1, // CONFIRMED
        }),
      );
      return {
        seen: () => {
          if (r.error) throw r.error;
          return r.of('account').map((u) => ({
            slot: BigInt(u.account.slot),
            pubkey: bs58.encode(u.account.account!.pubkey),
            lamports: BigInt(u.account.account!.lamports),
            data: Buffer.from(u.account.account!.data).toString('hex'),
            startup: u.account.isStartup,
          }));
        },
        close: () => r.close(),
      };
    });
  });

  it('PubSub: programSubscribe with snapshot: true (web3.js)', async () => {
    await scenario('pubsub', 3_000n, async (chain) => {
      const conn = new Connection(`http://127.0.0.1:${pubsub.port}/`, { wsEndpoint: `ws://127.0.0.1:${pubsub.port}/` });
      const got: [KeyedAccountInfo, Context][] = [];
      const id = conn.onProgramAccountChange(new PublicKey(chain.owner), (a, ctx) => got.push([a, ctx]), {
        commitment: 'confirmed',
        encoding: 'base64',
        snapshot: true,
      } as { commitment: 'confirmed' }); // web3.js passes members it does not know through; the cast is for its types only
      return {
        // web3.js hides the notification's `isStartup` member: the snapshot is the notifications at the first
        // slot seen (live ones are after it); the raw-client test below checks the member itself.
        seen: () =>
          got.map(([a, ctx]) => ({
            slot: BigInt(ctx.slot),
            pubkey: a.accountId.toBase58(),
            lamports: BigInt(a.accountInfo.lamports),
            data: a.accountInfo.data.toString('hex'),
            startup: ctx.slot === got[0]![1].slot,
          })),
        close: () => void conn.removeProgramAccountChangeListener(id),
      };
    });
  });

  it('stream.Stream: snapshot with from_slot ends the stream with INVALID_ARGUMENT naming the field', async () => {
    const client = newClient(grpcServer.port);
    const r = subscribe(client);
    r.send({ accounts: { w: { owner: [bs58.encode(Buffer.alloc(32, 9))] } }, snapshot: true, from_slot: '5' });
    await waitFor(() => r.error !== undefined, { what: 'the refusal' });
    expect(r.error!.code).toBe(3); // INVALID_ARGUMENT
    expect(r.error!.details).toBe(
      'failed to create filter: snapshot: cannot be combined with from_slot (the stream continues from the slot after the snapshot)',
    );
    client.close();
  });

  it('PubSub: accountSubscribe with snapshot: true notifies the state at once, marked isStartup; without it, nothing until a write', async () => {
    const chain = await SnapshotChain.start(kafka, topics, 'pubsub-account', 4_000n);
    const client = await RawClient.connect(`ws://127.0.0.1:${pubsub.port}/`);
    try {
      for (let i = 0; i < 5; i++) await chain.slot();
      const last = chain.next - 1n;
      await chain.confirm(last);
      await waitFor(async () => (await confirmedHead()) === last, { what: `the views at slot ${last}` });
      const acct = bs58.encode(chain.accounts[0]!);
      client.call(1, 'accountSubscribe', [acct, { commitment: 'confirmed', encoding: 'base64', snapshot: true }]);
      client.call(2, 'accountSubscribe', [acct, { commitment: 'confirmed', encoding: 'base64' }]);
      await waitFor(() => client.notifications.length >= 1 && client.answers.size === 2, { what: 'the snapshot notification' });
      const want = chain.stateAt(last).get(acct)!;
      const n = client.notifications[0];
      expect(n.params.subscription).toBe(client.answers.get(1).result);
      expect(n.params.isStartup).toBe(true);
      expect(n.params.result.context.slot).toBe(Number(last));
      expect(n.params.result.value.lamports).toBe(Number(want.lamports));
      expect(Buffer.from(n.params.result.value.data[0], 'base64').toString('hex')).toBe(want.data);
      // Live writes follow on both; only the snapshot subscription was notified before them.
      const next = await chain.slot();
      await chain.confirm(next);
      await waitFor(() => client.notifications.length === 3, { what: 'the live write on both subscriptions' });
      expect(client.notifications.slice(1).map((x: Msg) => [x.params.result.context.slot, x.params.isStartup])).toEqual([
        [Number(next), undefined],
        [Number(next), undefined],
      ]);
    } finally {
      client.close();
      await chain.close();
    }
  });

  // The two branches of issue 23 together: a snapshot names no cursor (both services refuse the pair, naming both),
  // and an end slot ends a snapshot stream as any stream (right after the snapshot when S is at or past it).
  it('stream.Stream: snapshot with cursor ends the stream with INVALID_ARGUMENT naming both fields', async () => {
    const client = newClient(grpcServer.port);
    const r = subscribe(client);
    r.send({ accounts: { w: { owner: [bs58.encode(Buffer.alloc(32, 9))] } }, snapshot: true, cursor: 'snap-cursor' });
    await waitFor(() => r.error !== undefined, { what: 'the refusal' });
    expect(r.error!.code).toBe(3); // INVALID_ARGUMENT
    expect(r.error!.details).toBe(
      'failed to create filter: snapshot: cannot be combined with cursor (a cursor resumes a stream; a snapshot starts one from the current state)',
    );
    client.close();
  });

  it('geyser.Geyser: x-request-snapshot with x-slotstream-cursor is INVALID_ARGUMENT naming both', async () => {
    const client = await connectGeyser(grpcServer.port, undefined, { grpcSetXRequestSnapshot: true });
    const r = await GeyserRecorder.open(client);
    try {
      r.write(
        geyserRequest({
          accounts: { w: { account: [], owner: [bs58.encode(Buffer.alloc(32, 9))], filters: [] } },
          blocksMeta: { 'x-slotstream-cursor=snap-cursor': {} },
        }),
      );
      await waitFor(() => r.error !== undefined, { what: 'the refusal' });
      expect(errorText(r.error)).toMatch(/Client specified an invalid argument/);
      expect(errorText(r.error)).toContain('x-request-snapshot: cannot be combined with x-slotstream-cursor');
    } finally {
      r.close();
    }
  });

  it('stream.Stream: snapshot with to_slot: at or before S the stream ends OK after the snapshot; after S, after to_slot', async () => {
    const chain = await SnapshotChain.start(kafka, topics, 'to-slot', 5_000n);
    const clients: { close(): void }[] = [];
    const open = (toSlot: bigint) => {
      const client = newClient(grpcServer.port);
      const r = subscribe(client);
      clients.push(client);
      r.send({
        accounts: { w: { owner: [bs58.encode(chain.owner)] } },
        commitment: 'CONFIRMED',
        snapshot: true,
        to_slot: toSlot.toString(),
      });
      const seen = (): SeenAccount[] =>
        r.of('account').map((u: Msg) => ({
          slot: BigInt(u.account.slot),
          pubkey: bs58.encode(u.account.account.pubkey),
          lamports: BigInt(u.account.account.lamports),
          data: Buffer.from(u.account.account.data).toString('hex'),
          startup: u.account.is_startup === true,
        }));
      return { r, seen };
    };
    try {
      for (let i = 0; i < 5; i++) await chain.slot();
      const S = chain.next - 1n;
      await chain.confirm(S);
      await waitFor(async () => (await confirmedHead()) === S, { what: `the views at slot ${S}` });
      // to_slot before S: the snapshot, then OK.
      const before = open(S - 2n);
      await waitFor(() => before.r.ended || before.r.error !== undefined, { what: 'the stream to end after its snapshot' });
      expect(before.r.error).toBeUndefined();
      expect(sortedIds(before.seen())).toEqual(sortedIds([...chain.stateAt(S).values()]));
      // to_slot = S + 2: the snapshot at S, the writes of S + 1 and S + 2, then OK (nothing of S + 3).
      const after = open(S + 2n);
      await waitFor(() => after.seen().length >= chain.stateAt(S).size, { what: 'the snapshot' });
      for (let i = 0; i < 4; i++) await chain.slot(); // S + 1 .. S + 4, confirming S + 3 on the way
      await waitFor(() => after.r.ended || after.r.error !== undefined, { what: 'the stream to end after to_slot', timeoutMs: 300_000 });
      expect(after.r.error).toBeUndefined();
      const seen = after.seen();
      expect(sortedIds(seen.filter((u) => u.startup))).toEqual(sortedIds([...chain.stateAt(S).values()]));
      expect(sortedIds(seen.filter((u) => !u.startup))).toEqual(sortedIds(chain.liveAfter(S, S + 2n)));
    } finally {
      for (const c of clients) c.close();
      await chain.close();
    }
  });
});
