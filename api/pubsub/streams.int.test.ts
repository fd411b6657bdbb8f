/* eslint-disable @typescript-eslint/no-explicit-any -- JSON notifications are checked by value */
// Agave's slotsUpdatesSubscribe, blockSubscribe and voteSubscribe and Helius's transactionSubscribe on the real
// live layer fed by a real broker, through the real clients (@solana/web3.js onSlotUpdate, @solana/kit's
// blockNotifications / slotsUpdatesNotifications / voteNotifications) and a raw WebSocket for
// transactionSubscribe. The chain is test/support/jsonrpc/tx-chain.ts (legacy and v0 transactions, failures,
// rewards, a dead fork, a block without previous blockhash), published to Kafka for the live layer and projected
// into embedded ClickHouse for JSON-RPC: every block notification equals getBlock's answer for the same slot and
// options, every full transaction notification getTransaction's; what each subscription receives is what the
// reference matchers of test/support/pubsub/streams.ts select from the published events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection, type SlotUpdate } from '@solana/web3.js';
import { address, createSolanaRpcSubscriptions_UNSTABLE } from '@solana/kit';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { SlotEvent, SlotStatus } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { projectInto } from '../../test/support/jsonrpc/chain.js';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { buildTxChain, DEST, MEMO, PAYER, TOKEN, TX_HEADS } from '../../test/support/jsonrpc/tx-chain.js';
import { serve, type Served } from '../../test/support/jsonrpc/world.js';
import type { SlotBatch } from '../../test/support/projector/chain.js';
import { keyOf } from '../../test/support/projector/events.js';
import { publishChain } from '../../test/support/projector/kafka.js';
import { RawClient } from '../../test/support/pubsub/raw-client.js';
import { heliusMatches, mentions, published, sigOf, slotsAt, voteTransaction, type Published } from '../../test/support/pubsub/streams.js';
import { LiveLayer } from '../live/index.js';
import { startPubSub, type PubSubServer } from './server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);

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

/** Sorted by slot (numbers or bigints). */
const bySlot = <T>(xs: readonly T[], slot: (x: T) => number | bigint): T[] => [...xs].sort((a, b) => Number(slot(a)) - Number(slot(b)));
/** Transaction notifications by (slot, transactionIndex): slots read from different partitions interleave. */
const inBlockOrder = (xs: readonly any[]): any[] => [...xs].sort((a, b) => a.slot - b.slot || a.transactionIndex - b.transactionIndex);

/** The notifications a raw client received for a subscription id. */
const of = (c: RawClient, id: number): any[] => c.notifications.filter((n) => n.params.subscription === id).map((n) => n.params.result);

describe('PubSub streams: slotsUpdates, block, vote (Agave) and transaction (Helius)', () => {
  const topics = topicNames(uniquePrefix('pubsub-streams'));
  const chain = buildTxChain();
  // After the chain: a slot with a vote (and a transfer), progress statuses of a slot, a slot that dies with an error.
  const VOTE_ACCOUNT = keyOf('streams-vote-account');
  const VOTED_HASH = keyOf('streams-voted-hash');
  const vote = voteTransaction(
    213n,
    VOTE_ACCOUNT,
    keyOf('streams-identity'),
    212n,
    VOTED_HASH,
    1_710_000_213n,
    keyOf('streams-vote-sig', 64),
  );
  const tail: SlotBatch[] = [
    {
      slot: 213n,
      events: [
        { kind: 'transactions', event: vote },
        {
          kind: 'slots',
          event: SlotEvent.fromPartial({
            slot: 213n,
            status: SlotStatus.SLOT_STATUS_PROCESSED,
            block: { parentSlot: 212n, blockhash: keyOf('bh-213'), blockHeight: 1213n, transactionCount: 1 },
          }),
        },
      ],
    },
    {
      slot: 214n,
      events: [
        { kind: 'slots', event: SlotEvent.fromPartial({ slot: 214n, status: SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED }) },
        { kind: 'slots', event: SlotEvent.fromPartial({ slot: 214n, status: SlotStatus.SLOT_STATUS_CREATED_BANK, parent: 213n }) },
        { kind: 'slots', event: SlotEvent.fromPartial({ slot: 214n, status: SlotStatus.SLOT_STATUS_COMPLETED }) },
        {
          kind: 'slots',
          event: SlotEvent.fromPartial({ slot: 214n, status: SlotStatus.SLOT_STATUS_DEAD, deadError: 'replay failed: invalid shred' }),
        },
      ],
    },
  ];
  const all: Published = published([...chain, ...tail]);
  let kafka: Kafka;
  let live: LiveLayer;
  let server: PubSubServer;
  let store: TestStore;
  let rpc: Served;
  let wsUrl: string;
  let raw: RawClient;
  let rawId = 0;
  const kitAbort = new AbortController();

  /** Subscribes with the raw client; resolves with the subscription id. */
  async function subscribe(method: string, params: unknown[]): Promise<number> {
    const id = ++rawId;
    raw.call(id, method, params);
    const answer = await waitFor(() => raw.answers.get(id), { what: `${method} answer` });
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result as number;
  }

  async function call(method: string, params: unknown[]): Promise<any> {
    const id = ++rawId;
    raw.call(id, method, params);
    return waitFor(() => raw.answers.get(id), { what: `${method} answer` });
  }

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'pubsub-streams-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    store = await openTestStore();
    const db = await store.database('pubsub_streams');
    await projectInto(store.ch, db, chain, TX_HEADS);
    rpc = await serve(store.ch, db);
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    server = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      maxConnections: 100,
      maxSubscriptionsPerConnection: 100,
      maxMessageBytes: 8 * 1024 * 1024,
      maxBufferedBytes: 1 << 26,
      pingIntervalMs: 10_000,
      log: silentLogger,
    });
    wsUrl = `ws://127.0.0.1:${server.port}/`;
    raw = await RawClient.connect(wsUrl);
  });

  afterAll(async () => {
    kitAbort.abort();
    raw?.close();
    await server?.close();
    await live?.close();
    await rpc?.server.close();
    await kafka?.close();
    await store?.close();
  });

  // Subscriptions are opened before the chain is published (the live layer serves what is read from then on).
  const kit = () => createSolanaRpcSubscriptions_UNSTABLE(wsUrl);
  let kitBlocks: any[];
  let kitMentions: any[];
  let kitNobody: any[];
  let kitSlotsUpdates: any[];
  let kitVotes: any[];
  const web3Updates: SlotUpdate[] = [];
  const ids: Record<string, number> = {};
  const FULL = {
    encoding: 'json',
    transactionDetails: 'full',
    showRewards: true,
    maxSupportedTransactionVersion: 0,
    commitment: 'confirmed',
  } as const;

  it('subscribes with every client, then the chain is published', async () => {
    const k = kit();
    const s = { abortSignal: kitAbort.signal };
    kitBlocks = collect(await k.blockNotifications('all', FULL as never).subscribe(s));
    kitMentions = collect(
      await k
        .blockNotifications(
          { mentionsAccountOrProgram: address(b58(DEST)) },
          { commitment: 'confirmed', transactionDetails: 'signatures', showRewards: false },
        )
        .subscribe(s),
    );
    kitNobody = collect(
      await k
        .blockNotifications({ mentionsAccountOrProgram: address(b58(keyOf('nobody'))) }, { commitment: 'confirmed' } as never)
        .subscribe(s),
    );
    kitSlotsUpdates = collect(await k.slotsUpdatesNotifications().subscribe(s));
    kitVotes = collect(await k.voteNotifications().subscribe(s));
    const conn = new Connection(`http://127.0.0.1:${rpc.server.port}/`, { wsEndpoint: wsUrl });
    conn.onSlotUpdate((u) => web3Updates.push(u));
    ids.blockAll = await subscribe('blockSubscribe', ['all', FULL]);
    ids.blockParsedFinalized = await subscribe('blockSubscribe', [
      'all',
      { encoding: 'jsonParsed', transactionDetails: 'accounts', maxSupportedTransactionVersion: 0 },
    ]);
    ids.blockNoVersion = await subscribe('blockSubscribe', ['all', { commitment: 'confirmed' }]);
    ids.txToken = await subscribe('transactionSubscribe', [
      { accountInclude: [b58(TOKEN)], failed: false },
      { commitment: 'confirmed', encoding: 'jsonParsed', transactionDetails: 'full', showRewards: true, maxSupportedTransactionVersion: 0 },
    ]);
    ids.txDest = await subscribe('transactionSubscribe', [
      { accountInclude: [b58(DEST)], vote: false },
      { commitment: 'processed', transactionDetails: 'signatures' },
    ]);
    ids.txExclude = await subscribe('transactionSubscribe', [
      { accountExclude: [b58(DEST)], accountRequired: [b58(PAYER), b58(MEMO)] },
      { commitment: 'finalized', transactionDetails: 'none', maxSupportedTransactionVersion: 0 },
    ]);
    ids.txVotes = await subscribe('transactionSubscribe', [{ vote: true }, { commitment: 'processed', encoding: 'base64' }]);
    ids.slotsUpdates = await subscribe('slotsUpdatesSubscribe', []);
    ids.vote = await subscribe('voteSubscribe', []);
    await waitFor(() => server.subscriptions() === 15, { what: '15 subscriptions on the server' });
    await publishChain(kafka, topics, [...chain, ...tail], 3);
  });

  describe('blockSubscribe', () => {
    it("kit and a raw client get every confirmed block once, never the dead fork's; each equals getBlock's answer", async () => {
      const confirmed = slotsAt(all, 'confirmed');
      expect(confirmed).toEqual([200n, 201n, 202n, 204n, 205n, 207n, 208n, 209n, 210n]);
      await waitFor(() => kitBlocks.length >= confirmed.length && of(raw, ids.blockAll!).length >= confirmed.length, {
        what: 'confirmed blocks',
      });
      // Each once; in the order blocks complete (a block whose records came late follows a newer one, as the
      // partitions are read), so compared by slot.
      const rawBlocks = bySlot(of(raw, ids.blockAll!), (r) => r.context.slot);
      expect(rawBlocks.map((r) => r.context.slot)).toEqual(confirmed.map(Number));
      expect(bySlot(kitBlocks, (n) => n.value.slot).map((n) => n.value.slot)).toEqual(confirmed);
      for (const r of rawBlocks) {
        expect(r.value.slot).toBe(r.context.slot);
        expect(r.value.err).toBeNull();
        const answer = await rpc.call('getBlock', [
          r.value.slot,
          { encoding: 'json', transactionDetails: 'full', rewards: true, maxSupportedTransactionVersion: 0, commitment: 'confirmed' },
        ]);
        expect(answer.body.result, `slot ${r.value.slot}`).toEqual(r.value.block);
      }
    });

    it("finalized, jsonParsed, transactionDetails accounts, no rewards: getBlock's answer with the same options", async () => {
      const finalized = slotsAt(all, 'finalized');
      await waitFor(() => of(raw, ids.blockParsedFinalized!).length >= finalized.length, { what: 'finalized blocks' });
      const got = bySlot(of(raw, ids.blockParsedFinalized!), (r) => r.context.slot);
      expect(got.map((r) => BigInt(r.context.slot))).toEqual(finalized);
      for (const r of got) {
        const answer = await rpc.call('getBlock', [
          r.value.slot,
          { encoding: 'jsonParsed', transactionDetails: 'accounts', rewards: false, maxSupportedTransactionVersion: 0 },
        ]);
        expect(answer.body.result, `slot ${r.value.slot}`).toEqual(r.value.block);
      }
    });

    it('mentionsAccountOrProgram: only the transactions mentioning the key; no block mentions it: no notification', async () => {
      const confirmed = slotsAt(all, 'confirmed');
      const expected = confirmed
        .map((slot) => ({ slot, signatures: all.transactions.filter((t) => t.slot === slot && mentions(t, DEST)).map(sigOf) }))
        .filter((b) => b.signatures.length > 0);
      await waitFor(() => kitMentions.length >= expected.length, { what: 'mentions blocks' });
      expect(
        bySlot(kitMentions, (n) => n.value.slot).map((n) => ({ slot: n.value.slot, signatures: [...n.value.block.signatures] })),
      ).toEqual(expected);
      expect(kitMentions[0].value.block.rewards).toBeUndefined();
      await waitFor(() => kitBlocks.length === confirmed.length, { what: 'every block' });
      expect(kitNobody).toEqual([]);
    });

    it("a v0 transaction without maxSupportedTransactionVersion: block null and Agave's UnsupportedTransactionVersion", async () => {
      const confirmed = slotsAt(all, 'confirmed');
      await waitFor(() => of(raw, ids.blockNoVersion!).length >= confirmed.length, { what: 'blocks without a version' });
      for (const r of of(raw, ids.blockNoVersion!))
        expect(r.value).toEqual({ slot: r.context.slot, block: null, err: { UnsupportedTransactionVersion: 0 } });
    });
  });

  describe('transactionSubscribe (raw WebSocket)', () => {
    const inSlots = (slots: bigint[]) => all.transactions.filter((t) => slots.includes(t.slot));

    it("accountInclude + failed:false at confirmed, jsonParsed with rewards: the matcher's transactions, each equal to getTransaction's", async () => {
      const expected = inSlots(slotsAt(all, 'confirmed')).filter((t) => heliusMatches(t, { accountInclude: [TOKEN], failed: false }));
      expect(expected.length).toBeGreaterThan(3);
      await waitFor(() => of(raw, ids.txToken!).length >= expected.length, { what: 'token transactions' });
      const got = inBlockOrder(of(raw, ids.txToken!));
      expect(got.map((n) => n.signature)).toEqual(expected.map(sigOf));
      for (const [i, n] of got.entries()) {
        expect([n.slot, n.transactionIndex]).toEqual([Number(expected[i]!.slot), expected[i]!.index]);
        const answer = await rpc.call('getTransaction', [
          n.signature,
          { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: 'confirmed' },
        ]);
        const { transaction, meta, version } = answer.body.result;
        expect(n.transaction, n.signature).toEqual({ transaction, meta, version });
      }
    });

    it('processed, signatures, no maxSupportedTransactionVersion: legacy transactions only, the dead fork included (processed)', async () => {
      const expected = all.transactions.filter((t) => !t.versioned && heliusMatches(t, { accountInclude: [DEST], vote: false }));
      await waitFor(() => of(raw, ids.txDest!).length >= expected.length, { what: 'transfers' });
      expect(inBlockOrder(of(raw, ids.txDest!))).toEqual(
        expected.map((t) => ({
          signature: sigOf(t),
          slot: Number(t.slot),
          transactionIndex: t.index,
          err: t.err ? JSON.parse(t.err) : null,
        })),
      );
      expect(expected.some((t) => t.slot === 206n)).toBe(true);
    });

    it('accountExclude and accountRequired at finalized; vote:true gets the vote only', async () => {
      const expected = inSlots(slotsAt(all, 'finalized')).filter((t) =>
        heliusMatches(t, { accountExclude: [DEST], accountRequired: [PAYER, MEMO] }),
      );
      expect(expected.length).toBeGreaterThan(3);
      await waitFor(() => of(raw, ids.txExclude!).length >= expected.length, { what: 'finalized transactions' });
      expect(inBlockOrder(of(raw, ids.txExclude!)).map((n) => n.signature)).toEqual(expected.map(sigOf));
      await waitFor(() => of(raw, ids.txVotes!).length >= 1, { what: 'the vote transaction' });
      const [v] = of(raw, ids.txVotes!);
      expect(v.signature).toBe(sigOf(vote));
      expect(v.transaction.transaction[1]).toBe('base64');
    });
  });

  describe('slotsUpdatesSubscribe', () => {
    const dead = (): ReadonlySet<bigint> => all.status.get(SlotStatus.SLOT_STATUS_DEAD)!;
    /**
     * What the published statuses and blocks make, as (type, slot). A produced slot that died may or may not have
     * its `frozen`: when the dead status is read before the last of the block's records (this chain's markers
     * carry no record counts, so nothing holds them back), the block is dropped unfinished; Agave has no frozen
     * bank for a dead slot either.
     */
    function expected(): string[] {
      const out: string[] = [];
      for (const s of all.produced) if (!dead().has(s)) out.push(`frozen ${s}`);
      for (const s of all.status.get(SlotStatus.SLOT_STATUS_CONFIRMED)!) out.push(`optimisticConfirmation ${s}`);
      for (const s of all.status.get(SlotStatus.SLOT_STATUS_FINALIZED)!) out.push(`root ${s}`);
      for (const s of all.status.get(SlotStatus.SLOT_STATUS_DEAD)!) out.push(`dead ${s}`);
      out.push('firstShredReceived 214', 'createdBank 214', 'completed 214');
      return out.sort();
    }

    it("web3.js onSlotUpdate and kit get Agave's SlotUpdate for every status and produced block", async () => {
      const want = expected();
      const deadFrozen = (u: { type: string; slot: number | bigint }) => u.type === 'frozen' && dead().has(BigInt(u.slot));
      const seen = (us: readonly { type: string; slot: number | bigint }[]) =>
        us.filter((u) => !deadFrozen(u)).map((u) => `${u.type} ${u.slot}`);
      await waitFor(() => seen(web3Updates).length >= want.length && seen(kitSlotsUpdates).length >= want.length, { what: 'slot updates' });
      expect(seen(web3Updates).sort()).toEqual(want);
      expect(seen(kitSlotsUpdates).sort()).toEqual(want);
      expect(web3Updates.filter((u) => deadFrozen(u)).length).toBeLessThanOrEqual(dead().size);
      expect(web3Updates.find((u) => u.type === 'dead' && u.slot === 214)).toMatchObject({ err: 'replay failed: invalid shred' });
      expect(web3Updates.find((u) => u.type === 'createdBank')).toMatchObject({ slot: 214, parent: 213 });
      for (const u of web3Updates) expect(Math.abs(u.timestamp - Date.now())).toBeLessThan(120_000);
    });

    it("frozen: the block's transaction stats (successes and failures as published)", () => {
      for (const slot of all.produced) {
        if (dead().has(slot)) continue;
        const txs = all.transactions.filter((t) => t.slot === slot);
        const failed = txs.filter((t) => t.err).length;
        const frozen = web3Updates.find((u) => u.type === 'frozen' && u.slot === Number(slot));
        expect(frozen, `slot ${slot}`).toMatchObject({
          stats: {
            numSuccessfulTransactions: txs.length - failed,
            numFailedTransactions: failed,
            numTransactionEntries: 0,
            maxTransactionsPerEntry: 0,
          },
        });
      }
    });
  });

  describe('voteSubscribe', () => {
    it("kit and a raw client get Agave's RpcVote of the vote transaction", async () => {
      await waitFor(() => kitVotes.length >= 1 && of(raw, ids.vote!).length >= 1, { what: 'votes' });
      const want = { votePubkey: b58(VOTE_ACCOUNT), slots: [212], hash: b58(VOTED_HASH), timestamp: 1_710_000_213, signature: sigOf(vote) };
      expect(of(raw, ids.vote!)).toEqual([want]);
      expect(kitVotes).toEqual([{ ...want, slots: [212n], timestamp: 1_710_000_213n }]);
    });
  });

  describe('unsubscribe and errors', () => {
    it('each …Unsubscribe removes its subscription; a second time is Invalid subscription id.', async () => {
      const before = server.subscriptions();
      for (const [method, id] of [
        ['blockUnsubscribe', ids.blockAll],
        ['transactionUnsubscribe', ids.txToken],
        ['slotsUpdatesUnsubscribe', ids.slotsUpdates],
        ['voteUnsubscribe', ids.vote],
      ] as const) {
        expect((await call(method, [id])).result).toBe(true);
        expect((await call(method, [id])).error).toEqual({ code: -32602, message: 'Invalid subscription id.' });
      }
      expect(server.subscriptions()).toBe(before - 4);
    });

    it("bad params answer Agave's and Helius's errors: commitment, filter, key limit, unknown option", async () => {
      expect((await call('blockSubscribe', ['all', { commitment: 'processed' }])).error).toEqual({
        code: -32602,
        message: 'Method does not support commitment below `confirmed`',
      });
      expect((await call('blockSubscribe', [{ mentionsAccountOrProgram: 'x' }])).error).toEqual({
        code: -32602,
        message: 'Invalid Request: Invalid mentions_account_or_program provided',
      });
      expect((await call('blockSubscribe', [{ mentions: [b58(DEST)] }])).error).toMatchObject({
        code: -32602,
        data: expect.stringContaining('filter'),
      });
      const tooMany = Array.from({ length: 50_001 }, () => b58(DEST));
      expect((await call('transactionSubscribe', [{ accountRequired: tooMany }])).error).toEqual({
        code: -32602,
        message: 'Invalid params',
        data: 'filter.accountRequired: at most 50000 addresses, got 50001',
      });
      expect((await call('transactionSubscribe', [{ accountInclude: tooMany.slice(1) }])).result).toEqual(expect.any(Number));
      expect((await call('transactionSubscribe', [{}, { transactionDetail: 'full' }])).error).toMatchObject({
        code: -32602,
        data: expect.stringContaining('unknown member "transactionDetail"'),
      });
      expect((await call('voteSubscribe', [{}])).error).toMatchObject({ code: -32602 });
    });
  });
});
