// geyser.Geyser Subscribe against the real api fed by the real broker, driven by the REAL
// @triton-one/yellowstone-grpc client. Each filter kind must deliver exactly what a reference matcher
// written here (Yellowstone's rules, not api/filters) selects from the records read back from the topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { randomBytes } from 'node:crypto';
import type { Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { EntryEvent, SlotEvent, SlotStatus, type AccountEvent, type ChainEvent, type TransactionEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { accountEvent, key, readTopics, slotEvent, TestPublisher, txEvent, type Msg } from '../../../test/support/grpc/clients.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder, type GeyserClient } from '../../../test/support/geyser/client.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { startFedGrpc } from '../../../test/support/grpc/fed-server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const sorted = <T>(xs: T[]): T[] => [...xs].sort();

// ---- Reference matcher (Yellowstone's filter.rs semantics, written independently of api/filters) ----
interface TxFilter {
  vote?: boolean;
  failed?: boolean;
  signature?: string;
  accountInclude?: string[];
  accountExclude?: string[];
  accountRequired?: string[];
}
function txKeys(t: TransactionEvent): Set<string> {
  return new Set([...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map(b58));
}
function txPasses(f: TxFilter, t: TransactionEvent): boolean {
  const keys = txKeys(t);
  if (f.vote !== undefined && f.vote !== t.isVote) return false;
  if (f.failed !== undefined && f.failed !== (t.err !== undefined)) return false;
  if (f.signature !== undefined && f.signature !== b58(t.signatures[0]!)) return false;
  if (f.accountInclude?.length && !f.accountInclude.some((k) => keys.has(k))) return false;
  if (f.accountExclude?.length && f.accountExclude.some((k) => keys.has(k))) return false;
  if (f.accountRequired?.length && !f.accountRequired.every((k) => keys.has(k))) return false;
  return true;
}

interface AccFilter {
  account?: string[];
  owner?: string[];
  memcmp?: { offset: number; bytes: Buffer }[];
  datasize?: number;
  lamportsLt?: bigint;
  tokenAccountState?: boolean;
  nonemptyTxnSignature?: boolean;
}
function isInitializedTokenAccount(data: Uint8Array): boolean {
  if (data.length < 165) return false;
  if (data.length > 165 && (data.length === 355 || data[165] !== 2)) return false;
  return data[108] !== 0;
}
function accPasses(f: AccFilter, a: AccountEvent): boolean {
  if (f.account?.length && !f.account.includes(b58(a.pubkey))) return false;
  if (f.owner?.length && !f.owner.includes(b58(a.owner))) return false;
  if (f.nonemptyTxnSignature !== undefined && f.nonemptyTxnSignature !== (a.txnSignature !== undefined)) return false;
  if (f.datasize !== undefined && a.data.length !== f.datasize) return false;
  if (f.lamportsLt !== undefined && !(a.lamports < f.lamportsLt)) return false;
  if (f.tokenAccountState && !isInitializedTokenAccount(a.data)) return false;
  for (const m of f.memcmp ?? [])
    if (m.offset + m.bytes.length > a.data.length || !m.bytes.equals(a.data.subarray(m.offset, m.offset + m.bytes.length))) return false;
  return true;
}
/** Yellowstone's slices: ranges concatenated, a range not inside the data left out. */
function ysSlice(data: Uint8Array, slices: { offset: number; length: number }[]): Buffer {
  return Buffer.concat(slices.filter((s) => s.offset + s.length <= data.length).map((s) => data.subarray(s.offset, s.offset + s.length)));
}
/** Event-model status -> Yellowstone SlotStatus number; skipped and gap have none. */
const YS_STATUS: Record<number, number | undefined> = { 0: 0, 1: 1, 2: 2, 3: undefined, 4: 6, 5: 3, 6: 5, 7: 4, 8: undefined };

function blockMeta(slot: bigint, height: bigint, txs: number, entries: number) {
  return {
    parentSlot: slot - 1n,
    blockhash: randomBytes(32),
    blockHeight: height,
    blockTime: 1_700_000_000n,
    leader: key(),
    transactionCount: txs,
    voteTransactionCount: 0,
    previousBlockhash: randomBytes(32),
    rewards: [],
    executedTransactionCount: BigInt(txs),
    entryCount: BigInt(entries),
  };
}
function entryEvent(slot: bigint, index: bigint): EntryEvent {
  return EntryEvent.fromPartial({
    slot,
    index,
    numHashes: 12n,
    hash: randomBytes(32),
    executedTransactionCount: 1n,
    startingTransactionIndex: index,
  });
}

describe('geyser.Geyser Subscribe (real Yellowstone client)', () => {
  const topics = topicNames(uniquePrefix('geyser-sub'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: GeyserClient;
  const open: GeyserRecorder[] = [];
  let slot = 5000n;
  let firstTest: { slot: bigint; key: Buffer } | undefined;
  const tokenServer: { s?: TestGrpc } = {};

  beforeAll(async () => {
    ({ kafka, pub, server } = await startFedGrpc({ clientId: 'geyser-sub-test', topics, partitions: 2, pingIntervalMs: 300 }));
    client = await connectGeyser(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.close();
    await server?.close();
    await tokenServer.s?.close();
    await pub?.stop();
    await kafka?.close();
  });

  async function stream(c: GeyserClient = client): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(c);
    open.push(r);
    return r;
  }

  /** The chain events in the topics (not the parsed topic's SubscribeParsed updates). */
  async function inTopics(): Promise<ChainEvent[]> {
    return (await readTopics(kafka, topics)).flatMap((r) => (r.event.kind === 'parsed' ? [] : [r.event]));
  }

  async function transactionsInTopics(): Promise<TransactionEvent[]> {
    return (await readTopics(kafka, topics)).flatMap((r) => (r.event.kind === 'transactions' ? [r.event.event] : []));
  }

  it('transactions and transactions_status: exactly what the reference matcher selects, with the names of every matching filter', async () => {
    const [a, b, c, d] = [key(), key(), key(), key()];
    const s = ++slot;
    firstTest = { slot: s, key: a };
    const txs = [
      txEvent(s, [a, b]),
      txEvent(s, [a, d], { isVote: true }),
      txEvent(s, [b, c], { err: '{"InstructionError":[0,{"Custom":41}]}' }),
      txEvent(s, [c, d], { loadedWritable: [a] }),
      txEvent(s, [b, d]),
      txEvent(s, [d]),
    ];
    const filters: Record<string, TxFilter> = {
      inc_a: { accountInclude: [b58(a)] },
      req_bc: { accountRequired: [b58(b), b58(c)] },
      novote_not_c: { vote: false, accountExclude: [b58(c)], accountInclude: [b58(a), b58(b)] },
      failed: { failed: true, accountInclude: [b58(a), b58(b), b58(c)] },
      by_sig: { signature: b58(txs[4]!.signatures[0]!) },
    };
    const statusFilters: Record<string, TxFilter> = { st_d: { accountInclude: [b58(d)], failed: false } };
    const wire = (f: TxFilter) => ({ accountInclude: [], accountExclude: [], accountRequired: [], ...f });
    const r = await stream();
    await r.request(
      geyserRequest({
        transactions: Object.fromEntries(Object.entries(filters).map(([n, f]) => [n, wire(f)])),
        transactionsStatus: Object.fromEntries(Object.entries(statusFilters).map(([n, f]) => [n, wire(f)])),
      }),
    );
    await pub.publish(txs.map((event) => ({ kind: 'transactions' as const, event })));

    const inTopics = (await transactionsInTopics()).filter((t) => txKeys(t).has(b58(a)) || [b, c, d].some((k) => txKeys(t).has(b58(k))));
    const expect1 = (list: Record<string, TxFilter>) =>
      inTopics.flatMap((t) => {
        const names = Object.keys(list).filter((n) => txPasses(list[n]!, t));
        return names.length ? [`${hex(t.signatures[0]!)} ${sorted(names).join(',')}`] : [];
      });
    const wantTx = expect1(filters);
    const wantStatus = expect1(statusFilters);
    expect(wantTx.length).toBeGreaterThan(3);
    expect(wantStatus.length).toBeGreaterThan(0);
    await waitFor(() => r.of('transaction').length >= wantTx.length && r.of('transactionStatus').length >= wantStatus.length, {
      what: 'transactions',
    });
    // A later matching transaction proves nothing else was still on its way.
    const last = txEvent(s, [a]);
    await pub.publish([{ kind: 'transactions', event: last }]);
    await waitFor(() => r.of('transaction').some((u) => hex(u.transaction.transaction!.signature) === hex(last.signatures[0]!)), {
      what: 'last',
    });
    const got = r.of('transaction').filter((u) => hex(u.transaction.transaction!.signature) !== hex(last.signatures[0]!));
    expect(sorted(got.map((u) => `${hex(u.transaction.transaction!.signature)} ${sorted(u.filters).join(',')}`))).toEqual(sorted(wantTx));
    expect(sorted(r.of('transactionStatus').map((u) => `${hex(u.transactionStatus.signature)} ${sorted(u.filters).join(',')}`))).toEqual(
      sorted(wantStatus),
    );

    // The full transaction and its meta, as Yellowstone sends them.
    const failed = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[2]!.signatures[0]!))!;
    expect(failed.transaction.slot).toBe(s.toString());
    expect(failed.transaction.transaction!.meta!.fee).toBe('5000');
    expect(failed.transaction.transaction!.meta!.err).toBeDefined();
    expect(failed.transaction.transaction!.transaction!.message!.accountKeys.map(hex)).toEqual([hex(b), hex(c)]);
    expect(failed.createdAt).toBeInstanceOf(Date);
    const loaded = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[3]!.signatures[0]!))!;
    expect(loaded.transaction.transaction!.meta!.loadedWritableAddresses.map(hex)).toEqual([hex(a)]);
    const vote = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[1]!.signatures[0]!))!;
    expect(vote.transaction.transaction!.isVote).toBe(true);
  });

  it('accounts: account, owner, memcmp (bytes and base58), datasize, lamports, token_account_state, nonempty_txn_signature; Yellowstone data slices', async () => {
    const [owner, other, fixed] = [key(), key(), key()];
    const s = ++slot;
    const token = Buffer.alloc(165, 7);
    token[108] = 1;
    const accounts = [
      accountEvent(s, key(), owner, token, { lamports: 5n, txnSignature: randomBytes(64) }),
      accountEvent(s, key(), owner, Buffer.from('hello world'), { lamports: 10n }),
      accountEvent(s, fixed, other, Buffer.from('abc'), { lamports: 1n }),
      accountEvent(s, key(), owner, Buffer.alloc(165), { lamports: 3n, txnSignature: randomBytes(64) }),
    ];
    const filters: Record<string, AccFilter> = {
      by_owner: { owner: [b58(owner)] },
      by_account: { account: [b58(fixed)] },
      hello: { owner: [b58(owner)], memcmp: [{ offset: 0, bytes: Buffer.from('hello') }] },
      world58: { memcmp: [{ offset: 6, bytes: Buffer.from('world') }], owner: [b58(owner), b58(other)] },
      size165: { owner: [b58(owner)], datasize: 165 },
      cheap: { owner: [b58(owner), b58(other)], lamportsLt: 8n },
      token: { owner: [b58(owner)], tokenAccountState: true },
      signed: { owner: [b58(owner)], nonemptyTxnSignature: true },
      unsigned: { owner: [b58(owner), b58(other)], nonemptyTxnSignature: false },
    };
    const wire = (name: string, f: AccFilter) => ({
      account: f.account ?? [],
      owner: f.owner ?? [],
      nonemptyTxnSignature: f.nonemptyTxnSignature,
      filters: [
        ...(f.memcmp ?? []).map((m) => ({
          memcmp: name === 'world58' ? { offset: String(m.offset), base58: b58(m.bytes) } : { offset: String(m.offset), bytes: m.bytes },
        })),
        ...(f.datasize === undefined ? [] : [{ datasize: String(f.datasize) }]),
        ...(f.lamportsLt === undefined ? [] : [{ lamports: { lt: f.lamportsLt.toString() } }]),
        ...(f.tokenAccountState ? [{ tokenAccountState: true }] : []),
      ],
    });
    const slices = [
      { offset: 0, length: 3 },
      { offset: 6, length: 5 },
    ];
    const r = await stream();
    await r.request(
      geyserRequest({
        accounts: Object.fromEntries(Object.entries(filters).map(([n, f]) => [n, wire(n, f)])),
        accountsDataSlice: slices.map((x) => ({ offset: String(x.offset), length: String(x.length) })),
      }),
    );
    await pub.publish(accounts.map((event) => ({ kind: 'accounts' as const, event })));
    const mine = new Set(accounts.map((a) => b58(a.pubkey)));
    const want = (await inTopics()).flatMap((e) => {
      if (e.kind !== 'accounts' || !mine.has(b58(e.event.pubkey))) return [];
      const names = Object.keys(filters).filter((n) => accPasses(filters[n]!, e.event));
      return names.length ? [`${b58(e.event.pubkey)} ${sorted(names).join(',')} ${hex(ysSlice(e.event.data, slices))}`] : [];
    });
    expect(want).toHaveLength(4);
    await waitFor(() => r.of('account').length >= want.length, { what: 'accounts' });
    const marker = accountEvent(s, key(), owner, Buffer.alloc(1));
    await pub.publish([{ kind: 'accounts', event: marker }]);
    await waitFor(() => r.of('account').some((u) => hex(u.account.account!.pubkey) === hex(marker.pubkey)), { what: 'marker account' });
    const got = r.of('account').filter((u) => hex(u.account.account!.pubkey) !== hex(marker.pubkey));
    expect(
      sorted(got.map((u) => `${b58(u.account.account!.pubkey)} ${sorted(u.filters).join(',')} ${hex(u.account.account!.data)}`)),
    ).toEqual(sorted(want));
    const first = got.find((u) => hex(u.account.account!.pubkey) === hex(accounts[0]!.pubkey))!;
    expect(first.account.slot).toBe(s.toString());
    expect(first.account.account!.lamports).toBe('5');
    expect(hex(first.account.account!.txnSignature!)).toBe(hex(accounts[0]!.txnSignature!));
    expect(first.account.account!.rentEpoch).toBe('18446744073709551615');
  });

  let chainSlots: { confirmed: bigint; processed: bigint } | undefined;

  it('slots (filter_by_commitment, interslot_updates), blocks_meta and entry at processed; a confirmed stream holds its updates until the slot is confirmed', async () => {
    const s = (slot += 3n) - 2n;
    const k = key();
    const A = await stream();
    const B = await stream();
    const slotFilters = { all: {}, inter: { interslotUpdates: true }, mine: { filterByCommitment: true } };
    await A.request(geyserRequest({ slots: slotFilters, blocksMeta: { m: {} }, entry: { e: {} } }));
    await B.request(
      geyserRequest({
        commitment: 1,
        slots: { bc: { filterByCommitment: true } },
        transactions: { t: { accountInclude: [b58(k)], accountExclude: [], accountRequired: [] } },
        blocksMeta: { m: {} },
      }),
    );
    const tx = txEvent(s, [k]);
    const meta = blockMeta(s, 900n, 1, 1);
    await pub.publish([
      { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED) },
      { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_CREATED_BANK) },
      { kind: 'entries', event: entryEvent(s, 0n) },
      { kind: 'transactions', event: tx },
      { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_COMPLETED) },
      { kind: 'slots', event: SlotEvent.fromPartial({ slot: s, status: SlotStatus.SLOT_STATUS_PROCESSED, block: meta }) },
      { kind: 'slots', event: slotEvent(s + 1n, SlotStatus.SLOT_STATUS_PROCESSED) },
      { kind: 'slots', event: slotEvent(s + 1n, SlotStatus.SLOT_STATUS_DEAD) },
      { kind: 'slots', event: slotEvent(s + 2n, SlotStatus.SLOT_STATUS_SKIPPED) },
    ]);
    await waitFor(() => A.of('slot').some((u) => u.slot.slot === (s + 1n).toString() && u.slot.status === 6), { what: 'dead status' });
    // Published and read by the api, but s is only processed: nothing of it for B yet.
    await B.sync();
    expect(B.of('transaction')).toHaveLength(0);
    expect(B.of('blockMeta')).toHaveLength(0);
    expect(B.of('slot')).toHaveLength(0);
    await pub.publish([
      { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_CONFIRMED) },
      { kind: 'slots', event: slotEvent(s, SlotStatus.SLOT_STATUS_FINALIZED) },
    ]);
    await waitFor(
      () => B.of('transaction').length === 1 && B.of('blockMeta').length === 1 && A.of('slot').some((u) => u.slot.status === 2),
      { what: 'confirmed updates' },
    );
    chainSlots = { confirmed: s, processed: s + 1n };

    const records = (await inTopics()).filter(
      (e): e is Extract<ChainEvent, { kind: 'slots' }> => e.kind === 'slots' && e.event.slot >= s && e.event.slot <= s + 2n,
    );
    const slotNames = (commitment: number, fs: Record<string, { filterByCommitment?: boolean; interslotUpdates?: boolean }>, st: number) =>
      Object.keys(fs).filter((n) => (!fs[n]!.filterByCommitment || st === commitment) && (fs[n]!.interslotUpdates || st <= 2));
    const expectSlots = (commitment: number, fs: Record<string, { filterByCommitment?: boolean; interslotUpdates?: boolean }>) =>
      records.flatMap((e) => {
        const st = YS_STATUS[e.event.status];
        if (st === undefined) return [];
        const names = slotNames(commitment, fs, st);
        return names.length ? [`${e.event.slot} ${st} ${sorted(names).join(',')}`] : [];
      });
    const gotSlots = (r: GeyserRecorder) =>
      r
        .of('slot')
        .filter((u) => BigInt(u.slot.slot) >= s)
        .map((u) => `${u.slot.slot} ${u.slot.status} ${sorted(u.filters).join(',')}`);
    expect(sorted(gotSlots(A))).toEqual(sorted(expectSlots(0, slotFilters)));
    expect(sorted(gotSlots(B))).toEqual(sorted(expectSlots(1, { bc: { filterByCommitment: true } })));
    expect(gotSlots(B)).toEqual([`${s} 1 bc`]);

    for (const r of [A, B]) {
      const [m] = r.of('blockMeta');
      expect(m!.filters).toEqual(['m']);
      expect(m!.blockMeta.slot).toBe(s.toString());
      expect(m!.blockMeta.blockhash).toBe(b58(meta.blockhash));
      expect(m!.blockMeta.blockHeight!.blockHeight).toBe('900');
      expect(m!.blockMeta.parentBlockhash).toBe(b58(meta.previousBlockhash));
      expect(m!.blockMeta.executedTransactionCount).toBe('1');
      expect(m!.blockMeta.entriesCount).toBe('1');
    }
    const entries = records.length > 0 ? (await inTopics()).filter((e) => e.kind === 'entries' && e.event.slot === s) : [];
    expect(A.of('entry').map((u) => `${u.entry.slot}/${u.entry.index} ${hex(u.entry.hash)} ${u.filters.join(',')}`)).toEqual(
      entries.map((e) => `${(e.event as EntryEvent).slot}/${(e.event as EntryEvent).index} ${hex((e.event as EntryEvent).hash)} e`),
    );
    expect(hex(B.of('transaction')[0]!.transaction.transaction!.signature)).toBe(hex(tx.signatures[0]!));
  });

  it('blocks: transactions (account_include), accounts and entries when asked for, one update per filter, in block order', async () => {
    const s = ++slot;
    const [q, x, other] = [key(), key(), key()];
    const txs = [txEvent(s, [q, x], { index: 0 }), txEvent(s, [x], { index: 1 })];
    const accounts = [
      accountEvent(s, q, x, Buffer.from('qqqq')),
      accountEvent(s, other, x, Buffer.from('oooo')),
      accountEvent(s, q, x, Buffer.from('QQQQ'), { writeVersion: s * 1000n + 1n }),
    ];
    const entries = [entryEvent(s, 0n), entryEvent(s, 1n)];
    const r = await stream();
    await r.request(
      geyserRequest({
        blocks: { all: { accountInclude: [] }, withq: { accountInclude: [b58(q)], includeAccounts: true, includeEntries: true } },
        accountsDataSlice: [{ offset: '0', length: '2' }],
      }),
    );
    const meta = blockMeta(s, 901n, 2, 2);
    await pub.publish([
      { kind: 'transactions', event: txs[1]! },
      ...accounts.map((event) => ({ kind: 'accounts' as const, event })),
      { kind: 'entries', event: entries[1]! },
      { kind: 'transactions', event: txs[0]! },
      { kind: 'entries', event: entries[0]! },
      {
        kind: 'slots',
        event: SlotEvent.fromPartial({
          slot: s,
          status: SlotStatus.SLOT_STATUS_PROCESSED,
          block: meta,
          end: {
            counts: [
              { kind: 'transactions', partition: 0, count: 2 },
              { kind: 'accounts', partition: 0, count: 3 },
              { kind: 'entries', partition: 0, count: 2 },
            ],
          },
        }),
      },
    ]);
    await waitFor(() => r.of('block').length >= 2, { what: 'blocks' });
    const ofSlot = (await inTopics()).filter((e) => e.kind !== 'epochs' && (e.event as { slot: bigint }).slot === s);
    const topicTxs = ofSlot.flatMap((e) => (e.kind === 'transactions' ? [e.event] : [])).sort((a, b) => a.index - b.index);
    const lastWrite = new Map<string, AccountEvent>();
    for (const e of ofSlot)
      if (e.kind === 'accounts' && (lastWrite.get(b58(e.event.pubkey))?.writeVersion ?? -1n) < e.event.writeVersion)
        lastWrite.set(b58(e.event.pubkey), e.event);
    const topicEntries = ofSlot.flatMap((e) => (e.kind === 'entries' ? [e.event] : [])).sort((a, b) => Number(a.index - b.index));
    const byName = new Map(r.of('block').map((u) => [u.filters.join(','), u.block]));
    expect([...byName.keys()].sort()).toEqual(['all', 'withq']);
    const all = byName.get('all')!;
    expect(all.slot).toBe(s.toString());
    expect(all.blockhash).toBe(b58(meta.blockhash));
    expect(all.transactions.map((t) => hex(t.signature))).toEqual(topicTxs.map((t) => hex(t.signatures[0]!)));
    expect(all.accounts).toEqual([]);
    expect(all.entries).toEqual([]);
    expect(all.updatedAccountCount).toBe(String(lastWrite.size));
    const withq = byName.get('withq')!;
    expect(withq.transactions.map((t) => hex(t.signature))).toEqual(
      topicTxs.filter((t) => txKeys(t).has(b58(q))).map((t) => hex(t.signatures[0]!)),
    );
    expect(withq.accounts.map((a) => `${b58(a.pubkey)} ${hex(a.data)}`)).toEqual(
      [...lastWrite.values()]
        .filter((a) => b58(a.pubkey) === b58(q))
        .map((a) => `${b58(a.pubkey)} ${hex(ysSlice(a.data, [{ offset: 0, length: 2 }]))}`),
    );
    expect(withq.entries.map((e) => `${e.index} ${hex(e.hash)}`)).toEqual(topicEntries.map((e) => `${e.index} ${hex(e.hash)}`));
    chainSlots = { ...chainSlots!, processed: s };
  });

  it('ping/pong and server pings', async () => {
    const r = await stream();
    r.write(geyserRequest({ ping: { id: 42 } }));
    await waitFor(() => r.of('pong').some((u) => u.pong.id === 42) && r.of('ping').length >= 2, { what: 'pong and two server pings' });
    expect(r.of('ping')[0]!.filters).toEqual([]);
  });

  it('unary calls answer from the chain the topics hold', async () => {
    expect(chainSlots).toBeDefined();
    const slots = (await inTopics()).flatMap((e) => (e.kind === 'slots' ? [e.event] : []));
    const newest = (level: number) =>
      slots.filter((e) => e.status <= 2 && e.status >= level).reduce((m, e) => (e.slot > m ? e.slot : m), 0n);
    const metaAt = (level: number) =>
      slots.filter((e) => e.block && e.status === 0 && e.slot <= newest(level)).sort((a, b) => Number(b.slot - a.slot))[0]!;
    for (const level of [0, 1, 2]) {
      expect((await client.getSlot(level)).slot).toBe(newest(level).toString());
      expect((await client.getBlockHeight(level)).blockHeight).toBe(metaAt(level).block!.blockHeight.toString());
      const latest = await client.getLatestBlockhash(level);
      expect(latest).toEqual({
        slot: metaAt(level).slot.toString(),
        blockhash: b58(metaAt(level).block!.blockhash),
        lastValidBlockHeight: (metaAt(level).block!.blockHeight + 150n).toString(),
      });
    }
    const valid = await client.isBlockhashValid(b58(metaAt(1).block!.blockhash), 0);
    expect(valid).toEqual({ slot: newest(0).toString(), valid: true });
    expect((await client.isBlockhashValid(b58(randomBytes(32)), 0)).valid).toBe(false);
    expect((await client.ping(7)).count).toBe(7);
    expect(JSON.parse((await client.getVersion()).version).version.package).toBe('slotstream');
    const all = (await inTopics()).flatMap((e) => (e.kind === 'epochs' ? [] : [e.event.slot]));
    expect((await client.subscribeReplayInfo()).firstAvailable).toBe(all.reduce((m, x) => (x < m ? x : m)).toString());
  });

  it('from_slot replays the history from Kafka, then continues live', async () => {
    const { slot: from, key: a } = firstTest!;
    const r = await stream();
    await r.request(
      geyserRequest({
        fromSlot: from.toString(),
        transactions: { a: { accountInclude: [b58(a)], accountExclude: [], accountRequired: [] } },
      }),
    );
    const want = (await transactionsInTopics()).filter((t) => t.slot >= from && txKeys(t).has(b58(a))).map((t) => hex(t.signatures[0]!));
    expect(want.length).toBeGreaterThan(2);
    await waitFor(() => r.of('transaction').length >= want.length, { what: 'replayed transactions' });
    const live = txEvent(++slot, [a]);
    await pub.publish([{ kind: 'transactions', event: live }]);
    await waitFor(() => r.of('transaction').length >= want.length + 1, { what: 'live transaction' });
    expect(r.of('transaction').map((u) => hex(u.transaction.transaction!.signature))).toEqual([...want, hex(live.signatures[0]!)]);
  });

  it('invalid requests end the stream with INVALID_ARGUMENT "failed to create filter: ..."; unary calls check their arguments', async () => {
    const r = await stream();
    r.write(geyserRequest({ transactions: { x: { accountInclude: ['not-a-key'], accountExclude: [], accountRequired: [] } } }));
    await waitFor(() => r.error !== undefined, { what: 'stream error' });
    expect(errorText(r.error)).toMatch(/Client specified an invalid argument/);
    expect(errorText(r.error)).toMatch(
      /failed to create filter: transactions\["x"\]\.account_include\[0\]: Invalid Base58 string "not-a-key"/,
    );
    const unaryError = async (p: Promise<unknown>): Promise<string> => p.then(() => 'no error', errorText);
    expect(await unaryError(client.isBlockhashValid('0OIl', 0))).toMatch(/invalid argument.*invalid blockhash "0OIl"/);
  });

  it('x-token: the same token check as stream.Stream', async () => {
    tokenServer.s = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      queueSize: 1000,
      log: silentLogger,
      pingIntervalMs: 10_000,
      authToken: 'geyser-secret',
    });
    const without = await connectGeyser(tokenServer.s.port);
    expect(await without.getSlot(0).then(() => 'no error', errorText)).toMatch(/authentication credentials.*missing or invalid x-token/);
    // The client opens the stream with its first request: the refusal comes back from subscribe().
    expect(await GeyserRecorder.open(without).then(() => 'no error', errorText)).toMatch(
      /authentication credentials.*missing or invalid x-token/,
    );
    const withToken = await connectGeyser(tokenServer.s.port, 'geyser-secret');
    expect((await withToken.ping(3)).count).toBe(3);
  });

  it('gzip-compressed requests are accepted', async () => {
    const gz = await connectGeyser(server.port, undefined, { grpcDefaultCompressionAlgorithm: 0 });
    const k = key();
    const r = await stream(gz);
    await r.request(geyserRequest({ transactions: { k: { accountInclude: [b58(k)], accountExclude: [], accountRequired: [] } } }));
    const t = txEvent(++slot, [k]);
    await pub.publish([{ kind: 'transactions', event: t }]);
    await waitFor(() => r.of('transaction').length === 1, { what: 'transaction over gzip' });
    expect(hex(r.of('transaction')[0]!.transaction.transaction!.signature)).toBe(hex(t.signatures[0]!));
  });

  it('zstd-compressed requests are accepted (issue 23: our grpc-js patch; api/grpc/geyser/compression.int.test.ts)', async () => {
    const z = await connectGeyser(server.port, undefined, { grpcDefaultCompressionAlgorithm: 1 });
    const text = await z.ping(1).then((p) => `answered ${p.count}`, errorText);
    expect(text).toBe('answered 1');
  });

  it('server reflection lists and describes geyser.Geyser beside stream.Stream', async () => {
    const require = createRequire(import.meta.url);
    const reflProto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
    const reflPkg = grpc.loadPackageDefinition(protoLoader.loadSync(reflProto, { keepCase: true })) as Msg;
    const rc = new reflPkg.grpc.reflection.v1.ServerReflection(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const ask = async (req: Msg): Promise<Msg> => {
      const call = rc.ServerReflectionInfo();
      const answer = new Promise<Msg>((ok, ko) => {
        call.on('data', ok);
        call.on('error', ko);
      });
      call.write(req);
      const a = await answer;
      call.end();
      return a;
    };
    const listed = (await ask({ list_services: '' })).list_services_response.service.map((s: Msg) => s.name);
    expect(listed).toEqual(expect.arrayContaining(['stream.Stream', 'geyser.Geyser']));
    const files = (await ask({ file_containing_symbol: 'geyser.Geyser' })).file_descriptor_response.file_descriptor_proto as Buffer[];
    const decoded = files.map((f) => descriptor.FileDescriptorProto.decode(f) as Msg);
    const geyserFile = decoded.find((f) => f.package === 'geyser')!;
    const methods = geyserFile.service.find((s: Msg) => s.name === 'Geyser').method.map((m: Msg) => m.name);
    expect(methods).toEqual(
      expect.arrayContaining([
        'Subscribe',
        'SubscribeReplayInfo',
        'Ping',
        'GetLatestBlockhash',
        'GetBlockHeight',
        'GetSlot',
        'IsBlockhashValid',
        'GetVersion',
      ]),
    );
    // The described field numbers are the ones the codecs we answer with use.
    const update = geyserFile.messageType.find((m: Msg) => m.name === 'SubscribeUpdate');
    const numbers = Object.fromEntries(update.field.map((f: Msg) => [f.name, f.number]));
    expect(numbers).toMatchObject({
      filters: 1,
      account: 2,
      slot: 3,
      transaction: 4,
      block: 5,
      ping: 6,
      block_meta: 7,
      entry: 8,
      pong: 9,
      transaction_status: 10,
      created_at: 11,
    });
    rc.close();
  });
});
