// The head cache (issue 33, item 2) on the real stack: a chain published to a real Kafka broker, read by the real
// live tail into the cache, while the projector has not started (the views held back). Every read the cache serves
// is asked then, and must be answered from memory (the hit metric counts each one; nothing is -32007); then the
// projector fills embedded ClickHouse, and the server on the views alone must answer each request with the same
// bytes. Three chains: the simulator through the real ingest (more slots than the cache holds: evictions, forks),
// the hand-made chain of getTransaction/getBlock (skipped, dead and re-landed, rewards, partitions, blocks without a
// previous blockhash, transactions without a time), and real mainnet blocks (../shared/data/mainnet).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from '../../ingest/run.js';
import { ingestSection } from '../../cli/config-sections.js';
import { makeConfig } from '../../cli/config.js';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import { silentLogger } from '../../platform/log.js';
import { SlotStatus, type AccountEvent, type ChainEvent, type TransactionEvent } from '../../schemas/codec.js';
import { blockFromConfirmedBlock, ConfirmedBlock } from '../../schemas/yellowstone/index.js';
import { testBrokers, waitFor } from '../../test/support/harness/kafka.js';
import { headOutcomes, openHeadWorld, outcomesSince, type HeadWorld, type Heads } from '../../test/support/jsonrpc/head-world.js';
import { buildTxChain, TX_DEAD, TX_FIRST, TX_HEADS, TX_SKIPPED } from '../../test/support/jsonrpc/tx-chain.js';
import { isTokenProgram } from '../../schemas/programs.js';
import { MAINNET_BLOCKS, readMainnetBlock } from '../../test/support/mainnet/data.js';
import type { SlotBatch } from '../../test/support/projector/chain.js';
import { expectedHeads, type ConsumedRecord } from '../../test/support/projector/expected.js';
import { consumeAll, publishChain } from '../../test/support/projector/kafka.js';
import { slotStatus } from '../../test/support/projector/events.js';

type Request = readonly [method: string, params?: unknown];

const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
const ENCODINGS = ['json', 'jsonParsed', 'base64', 'base58'] as const;
const DETAILS = ['full', 'signatures', 'accounts', 'none'] as const;
const UNKNOWN_SIG = bs58.encode(Buffer.alloc(64, 7));
const UNKNOWN_HASH = bs58.encode(Buffer.alloc(32, 7));

/** What a chain's requests are made of, from its records. */
interface Chain {
  heads: Heads;
  /** Produced blocks (slot, blockhash), ascending. */
  blocks: { slot: bigint; hash: string }[];
  /** Skipped and dead slots. */
  gone: bigint[];
  transactions: TransactionEvent[];
  accounts: AccountEvent[];
}

function chainOf(records: readonly ConsumedRecord[]): Chain {
  const heads = Object.fromEntries(
    expectedHeads(records).map((r) => {
      const [c, s] = r.split('|');
      return [c, BigInt(s!)];
    }),
  ) as Heads;
  const blocks: Chain['blocks'] = [];
  const gone: bigint[] = [];
  const transactions: TransactionEvent[] = [];
  const accounts: AccountEvent[] = [];
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'transactions') transactions.push(e.event);
    if (e.kind === 'accounts') accounts.push(e.event);
    if (e.kind !== 'slots') continue;
    if (e.event.status === SlotStatus.SLOT_STATUS_SKIPPED || e.event.status === SlotStatus.SLOT_STATUS_DEAD) gone.push(e.event.slot);
    if (e.event.block !== undefined) blocks.push({ slot: e.event.slot, hash: bs58.encode(e.event.block.blockhash) });
  }
  blocks.sort((a, b) => (a.slot < b.slot ? -1 : 1));
  return { heads, blocks, gone, transactions, accounts };
}

/**
 * Accounts whose reads the cache answers at every commitment: each has a write in [from, finalized head], so its
 * newest write at any head is held. The busiest of each owner (vote accounts, token accounts for jsonParsed and its
 * mints, pump.fun's curves, wallets), then the busiest of the rest (their writes span the most slots and forks).
 */
function heldAccounts(c: Chain, from: bigint, n: number): { pubkey: string; owner: string }[] {
  const writes = new Map<string, { n: number; owner: string }>();
  for (const a of c.accounts) {
    if (a.slot < from || a.slot > c.heads.finalized) continue;
    const k = bs58.encode(a.pubkey);
    writes.set(k, { n: (writes.get(k)?.n ?? 0) + 1, owner: bs58.encode(a.owner) });
  }
  const busiest = [...writes.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1)).map(([k, w]) => ({ k, ...w }));
  const owners = new Set<string>();
  const picked = busiest.filter((a) => !owners.has(a.owner) && owners.add(a.owner)).slice(0, n);
  const rest = busiest.filter((a) => !picked.includes(a)).slice(0, n - picked.length);
  return [...picked, ...rest].map((a) => ({ pubkey: a.k, owner: a.owner }));
}

/**
 * The account reads (getAccountInfo, getBalance, getMultipleAccounts) of `accounts`, with a spread of params. A
 * token account's jsonParsed needs its mint's decimals, and the simulator writes no mint in the held slots: those
 * are asked apart (`parsedTokens`), and the views answer them.
 */
function accountRequests(
  c: Chain,
  accounts: readonly { pubkey: string; owner: string }[],
  from: bigint,
): { hits: Request[]; parsedTokens: Request[] } {
  const hits: Request[] = [];
  const parsedTokens: Request[] = [];
  for (const [i, { pubkey: a, owner }] of accounts.entries()) {
    const commitment = COMMITMENTS[i % COMMITMENTS.length]!;
    hits.push(['getBalance', [a]], ['getBalance', [a, { commitment }]], ['getAccountInfo', [a]]);
    for (const encoding of ['base64', 'base58'] as const) hits.push(['getAccountInfo', [a, { encoding, commitment }]]);
    (isTokenProgram(owner) ? parsedTokens : hits).push(['getAccountInfo', [a, { encoding: 'jsonParsed', commitment }]]);
    hits.push(['getAccountInfo', [a, { encoding: 'base64', dataSlice: { offset: 1, length: 8 }, commitment }]]);
    hits.push(['getAccountInfo', [a, { commitment, minContextSlot: Number(c.heads[commitment]) + 1 }]]); // -32016
  }
  const keys = accounts.map((a) => a.pubkey);
  for (const commitment of COMMITMENTS) hits.push(['getMultipleAccounts', [keys.slice(0, 6), { commitment }]]);
  // Signature pages the held slots fill: at most as many as the address has from the floor to the finalized head.
  for (const [i, a] of keys.entries()) {
    const key = Buffer.from(bs58.decode(a));
    const held = c.transactions.filter((t) => t.slot >= from && t.slot <= c.heads.finalized && t.accountKeys.some((k) => key.equals(k)));
    if (held.length === 0) continue;
    for (const commitment of ['confirmed', 'finalized'] as const) {
      hits.push(['getSignaturesForAddress', [a, { limit: Math.min(held.length, 1 + ((i * 7) % 25)), commitment }]]);
    }
  }
  return { hits, parsedTokens };
}

const sigOf = (t: TransactionEvent): string => bs58.encode(t.signatures[0]!);
/** Every `step`-th element, and the last. */
const spread = <T>(a: readonly T[], n: number): T[] => {
  if (a.length <= n) return [...a];
  const step = a.length / n;
  const out = Array.from({ length: n }, (_, i) => a[Math.floor(i * step)]!);
  out.push(a[a.length - 1]!);
  return out;
};

/**
 * The reads the cache answers, over the slots from `from` (at or above its floor) of the chain, with a spread of
 * params. `fullHistory`: the cache holds the chain from its start, so it also answers for signatures it never saw,
 * and the fee window.
 */
function requests(c: Chain, o: { from: bigint; sample: number; fullHistory: boolean }): Request[] {
  const h = c.heads;
  const blocks = c.blocks.filter((b) => b.slot >= o.from);
  const txs = c.transactions.filter((t) => t.slot >= o.from);
  const r: Request[] = [['getSlot'], ['getBlockHeight'], ['getLatestBlockhash']];
  for (const commitment of COMMITMENTS) {
    r.push(['getSlot', [{ commitment }]], ['getBlockHeight', [{ commitment }]], ['getLatestBlockhash', [{ commitment }]]);
    r.push(['getSlot', [{ commitment, minContextSlot: Number(h[commitment]) + 1 }]]); // -32016 with the context slot
    r.push(['getBlockHeight', [{ commitment, minContextSlot: Number(h[commitment]) }]]);
    r.push(['getLatestBlockhash', [{ commitment, minContextSlot: Number(h[commitment]) + 1 }]]);
  }
  for (const b of spread(blocks, o.sample)) {
    for (const commitment of COMMITMENTS) r.push(['isBlockhashValid', [b.hash, { commitment }]]);
    r.push(['getBlockTime', [Number(b.slot)]]);
  }
  r.push(['isBlockhashValid', [UNKNOWN_HASH]], ['isBlockhashValid', [UNKNOWN_HASH, { commitment: 'processed' }]]);
  for (const s of [...c.gone.filter((g) => g >= o.from), h.processed + 1n, h.finalized + 1n]) r.push(['getBlockTime', [Number(s)]]);
  const sigs = spread(txs, o.sample * 2).map(sigOf);
  for (let i = 0; i < sigs.length; i += 8) {
    const batch = sigs.slice(i, i + 8);
    const searched = o.fullHistory ? [...batch, UNKNOWN_SIG] : batch;
    r.push(['getSignatureStatuses', [batch]], ['getSignatureStatuses', [searched, { searchTransactionHistory: true }]]);
  }
  if (o.fullHistory) r.push(['getSignatureStatuses', [[UNKNOWN_SIG]]], ['getTransaction', [UNKNOWN_SIG, { commitment: 'confirmed' }]]);
  for (const [i, t] of spread(txs, o.sample).entries()) {
    const sig = sigOf(t);
    for (const encoding of ENCODINGS) {
      const commitment = i % 2 === 0 ? 'confirmed' : 'finalized';
      r.push(['getTransaction', [sig, { encoding, commitment, maxSupportedTransactionVersion: 0 }]]);
      if (encoding === 'json') r.push(['getTransaction', [sig, { encoding, commitment }]], ['getTransaction', [sig]]);
    }
  }
  const blockSlots = [...spread(blocks, o.sample).map((b) => b.slot), ...c.gone.filter((g) => g >= o.from), h.confirmed, h.processed];
  // Each block at one commitment, the two taking turns (the views' reads at each cost ~50 ms of CPU a request, and
  // every block at both doubled the file's time for no case the other block does not show).
  for (const [i, slot] of blockSlots.entries()) {
    const commitment = i % 2 === 0 ? 'confirmed' : 'finalized';
    for (const [j, encoding] of ENCODINGS.entries()) {
      const transactionDetails = DETAILS[(i + j) % DETAILS.length]!;
      const rewards = (i + j) % 2 === 0;
      r.push(['getBlock', [Number(slot), { encoding, transactionDetails, rewards, commitment, maxSupportedTransactionVersion: 0 }]]);
    }
    r.push(['getBlock', [Number(slot), { commitment: i % 2 === 0 ? 'finalized' : 'confirmed' }]]);
  }
  // Block lists from the first block at or after `from` (the views refuse a start before their oldest block): a
  // whole range, one past the head (as far as getSlot), one inside, one a poll past the head asks, and limits.
  const first = blocks[0]?.slot;
  for (const commitment of first === undefined ? [] : (['confirmed', 'finalized'] as const)) {
    const [start, top] = [Number(first), Number(h[commitment])];
    r.push(['getBlocks', [start, { commitment }]], ['getBlocks', [start, Number(h.processed) + 5, { commitment }]]);
    r.push(['getBlocks', [start + 1, start + 20, { commitment }]], ['getBlocks', [top + 1, top + 9, { commitment }]]);
    r.push(['getBlocks', [start, { commitment, minContextSlot: top + 1 }]]); // -32016 with the context slot
    r.push(['getBlocksWithLimit', [start, 7, { commitment }]], ['getBlocksWithLimit', [start, 500_000, { commitment }]]);
    r.push(['getBlocksWithLimit', [top + 1, 5, { commitment }]]);
  }
  const accounts = [...new Set(spread(txs, o.sample).flatMap((t) => t.accountKeys.slice(0, 2).map((k) => bs58.encode(k))))].slice(0, 8);
  if (o.fullHistory) r.push(['getRecentPrioritizationFees'], ['getRecentPrioritizationFees', [accounts]]);
  // An address's newest signatures: with the whole chain held, any page is provable, a short one included.
  for (const [i, a] of (o.fullHistory ? accounts : []).entries()) {
    r.push(
      ['getSignaturesForAddress', [a]],
      ['getSignaturesForAddress', [a, { limit: 1 + (i % 3), commitment: COMMITMENTS[1 + (i % 2)] }]],
    );
  }
  return r;
}

/** JSON-RPC allows 10 calls a batch here (head-world's maxBatch). */
const BATCH = 10;
const batches = (rs: readonly Request[]): Request[][] =>
  Array.from({ length: Math.ceil(rs.length / BATCH) }, (_, i) => rs.slice(i * BATCH, (i + 1) * BATCH));
/** Each answer of a batch text, in request order, as its own text (for the messages: the batches compare whole). */
const answersOf = (text: string): string[] =>
  (JSON.parse(text) as { id: number }[]).sort((a, b) => a.id - b.id).map((a) => JSON.stringify(a));
const lines = (rs: readonly Request[]) => rs.map(([method, params]) => `${method} ${JSON.stringify(params)}`);

/**
 * Asks every request of the cache while the views are held back (each a hit), starts the projector, and checks
 * the views' answers are the same bytes; then the misses, which both servers answer from the views. The requests
 * go in batches of the same calls to both servers, whose texts must be equal byte for byte (every answer's bytes
 * and order): a call answered on the views costs ~10 ms of CPU for their state read alone (the tests read it
 * fresh at every request), and a batch reads it once (the file's CPU was ~60% those reads).
 */
async function checkEqual(w: HeadWorld, c: Chain, hits: readonly Request[], misses: readonly Request[]): Promise<void> {
  expect(JSON.parse(await w.views('getSlot')).error.code).toBe(-32007);
  const early: string[] = [];
  const missed: string[] = [];
  for (const b of batches(hits)) {
    const before = await headOutcomes();
    early.push(await w.cachedBatch(b));
    const outcomes = outcomesSince(before, await headOutcomes());
    if (outcomes.hit !== b.length) missed.push(`${outcomes.hit} hits of ${b.length} in the batch of\n ${lines(b).join('\n ')}`);
  }
  expect(missed.join('\n')).toBe('');
  // No -32007 of the views' freshness (their messages: `... unavailable`); a skipped slot's -32007 is an answer.
  const behind = early
    .flatMap(answersOf)
    .filter((t) => JSON.parse(t).error?.code === -32007 && !/^Slot \d+ was skipped/.test(JSON.parse(t).error.message));
  expect(behind).toEqual([]);

  await w.startViews(c.heads);
  const unequal: string[] = [];
  for (const [i, b] of batches(hits).entries()) {
    const views = await w.viewsBatch(b);
    if (views === early[i]) continue;
    const [cache, byViews] = [answersOf(early[i]!), answersOf(views)];
    lines(b).forEach((call, j) => {
      if (cache[j] !== byViews[j]) unequal.push(`${call}\n cache: ${cache[j]?.slice(0, 600)}\n views: ${byViews[j]?.slice(0, 600)}`);
    });
    if (cache.every((t, j) => t === byViews[j])) unequal.push(`batch ${i}: the texts differ, not their answers:\n ${early[i]}\n ${views}`);
  }
  expect(unequal.slice(0, 5).join('\n')).toBe('');
  const beforeMisses = await headOutcomes();
  for (const [method, params] of misses) expect(await w.cached(method, params)).toBe(await w.views(method, params));
  expect(outcomesSince(beforeMisses, await headOutcomes())).toEqual({ hit: 0, miss: misses.length });
}

let dir: string;
let ch: ClickHouseClient;
const worlds: HeadWorld[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'head-cache-int-'));
  ch = await createClickHouse({ dataDir: dir, database: 'default' });
});
// Each chain's world closes after its test: its projector and live layer would otherwise poll beside the next
// test's (the file took 340 s with all three open to the end, 246 s of it waiting).
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});
afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = async (name: string, slots?: number): Promise<HeadWorld> => {
  const w = await openHeadWorld(ch, name, slots);
  worlds.push(w);
  return w;
};

describe('head cache against the views', () => {
  it('the simulator through the real ingest: more slots than the cache holds, forks', async () => {
    const w = await open('head_sim');
    const ingest = await startIngest(
      ingestSection(
        makeConfig('ingest', {
          kafkaBrokers: testBrokers(),
          topicPrefix: w.prefix,
          partitions: 3,
          logLevel: 'silent',
          source: 'sim',
          slotMs: 0,
          maxSlots: 190,
          validators: 8,
          // 10 transactions a slot, 7 of them votes: the test is about the slots (evictions, forks), and each
          // transaction is ingested, projected and read back (tps 50 cost the test 1.7 CPU s more).
          tps: 25,
          fast: true,
          deadRate: 0.05,
          simEntries: false,
        }),
      ),
      silentLogger,
      { kafka: w.kafka, topics: w.topics },
    );
    await ingest.done;
    const c = chainOf(await consumeAll(w.kafka, w.topics));
    await w.cacheCaughtUp(
      c.heads,
      c.blocks.map((b) => b.slot),
    );
    // 190 slots in a cache of 150: the oldest were evicted, reads of them go to the views.
    const floor = w.cache.floor!;
    expect(floor).toBeGreaterThan(0n);
    const old = c.transactions.find((t) => t.slot < floor)!;
    const oldBlock = c.blocks.find((b) => b.slot < floor)!;
    // Accounts written in the held slots; and one written only below the floor, which the views answer.
    const accounts = heldAccounts(c, floor, 12);
    expect(accounts.length).toBeGreaterThan(5);
    const recent = new Set(c.accounts.filter((a) => a.slot >= floor).map((a) => bs58.encode(a.pubkey)));
    const gone = c.accounts.map((a) => bs58.encode(a.pubkey)).find((k) => !recent.has(k))!;
    // The accounts topic's partitions are read apart from the slots': every account record counted is held first.
    const held = (a: string) => w.cache.newestWrite(Buffer.from(bs58.decode(a)).toString('latin1'), c.heads.finalized);
    await waitFor(() => accounts.every((a) => held(a.pubkey)), {
      what: 'the head cache to hold the accounts read',
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    // Transactions a little past the floor: their recent blockhashes' blocks are held too, which bounds where else
    // they can have landed (a dead fork's, or one above the finalized head, are then known not to be elsewhere).
    const reads = accountRequests(c, accounts, floor);
    expect(reads.parsedTokens.length).toBeGreaterThan(0);
    await checkEqual(
      w,
      c,
      [...requests(c, { from: floor + 32n, sample: 12, fullHistory: false }), ...reads.hits],
      [
        ...reads.parsedTokens,
        ['getAccountInfo', [gone, { encoding: 'base64' }]],
        ['getBalance', [gone]],
        ['getMultipleAccounts', [[accounts[0]!.pubkey, gone]]],
        ['getBalance', [accounts[0]!.pubkey, { slot: Number(c.heads.finalized) }]], // as of a slot: the views' history
        // A page after a cursor, and one reaching below the floor.
        ['getSignaturesForAddress', [accounts[0]!.pubkey, { before: sigOf(c.transactions[c.transactions.length - 1]!) }]],
        ['getSignaturesForAddress', [accounts[0]!.pubkey, { limit: 1000 }]],
        ['getTransaction', [sigOf(old), { commitment: 'confirmed' }]],
        ['getBlock', [Number(oldBlock.slot), { transactionDetails: 'signatures' }]],
        ['getSignatureStatuses', [[sigOf(old), UNKNOWN_SIG], { searchTransactionHistory: true }]],
        ['getSignatureStatuses', [[UNKNOWN_SIG]]],
        ['getTransaction', [UNKNOWN_SIG]],
        // 150 finalized blocks, but the oldest were dropped before anyone asked for their fees.
        ['getRecentPrioritizationFees'],
      ],
    );
  });

  it('the hand-made chain: skipped, dead and re-landed, rewards, no previous blockhash, no transaction time', async () => {
    const w = await open('head_tx');
    await publishChain(w.kafka, w.topics, buildTxChain());
    const c = chainOf(await consumeAll(w.kafka, w.topics));
    expect(c.heads).toEqual({
      processed: BigInt(TX_HEADS.processed),
      confirmed: BigInt(TX_HEADS.confirmed),
      finalized: BigInt(TX_HEADS.finalized),
    });
    expect(c.gone).toEqual(expect.arrayContaining([BigInt(TX_SKIPPED), BigInt(TX_DEAD)]));
    await w.cacheCaughtUp(
      c.heads,
      c.blocks.map((b) => b.slot),
    );
    // Below the chain's first block the views answer (cleaned up, -32001: only they know their oldest block).
    const before = TX_FIRST - 5;
    await checkEqual(w, c, requests(c, { from: 0n, sample: 40, fullHistory: true }), [
      ['getBlock', [before]],
      ['getBlockTime', [before]],
    ]);
  });

  it('real mainnet blocks', async () => {
    const w = await open('head_mainnet');
    const top = MAINNET_BLOCKS[MAINNET_BLOCKS.length - 1]!.slot;
    const batches: SlotBatch[] = MAINNET_BLOCKS.map((f) => {
      const ev = blockFromConfirmedBlock(f.slot, ConfirmedBlock.decode(readMainnetBlock(f.slot)), Buffer.alloc(32, 1));
      const events: ChainEvent[] = [
        ...ev.transactions.map((event) => ({ kind: 'transactions' as const, event })),
        { kind: 'slots', event: ev.slot },
        { kind: 'slots', event: slotStatus(Number(f.slot), SlotStatus.SLOT_STATUS_FINALIZED) },
      ];
      return { slot: f.slot, events };
    });
    await publishChain(w.kafka, w.topics, batches);
    const c = chainOf(await consumeAll(w.kafka, w.topics));
    expect(c.heads).toEqual({ processed: top, confirmed: top, finalized: top });
    await w.cacheCaughtUp(
      c.heads,
      c.blocks.map((b) => b.slot),
    );
    const between = MAINNET_BLOCKS[0]!.slot + 1n;
    await checkEqual(
      w,
      c,
      [...requests(c, { from: 0n, sample: 30, fullHistory: true }), ['getBlock', [Number(between)]], ['getBlockTime', [Number(between)]]],
      [],
    );
  });
});
