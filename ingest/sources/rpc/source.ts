// `--source rpc`: a Solana JSON-RPC node as a ChainSource. Lists produced slots with getBlocks, fetches
// each with getBlock (base64 wire bytes, v0 transactions, rewards) a bounded number at a time, and yields
// slots strictly in order: a produced slot as processed + confirmed (+ finalized once rooted) records with
// its transactions, a slot getBlocks leaves out (or getBlock calls skipped, -32007/-32009) as skipped.
// Bounded runs (--to-slot) publish rooted slots only; following the tip runs at `confirmed` and adds each
// block's finalized record (or dead, if its fork did not root) to a later batch as the node roots it.
import type { Logger } from '../../../platform/log.js';
import { retry } from '../../../platform/retry.js';
import { sleep } from '../../../platform/sleep.js';
import { isStop } from '../../../platform/stop.js';
import bs58 from 'bs58';
import { SlotStatus, type AccountEvent, type ChainEvent, type SlotEvent, type UpstreamVersion } from '../../../schemas/codec.js';
import { upstreamFromRpcVersion } from '../../../schemas/node-version.js';
import type { DeadLetter, DeadLetterSink } from '../shared/dead-letter-sink.js';
import type { ChainSource, SlotBatch } from '../../source.js';
import { rpcRetryPolicy, RpcClient, UpstreamRpcError } from '../shared/rpc-client.js';
import {
  blockFromRpc,
  RpcConversionError,
  snapshotAccountFromRpc,
  type RpcBlock,
  type RpcKeyedAccount,
  type RpcTransaction,
  type UnconvertibleTransaction,
} from './convert.js';
import { EpochMath, epochLeaders, type EpochLeaders, type RpcEpochSchedule } from '../shared/epochs.js';

export interface RpcSourceOptions {
  url: string;
  /** First slot to publish; undefined: the node's confirmed tip at start. */
  fromSlot?: bigint | undefined;
  /** Last slot to publish (inclusive); undefined: follow the tip forever. */
  toSlot?: bigint | undefined;
  /** getBlock calls in flight during catch-up. */
  concurrency: number;
  timeoutMs: number;
  /** Pause between polls of the tip once caught up. */
  pollMs: number;
  /** Slots per getBlocks call. */
  window?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  log: Logger;
  onSkipped?: (slot: bigint, reason: string) => void;
  onGap?: (slot: bigint, reason: string) => void;
  onRetry?: (reason: string) => void;
  /** After each read of the tip: the node's tip at the run's commitment and the last slot yielded. */
  onTip?: (tip: bigint, last: bigint | undefined) => void;
  /** For each block yielded: its slot and block time (unix seconds), when the node has one. */
  onBlock?: (slot: bigint, blockTime: bigint | undefined) => void;
  /** Where data the conversion rejects goes (the dead-letter topic); without, it is logged only. */
  deadLetters?: DeadLetterSink;
  /** Programs whose accounts are read with getProgramAccounts when history starts (empty topics) and
   * published as is_startup writes at the answer's slot. */
  snapshotPrograms?: readonly string[];
}

// maxSupportedTransactionVersion 1: with 0, Agave refuses a whole block holding one v1 (SIMD-0385)
// transaction (-32015); nodes older than v1 accept any maximum and never hold one.
export const BLOCK_CONFIG = { encoding: 'base64', maxSupportedTransactionVersion: 1, rewards: true, transactionDetails: 'full' } as const;
/** Agave: "Block not available for slot" (not stored yet): retried. */
export const BLOCK_NOT_AVAILABLE = -32004;
/** Agave: skipped, or missing due to a ledger jump / in long-term storage: published as skipped. */
export const SKIPPED_CODES: ReadonlySet<number> = new Set([-32007, -32009]);
/** Attempts before a block that stays unavailable (-32004, null) becomes a gap record: minutes at the backoff's cap. */
const NOT_AVAILABLE_ATTEMPTS = 60;
/** Attempts before any other JSON-RPC error of getBlock (e.g. -32603 internal, -32015 unsupported version) does. */
const OTHER_ERROR_ATTEMPTS = 5;

const status = (slot: bigint, s: SlotStatus, extra: Partial<SlotEvent> = {}): ChainEvent => ({
  kind: 'slots',
  event: { slot, status: s, block: undefined, deadError: undefined, gap: undefined, parent: undefined, ...extra },
});

/** A getBlock answer that may change when asked again (null, -32004, another JSON-RPC error): retried up to
 * `limit` attempts in all, then the slot is a gap named by `gapReason`. */
class BlockNotYet extends Error {
  constructor(
    readonly gapReason: string,
    readonly limit: number,
    readonly rpcError?: UpstreamRpcError,
  ) {
    super(gapReason);
  }
}

type Fetched = { kind: 'block'; block: RpcBlock } | { kind: 'skipped'; reason: string } | { kind: 'gap'; reason: string };

export function createRpcSource(o: RpcSourceOptions): ChainSource {
  const programs = o.snapshotPrograms ?? [];
  return {
    notes: [
      `rpc source: ${o.url}; no account stream (JSON-RPC has no account writes: the accounts topic gets nothing from this source` +
        (programs.length > 0 ? ` but a getProgramAccounts snapshot of ${programs.join(', ')} when history starts` : '') +
        ') and no entries (getBlock has none)',
    ],
    batches: (opts) => untilAborted(new RpcRun(o, opts.signal), opts.afterSlot),
  };
}

/** Stopping (the signal) ends the batches instead of failing them. */
async function* untilAborted(run: RpcRun, afterSlot: bigint | undefined): AsyncGenerator<SlotBatch> {
  try {
    yield* run.run(afterSlot);
  } catch (e) {
    if (!isStop(e)) throw e;
  } finally {
    await run.close();
  }
}

/** base58 of a wire transaction's first signature (after its compact-u16 count), when the bytes have one. */
function firstSignatureOf(t: RpcTransaction): string | undefined {
  try {
    const wire = Buffer.from(Array.isArray(t.transaction) ? String(t.transaction[0]) : '', 'base64');
    const count = wire[0] ?? 0;
    if (count === 0 || count >= 0x80 || wire.length < 65) return undefined;
    return bs58.encode(wire.subarray(1, 65));
  } catch {
    return undefined;
  }
}

/** How long the node's answer to getVersion is taken as its version (a node upgraded under a long run shows). */
const VERSION_TTL_MS = 10 * 60_000;

class RpcRun {
  private readonly rpc: RpcClient;
  private math: EpochMath | undefined;
  private readonly leaders = new Map<bigint, EpochLeaders | null>();
  /** Produced slots published at confirmed, not yet finalized (following the tip only), ascending. */
  private unrooted: bigint[] = [];
  /** Status records of earlier slots, for the next batch. */
  private later: ChainEvent[] = [];
  private lastEpoch: bigint | undefined;
  /** The node's version (getVersion), put on every batch; asked at the start and again every VERSION_TTL_MS. */
  private upstream: UpstreamVersion | undefined;
  private versionAt = 0;
  /** The starting snapshot's writes, published with the first batch at or after its slot. */
  private snapshot: { slot: bigint; accounts: AccountEvent[] } | undefined;

  constructor(
    private readonly o: RpcSourceOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.rpc = new RpcClient({
      url: o.url,
      timeoutMs: o.timeoutMs,
      minBackoffMs: o.minBackoffMs,
      maxBackoffMs: o.maxBackoffMs,
      log: o.log,
      signal,
      onRetry: o.onRetry,
    });
  }

  /** The node's getVersion, at most once per VERSION_TTL_MS; a node without it (an error answer) leaves it unknown. */
  private async askVersion(): Promise<void> {
    if (Date.now() - this.versionAt < VERSION_TTL_MS) return;
    this.versionAt = Date.now();
    try {
      const v = upstreamFromRpcVersion(await this.rpc.call<unknown>('getVersion'));
      if (v === undefined)
        this.o.log.warn("rpc source: the node's getVersion answer has no readable solana-core; its version stays unknown");
      else if (v.solanaCore !== this.upstream?.solanaCore) this.o.log.info({ upstream: v }, `rpc source: the node runs ${v.solanaCore}`);
      this.upstream = v;
    } catch (e) {
      if (!(e instanceof UpstreamRpcError)) throw e;
      this.o.log.warn({ err: e.message }, 'rpc source: the node did not answer getVersion; its version stays unknown');
    }
  }

  async *run(afterSlot: bigint | undefined): AsyncGenerator<SlotBatch> {
    this.math = new EpochMath(await this.rpc.call<RpcEpochSchedule>('getEpochSchedule'));
    await this.askVersion();
    let next = await this.startSlot(afterSlot);
    if (afterSlot !== undefined) this.lastEpoch = this.math.epochOf(afterSlot);
    if (afterSlot !== undefined && next > afterSlot + 1n) yield this.startGap(afterSlot, next);
    const bounded = this.o.toSlot !== undefined;
    if (!bounded && afterSlot !== undefined) await this.resumeUnrooted(afterSlot);
    await this.snapshotAtStart(afterSlot, bounded);
    for (;;) {
      if (this.signal?.aborted) return;
      if (bounded && next > this.o.toSlot!) return;
      const { tip, finalized } = await this.pollTip(bounded, next);
      if (next > tip) {
        await sleep(this.o.pollMs, this.signal).catch(() => {});
        continue;
      }
      const end = next + BigInt(this.o.window ?? 1000) - 1n < tip ? next + BigInt(this.o.window ?? 1000) - 1n : tip;
      const commitment = bounded ? 'finalized' : 'confirmed';
      const produced = new Set((await this.rpc.call<number[]>('getBlocks', [Number(next), Number(end), { commitment }])).map(BigInt));
      for await (const [slot, got] of this.fetchInOrder(next, end, produced)) {
        yield await this.finishBatch(slot, got, slot <= finalized);
        next = slot + 1n;
        if (this.signal?.aborted) return;
      }
      if (bounded && next > this.o.toSlot! && this.snapshot) this.warnSnapshotAfterEnd(this.snapshot.slot);
    }
  }

  /** --from-slot beyond what Kafka holds: the slots between are not published, and the gap record says so. */
  private startGap(afterSlot: bigint, next: bigint): SlotBatch {
    const reason = `--from-slot ${next}: slots after ${afterSlot}, the last in Kafka, are not ingested`;
    this.o.log.warn(
      { firstSlot: String(afterSlot + 1n), lastSlot: String(next - 1n) },
      `rpc source: gap ${afterSlot + 1n}..${next - 1n}: ${reason}`,
    );
    this.o.onGap?.(afterSlot + 1n, reason);
    return {
      slot: afterSlot + 1n,
      events: [status(afterSlot + 1n, SlotStatus.SLOT_STATUS_GAP, { gap: { firstSlot: afterSlot + 1n, lastSlot: next - 1n, reason } })],
    };
  }

  /** The snapshot is taken when history starts only: a resumed run published it already. */
  private async snapshotAtStart(afterSlot: bigint | undefined, bounded: boolean): Promise<void> {
    if ((this.o.snapshotPrograms ?? []).length === 0) return;
    if (afterSlot === undefined) await this.takeSnapshot(bounded ? 'finalized' : 'confirmed');
    else
      this.o.log.info(
        { afterSlot: String(afterSlot) },
        'rpc source: resuming: the getProgramAccounts snapshot was published when history started; not taken again',
      );
  }

  /** The tip to publish up to and the node's finalized slot; following the tip, roots what the node rooted since. */
  private async pollTip(bounded: boolean, next: bigint): Promise<{ tip: bigint; finalized: bigint }> {
    // A bounded run publishes rooted slots only; following the tip runs at confirmed.
    const commitment = bounded ? 'finalized' : 'confirmed';
    let tip = await this.rpc.call<number>('getSlot', [{ commitment }]).then(BigInt);
    if (bounded && tip > this.o.toSlot!) tip = this.o.toSlot!;
    const finalized = bounded ? tip : await this.rpc.call<number>('getSlot', [{ commitment: 'finalized' }]).then(BigInt);
    this.o.onTip?.(tip, next - 1n);
    if (!bounded) await this.root(finalized);
    return { tip, finalized };
  }

  /** The slot's batch with the node's version and, at or after its slot, the starting snapshot's writes. */
  private async finishBatch(slot: bigint, got: Fetched, rooted: boolean): Promise<SlotBatch> {
    const batch = await this.batchOf(slot, got, rooted);
    await this.askVersion();
    if (this.upstream !== undefined) batch.upstream = this.upstream;
    if (this.snapshot && slot >= this.snapshot.slot) {
      for (const a of this.snapshot.accounts) batch.events.push({ kind: 'accounts', event: a });
      this.snapshot = undefined;
    }
    return batch;
  }

  private warnSnapshotAfterEnd(snapshotSlot: bigint): void {
    this.o.log.warn(
      { snapshotSlot: String(snapshotSlot), toSlot: String(this.o.toSlot) },
      `rpc source: the getProgramAccounts snapshot is of slot ${snapshotSlot}, after --to-slot ${this.o.toSlot}: not published`,
    );
  }

  /** getProgramAccounts of each listed program at one commitment; the writes go out at the newest
   * answer's slot (a program's accounts are as of its answer's slot or earlier). */
  private async takeSnapshot(commitment: string): Promise<void> {
    let slot = 0n;
    const accounts: AccountEvent[] = [];
    for (const program of this.o.snapshotPrograms ?? []) {
      const r = await this.rpc.call<{ context: { slot: number }; value: RpcKeyedAccount[] }>('getProgramAccounts', [
        program,
        { encoding: 'base64', withContext: true, commitment },
      ]);
      const at = BigInt(r.context.slot);
      if (at > slot) slot = at;
      let bad = 0;
      for (const a of r.value) {
        try {
          accounts.push(snapshotAccountFromRpc(a, at));
        } catch (e) {
          if (!(e instanceof RpcConversionError)) throw e;
          bad++;
          await this.deadLetter({
            kind: 'accounts',
            what: 'account',
            slot: at,
            reason: e.message,
            signature: undefined,
            value: Buffer.from(JSON.stringify(a)),
            format: 'agave.getProgramAccounts entry (json)',
          });
        }
      }
      this.o.log.info(
        { program, slot: String(at), accounts: r.value.length - bad, unconvertible: bad },
        `rpc source: snapshot of ${program}: ${r.value.length - bad} accounts at slot ${at}`,
      );
    }
    // Written at one slot, so a later write of the same account (a later snapshot) wins by slot.
    for (const a of accounts) a.slot = slot;
    this.snapshot = { slot, accounts };
  }

  private async deadLetter(d: DeadLetter): Promise<void> {
    if (this.o.deadLetters) {
      await this.o.deadLetters.send(d);
      return;
    }
    this.o.log.warn(
      { slot: d.slot?.toString() ?? null, signature: d.signature ?? null, reason: d.reason },
      `rpc source: unconvertible ${d.what} (slot ${d.slot}${d.signature ? `, signature ${d.signature}` : ''}) not published (no dead-letter topic): ${d.reason}`,
    );
  }

  /** After a restart at the tip: blocks published before it that the node has not rooted yet still get their
   * finalized (or dead) record. Those rooted while the ingest was down are not revisited (docs/decisions.md). */
  private async resumeUnrooted(afterSlot: bigint): Promise<void> {
    const finalized = BigInt(await this.rpc.call<number>('getSlot', [{ commitment: 'finalized' }]));
    if (afterSlot <= finalized) return;
    const blocks = await this.rpc.call<number[]>('getBlocks', [Number(finalized + 1n), Number(afterSlot), { commitment: 'confirmed' }]);
    this.unrooted = blocks.map(BigInt);
  }

  private async startSlot(afterSlot: bigint | undefined): Promise<bigint> {
    if (this.o.fromSlot !== undefined) {
      if (afterSlot === undefined || this.o.fromSlot > afterSlot) return this.o.fromSlot;
      this.o.log.info(
        { fromSlot: String(this.o.fromSlot), afterSlot: String(afterSlot) },
        `rpc source: --from-slot ${this.o.fromSlot} is not after slot ${afterSlot}, the last in Kafka: resuming after it (history is appended in slot order)`,
      );
      return afterSlot + 1n;
    }
    if (afterSlot !== undefined) return afterSlot + 1n;
    return BigInt(await this.rpc.call<number>('getSlot', [{ commitment: 'confirmed' }]));
  }

  /** getBlock for every produced slot of [from, to], at most `concurrency` in flight, results in slot order. */
  private async *fetchInOrder(from: bigint, to: bigint, produced: ReadonlySet<bigint>): AsyncGenerator<[bigint, Fetched]> {
    const inFlight: [bigint, Promise<Fetched>][] = [];
    let cursor = from;
    const fill = (): void => {
      while (cursor <= to && inFlight.length < this.o.concurrency) {
        const slot = cursor++;
        const p: Promise<Fetched> = produced.has(slot)
          ? this.fetch(slot)
          : Promise.resolve({ kind: 'skipped', reason: 'not in getBlocks' });
        p.catch(() => {}); // awaited in order below; no unhandled rejection while waiting its turn
        inFlight.push([slot, p]);
      }
    };
    fill();
    while (inFlight.length > 0) {
      const [slot, p] = inFlight.shift()!;
      const got = await p;
      fill();
      yield [slot, got];
    }
  }

  /** A slot's block, or why there is none (skipped, or a gap once asking again stopped helping). */
  private async fetch(slot: bigint): Promise<Fetched> {
    try {
      return await retry((attempt) => this.getBlock(slot, attempt), {
        policy: rpcRetryPolicy(this.o.minBackoffMs, this.o.maxBackoffMs),
        signal: this.signal,
        isRetriable: (e, attempt) => e instanceof BlockNotYet && attempt + 1 < e.limit,
        onRetry: (e, attempt) => {
          this.logBlockRetry(slot, e as BlockNotYet, attempt);
          this.o.onRetry?.('block not available');
        },
      });
    } catch (e) {
      if (e instanceof BlockNotYet) return { kind: 'gap', reason: e.gapReason };
      throw e;
    }
  }

  /** One getBlock: the block or a skipped slot; an answer worth asking again throws BlockNotYet. */
  private async getBlock(slot: bigint, attempt: number): Promise<Fetched> {
    let block: RpcBlock | null;
    try {
      block = await this.rpc.call<RpcBlock | null>('getBlock', [
        Number(slot),
        { ...BLOCK_CONFIG, commitment: this.o.toSlot !== undefined ? 'finalized' : 'confirmed' },
      ]);
    } catch (e) {
      if (!(e instanceof UpstreamRpcError)) throw e;
      if (SKIPPED_CODES.has(e.code)) return { kind: 'skipped', reason: `getBlock ${e.code}: ${e.message}` };
      throw new BlockNotYet(
        `getBlock failed ${attempt + 1} times: ${e.message}`,
        e.code === BLOCK_NOT_AVAILABLE ? NOT_AVAILABLE_ATTEMPTS : OTHER_ERROR_ATTEMPTS,
        e,
      );
    }
    if (block !== null) return { kind: 'block', block };
    throw new BlockNotYet(`getBlock answered null ${attempt + 1} times`, NOT_AVAILABLE_ATTEMPTS);
  }

  private logBlockRetry(slot: bigint, e: BlockNotYet, attempt: number): void {
    const fields = { slot: String(slot), attempt: attempt + 1 };
    if (e.rpcError === undefined) this.o.log.warn(fields, `rpc source: getBlock ${slot} answered null, retrying`);
    else if (e.rpcError.code === BLOCK_NOT_AVAILABLE)
      this.o.log.info(fields, `rpc source: block ${slot} not available yet (-32004), retrying`);
    else this.o.log.warn({ ...fields, code: e.rpcError.code }, `rpc source: getBlock ${slot} failed (${e.rpcError.message}), retrying`);
  }

  private async batchOf(slot: bigint, got: Fetched, rooted: boolean): Promise<SlotBatch> {
    const events: ChainEvent[] = [];
    const epoch = this.math!.epochOf(slot);
    if (this.lastEpoch === undefined || epoch > this.lastEpoch) {
      const l = await this.epoch(epoch);
      if (l) events.push({ kind: 'epochs', event: l.event });
      this.lastEpoch = epoch;
    }
    const later = this.later;
    this.later = [];
    if (got.kind === 'block') {
      const leader = (await this.epoch(epoch))?.leaderOf(slot) ?? Buffer.alloc(0);
      let converted;
      const lost: UnconvertibleTransaction[] = [];
      try {
        converted = blockFromRpc(slot, got.block, leader, (u) => lost.push(u));
      } catch (e) {
        if (!(e instanceof RpcConversionError)) throw e;
        await this.deadLetter({
          kind: 'slots',
          what: 'block',
          slot,
          reason: e.message,
          signature: undefined,
          value: Buffer.from(JSON.stringify(got.block)),
          format: 'agave.getBlock (json, encoding base64)',
        });
        return { slot, events: [...events, this.gap(slot, `unconvertible block: ${e.message}`), ...later] };
      }
      for (const u of lost) {
        await this.deadLetter({
          kind: 'transactions',
          what: 'transaction',
          slot,
          reason: u.error.message,
          signature: firstSignatureOf(u.transaction),
          value: Buffer.from(JSON.stringify(u.transaction)),
          format: 'agave.getBlock transaction (json, encoding base64)',
        });
      }
      this.o.onBlock?.(slot, converted.slot.block?.blockTime);
      events.push({ kind: 'slots', event: converted.slot }, status(slot, SlotStatus.SLOT_STATUS_CONFIRMED));
      if (rooted) events.push(status(slot, SlotStatus.SLOT_STATUS_FINALIZED));
      else this.unrooted.push(slot);
      events.push(...later);
      for (const tx of converted.transactions) events.push({ kind: 'transactions', event: tx });
      return { slot, events };
    }
    if (got.kind === 'gap') return { slot, events: [...events, this.gap(slot, got.reason), ...later] };
    this.o.log.info({ slot: String(slot), reason: got.reason }, `rpc source: slot ${slot} skipped (${got.reason})`);
    this.o.onSkipped?.(slot, got.reason);
    return { slot, events: [...events, status(slot, SlotStatus.SLOT_STATUS_SKIPPED), ...later] };
  }

  /** Stops the source's dead-letter producer (the run's end, however it ends). */
  async close(): Promise<void> {
    await this.o.deadLetters?.close();
  }

  private gap(slot: bigint, reason: string): ChainEvent {
    this.o.log.warn({ slot: String(slot), reason }, `rpc source: slot ${slot} not published: ${reason}; a gap record names it`);
    this.o.onGap?.(slot, reason);
    return status(slot, SlotStatus.SLOT_STATUS_GAP, { gap: { firstSlot: slot, lastSlot: slot, reason } });
  }

  /** Finalized (or dead) records for published blocks at or below the node's finalized slot. */
  private async root(finalized: bigint): Promise<void> {
    const due = this.unrooted.filter((s) => s <= finalized);
    if (due.length === 0) return;
    const rooted = new Set(
      (await this.rpc.call<number[]>('getBlocks', [Number(due[0]!), Number(finalized), { commitment: 'finalized' }])).map(BigInt),
    );
    for (const s of due) {
      if (rooted.has(s)) this.later.push(status(s, SlotStatus.SLOT_STATUS_FINALIZED));
      else {
        this.o.log.warn({ slot: String(s) }, `rpc source: confirmed block ${s} is not on the rooted chain: published as dead`);
        this.later.push(status(s, SlotStatus.SLOT_STATUS_DEAD, { deadError: 'confirmed block not on the rooted chain' }));
      }
    }
    this.unrooted = this.unrooted.filter((s) => s > finalized);
  }

  private async epoch(epoch: bigint): Promise<EpochLeaders | null> {
    if (this.leaders.has(epoch)) return this.leaders.get(epoch)!;
    const first = this.math!.firstSlot(epoch);
    const schedule = await this.rpc.call<Record<string, number[]> | null>('getLeaderSchedule', [Number(first)]);
    const l = schedule === null ? null : epochLeaders(epoch, first, this.math!.slotsIn(epoch), schedule);
    if (l === null)
      this.o.log.warn(
        { epoch: String(epoch) },
        `rpc source: the node has no leader schedule for epoch ${epoch}: no epoch record, blocks without leader`,
      );
    this.leaders.set(epoch, l);
    for (const k of this.leaders.keys()) if (k < epoch - 2n) this.leaders.delete(k);
    return l;
  }
}
