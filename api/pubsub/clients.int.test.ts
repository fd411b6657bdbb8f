// PubSub against the real clients, unmodified: @solana/web3.js 1.x `Connection` (its superstruct schemas
// validate every notification) and @solana/kit's RPC subscriptions (u64 values as bigint), on the real
// live layer fed by a real broker, with signatureSubscribe's "already there" check on real views (chdb).
// Every notification is checked against what was published to the topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import {
  Connection,
  PublicKey,
  type AccountInfo,
  type Context,
  type KeyedAccountInfo,
  type Logs,
  type SignatureResult,
  type SlotInfo,
} from '@solana/web3.js';
import { address, createSolanaRpcSubscriptions, signature as kitSignature } from '@solana/kit';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { insertTransactions, openTestStore, setHeads, type TestStore } from '../../test/support/jsonrpc/store.js';
import { key, lastStatePerSlot, PubSubChain, sig, transactionsMentioning, txEvent, write } from '../../test/support/pubsub/chain.js';
import { clickHouseViews, LiveLayer } from '../live/index.js';
import { startPubSub, type PubSubServer } from './server.js';
import { QueryAdmission } from '../views/admission.js';
import { viewsSignatureLookup } from './signature-lookup.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);
const ERR = '{"InstructionError":[0,{"Custom":6002}]}';

describe('PubSub with @solana/web3.js and @solana/kit', () => {
  const topics = topicNames(uniquePrefix('pubsub-clients'));
  let kafka: Kafka;
  let live: LiveLayer;
  let server: PubSubServer;
  let chain: PubSubChain;
  let store: TestStore;
  let wsUrl: string;
  let slot = 7000n;
  /** A finalized transaction the views already hold (signatureSubscribe "at once"). */
  const stored = { signature: b58(sig()), slot: 6000n };

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'pubsub-clients-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    store = await openTestStore();
    const db = await store.database('pubsub_clients');
    await setHeads(store.ch, db, { processed: 6010, confirmed: 6005, finalized: 6002 });
    await insertTransactions(store.ch, db, [{ signature: stored.signature, slot: stored.slot, position: 0, addresses: [], err: ERR }]);
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    server = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      maxConnections: 100,
      maxSubscriptionsPerConnection: 100,
      maxMessageBytes: 65536,
      maxBufferedBytes: 1 << 24,
      pingIntervalMs: 10_000,
      lookupSignature: viewsSignatureLookup(clickHouseViews(store.ch, db, new QueryAdmission())),
      log: silentLogger,
    });
    wsUrl = `ws://127.0.0.1:${server.port}/`;
    chain = await PubSubChain.start(kafka, topics);
  });

  afterAll(async () => {
    await server?.close();
    await live?.close();
    await chain?.stop();
    await kafka?.close();
    await store?.close();
  });

  const subscriptions = (n: number) => waitFor(() => server.subscriptions() === n, { what: `${n} subscriptions on the server` });

  describe('@solana/web3.js Connection', () => {
    let conn: Connection;
    beforeAll(() => {
      conn = new Connection(`http://127.0.0.1:${server.port}/`, { wsEndpoint: wsUrl, commitment: 'confirmed' });
    });

    it('onAccountChange: the last state per slot at the commitment; a dead slot never reaches confirmed', async () => {
      const [acct, owner] = [key(), key()];
      const confirmed: [AccountInfo<Buffer>, Context][] = [];
      const processed: [AccountInfo<Buffer>, Context][] = [];
      const c = conn.onAccountChange(new PublicKey(acct), (a, ctx) => confirmed.push([a, ctx]), { commitment: 'confirmed' });
      const p = conn.onAccountChange(new PublicKey(acct), (a, ctx) => processed.push([a, ctx]), { commitment: 'processed' });
      await subscriptions(2);
      const s1 = ++slot;
      // Two writes in one slot: only the later one (higher write version) is the slot's state.
      await chain.slot(s1, {
        accounts: [write(s1, acct, owner, 500n, Buffer.from('first'), 2n), write(s1, acct, owner, 700n, Buffer.from('second'), 3n)],
      });
      await waitFor(() => processed.length === 1, { what: 'processed notification' });
      expect(confirmed).toHaveLength(0);
      await chain.confirm(s1);
      await waitFor(() => confirmed.length === 1, { what: 'confirmed notification' });
      const s2 = ++slot;
      await chain.slot(s2, { accounts: [write(s2, acct, owner, 1n, Buffer.from('fork'), 4n)] });
      await waitFor(() => processed.length === 2, { what: 'processed notification of the fork' });
      await chain.kill(s2);
      const s3 = ++slot;
      await chain.slot(s3, { accounts: [write(s3, acct, owner, 900n, Buffer.alloc(0), 5n)] });
      await chain.confirm(s3);
      await waitFor(() => confirmed.length === 2 && processed.length === 3, { what: 'notifications of slot 3' });
      expect(confirmed.map(([a, ctx]) => [ctx.slot, a.lamports, a.data.toString()])).toEqual([
        [Number(s1), 700, 'second'],
        [Number(s3), 900, ''],
      ]);
      expect(processed.map(([a, ctx]) => [ctx.slot, a.lamports])).toEqual([
        [Number(s1), 700],
        [Number(s2), 1],
        [Number(s3), 900],
      ]);
      // The same, derived from what the accounts topic holds: the last write of each slot (s2 died before confirmed).
      const topic = await lastStatePerSlot(kafka, topics, acct);
      expect(processed.map(([a, ctx]) => [ctx.slot, a.lamports, a.data.toString('hex')])).toEqual(
        [s1, s2, s3].map((s) => [Number(s), Number(topic.get(s)!.lamports), Buffer.from(topic.get(s)!.data).toString('hex')]),
      );
      expect(confirmed.map(([a, ctx]) => [ctx.slot, a.lamports])).toEqual([s1, s3].map((s) => [Number(s), Number(topic.get(s)!.lamports)]));
      expect(confirmed[0]![0].owner.toBase58()).toBe(b58(owner));
      expect(confirmed[0]![0].rentEpoch).toBe(Number(18446744073709551615n)); // JSON.parse rounds it, as for any client
      await conn.removeAccountChangeListener(c);
      await conn.removeAccountChangeListener(p);
      await subscriptions(0);
    });

    it('onProgramAccountChange with dataSize and memcmp filters', async () => {
      const program = key();
      const [a, b, c] = [key(), key(), key()];
      const got: [KeyedAccountInfo, Context][] = [];
      const id = conn.onProgramAccountChange(new PublicKey(program), (k, ctx) => got.push([k, ctx]), {
        commitment: 'processed',
        filters: [{ dataSize: 4 }, { memcmp: { offset: 1, bytes: bs58.encode(Buffer.from([7, 7])) } }],
      });
      await subscriptions(1);
      const s = ++slot;
      await chain.slot(s, {
        accounts: [
          write(s, a, program, 10n, Buffer.from([0, 7, 7, 0]), 1n), // matches
          write(s, b, program, 20n, Buffer.from([0, 7, 8, 0]), 2n), // memcmp differs
          write(s, c, program, 30n, Buffer.from([0, 7, 7]), 3n), // size differs
          write(s, key(), key(), 40n, Buffer.from([0, 7, 7, 0]), 4n), // another owner
        ],
      });
      const s2 = ++slot;
      await chain.slot(s2, { accounts: [write(s2, c, program, 31n, Buffer.from([1, 7, 7, 1]), 5n)] });
      await waitFor(() => got.length === 2, { what: 'program notifications' });
      expect(got.map(([k, ctx]) => [ctx.slot, k.accountId.toBase58(), k.accountInfo.lamports, [...k.accountInfo.data]])).toEqual([
        [Number(s), b58(a), 10, [0, 7, 7, 0]],
        [Number(s2), b58(c), 31, [1, 7, 7, 1]],
      ]);
      await conn.removeProgramAccountChangeListener(id);
      await subscriptions(0);
    });

    it('onLogs: mentions gets exactly the transactions mentioning the address; all leaves votes out', async () => {
      const [x, other, program] = [key(), key(), key()];
      const mentions: Logs[] = [];
      const all: Logs[] = [];
      const m = conn.onLogs(new PublicKey(x), (l) => mentions.push(l), 'processed');
      const a = conn.onLogs('all', (l) => all.push(l), 'processed');
      await subscriptions(2);
      const s = ++slot;
      const t1 = txEvent(s, [x, program], { logMessages: ['Program log: one'] });
      const t2 = txEvent(s, [other, program], { logMessages: ['Program log: two'] });
      const t3 = txEvent(s, [other, x], { err: ERR, logMessages: ['Program log: three', 'failed'] });
      const vote = txEvent(s, [x, program], { isVote: true, logMessages: ['vote'] });
      await chain.slot(s, { txs: [t1, t2, t3, vote] });
      await waitFor(() => mentions.length === 3 && all.length === 3, { what: 'logs notifications' });
      const sigOf = (t: { signatures: Buffer[] }) => b58(t.signatures[0]!);
      expect(mentions.map((l) => l.signature).sort()).toEqual([t1, t3, vote].map(sigOf).sort());
      expect(mentions.map((l) => l.signature).sort()).toEqual((await transactionsMentioning(kafka, topics, x)).map(b58).sort());
      expect(all.map((l) => l.signature).sort()).toEqual([t1, t2, t3].map(sigOf).sort());
      const failed = mentions.find((l) => l.signature === sigOf(t3))!;
      expect(failed.err).toEqual({ InstructionError: [0, { Custom: 6002 }] });
      expect(failed.logs).toEqual(['Program log: three', 'failed']);
      expect(mentions.find((l) => l.signature === sigOf(t1))!.err).toBeNull();
      await conn.removeOnLogsListener(m);
      await conn.removeOnLogsListener(a);
      await subscriptions(0);
    });

    it('onSignature fires once at the requested commitment, then the subscription is gone', async () => {
      const s = ++slot;
      const t = txEvent(s, [key(), key()]);
      const got: [SignatureResult, Context][] = [];
      conn.onSignature(b58(t.signatures[0]!), (r, ctx) => got.push([r, ctx]), 'confirmed');
      await subscriptions(1);
      await chain.slot(s, { txs: [t] });
      await chain.slot(++slot); // more chain, so "nothing yet" is not just "not read yet"
      await waitFor(() => live.chain.slot('processed') === slot, { what: 'the live layer to read the slots' });
      expect(got).toHaveLength(0);
      await chain.confirm(s);
      await waitFor(() => got.length === 1, { what: 'signature notification' });
      expect(got[0]![0]).toEqual({ err: null });
      expect(got[0]![1].slot).toBe(Number(s));
      await subscriptions(0);
      await chain.finalize(s);
      await chain.confirm(++slot);
      await waitFor(() => live.chain.slot('confirmed') === slot, { what: 'more statuses' });
      expect(got).toHaveLength(1);
    });

    it('onSignature on a transaction the views already hold at the commitment notifies at once', async () => {
      const got: [SignatureResult, Context][] = [];
      conn.onSignature(stored.signature, (r, ctx) => got.push([r, ctx]), 'finalized');
      await waitFor(() => got.length === 1, { what: 'signature notification from the views' });
      expect(got[0]![0]).toEqual({ err: { InstructionError: [0, { Custom: 6002 }] } });
      expect(got[0]![1].slot).toBe(Number(stored.slot));
      await subscriptions(0);
    });

    it('onSlotChange gives {slot, parent, root}; onRootChange each finalized slot', async () => {
      const slots: SlotInfo[] = [];
      const roots: number[] = [];
      const a = conn.onSlotChange((i) => slots.push(i));
      const b = conn.onRootChange((r) => roots.push(r));
      await subscriptions(2);
      // Slots no earlier test finalized: a second record of a (slot, status) is a copy the live layer drops.
      slot += 5n;
      const s = slot;
      await chain.finalize(s - 3n);
      // The root is what the server knows when the slot comes: the finalization and the slot are on different
      // partitions, which a busy reader may read in either order (beside a running `npm start`, the slot came first).
      await waitFor(() => roots.includes(Number(s - 3n)), { what: 'root notification' });
      await chain.slot(s);
      await waitFor(() => slots.some((i) => i.slot === Number(s)), { what: 'slot notification' });
      expect(slots.find((i) => i.slot === Number(s))).toEqual({ slot: Number(s), parent: Number(s - 1n), root: Number(s - 3n) });
      await conn.removeSlotChangeListener(a);
      await conn.removeRootChangeListener(b);
      await subscriptions(0);
    });
  });

  describe('@solana/kit RPC subscriptions', () => {
    const kit = () => createSolanaRpcSubscriptions(wsUrl);

    /** Collects a kit subscription's notifications in the background until aborted. */
    function collect<T>(iterable: AsyncIterable<T>): T[] {
      const out: T[] = [];
      void (async () => {
        try {
          for await (const n of iterable) out.push(n);
        } catch {
          // aborted
        }
      })();
      return out;
    }

    it('accountNotifications and programNotifications, u64 values exact', async () => {
      const [acct, program] = [key(), key()];
      const ac = new AbortController();
      const rpc = kit();
      const accounts = collect(
        await rpc
          .accountNotifications(address(b58(acct)), { commitment: 'confirmed', encoding: 'base64' })
          .subscribe({ abortSignal: ac.signal }),
      );
      const programs = collect(
        await rpc
          .programNotifications(address(b58(program)), { commitment: 'processed', encoding: 'base64', filters: [{ dataSize: 3n }] })
          .subscribe({ abortSignal: ac.signal }),
      );
      await subscriptions(2);
      const s = ++slot;
      await chain.slot(s, {
        accounts: [write(s, acct, program, 2n ** 60n + 1n, Buffer.from([1, 2, 3]), 1n), write(s, key(), program, 5n, Buffer.from([1]), 2n)],
      });
      await chain.confirm(s);
      await waitFor(() => accounts.length === 1 && programs.length === 1, { what: 'kit notifications' });
      expect(accounts[0]!.context.slot).toBe(s);
      expect(accounts[0]!.value.lamports).toBe(2n ** 60n + 1n);
      expect(accounts[0]!.value.data).toEqual([Buffer.from([1, 2, 3]).toString('base64'), 'base64']);
      expect(programs[0]!.value.pubkey).toBe(b58(acct));
      expect(programs[0]!.value.account.space).toBe(3n);
      ac.abort();
      await subscriptions(0);
    });

    it('logsNotifications, signatureNotifications, slotNotifications, rootNotifications', async () => {
      const x = key();
      const ac = new AbortController();
      const rpc = kit();
      const s = ++slot;
      const t = txEvent(s, [x, key()], { logMessages: ['Program log: kit'] });
      const logs = collect(
        await rpc.logsNotifications({ mentions: [address(b58(x))] }, { commitment: 'confirmed' }).subscribe({ abortSignal: ac.signal }),
      );
      const sigs = collect(
        await rpc
          .signatureNotifications(kitSignature(b58(t.signatures[0]!)), { commitment: 'finalized' })
          .subscribe({ abortSignal: ac.signal }),
      );
      const slots = collect(await rpc.slotNotifications().subscribe({ abortSignal: ac.signal }));
      const roots = collect(await rpc.rootNotifications().subscribe({ abortSignal: ac.signal }));
      await subscriptions(4);
      await chain.slot(s, { txs: [t] });
      await chain.confirm(s);
      await waitFor(() => logs.length === 1 && slots.some((i) => i.slot === s), { what: 'logs and slot notifications' });
      expect(logs[0]!.value).toEqual({ signature: b58(t.signatures[0]!), err: null, logs: ['Program log: kit'] });
      expect(logs[0]!.context.slot).toBe(s);
      expect(sigs).toHaveLength(0);
      await chain.finalize(s);
      await waitFor(() => sigs.length === 1 && roots.includes(s), { what: 'signature and root notifications' });
      expect(sigs[0]!.context.slot).toBe(s);
      expect(sigs[0]!.value).toEqual({ err: null });
      expect(slots.find((i) => i.slot === s)).toEqual({ slot: s, parent: s - 1n, root: expect.any(BigInt) });
      await subscriptions(3); // the signature subscription ended itself
      ac.abort();
      await subscriptions(0);
    });
  });
});
