// What turns a record into per-subscription deliveries, for the hub's live fan-out (every session of the process)
// and for each from_slot replay (its one session): one dispatcher, so live and replayed records reach a stream
// the same way (issue 33). For each record it finds the subscriptions it matches (FilterIndex for transactions and
// accounts: cost grows with the record's keys, not with the subscriptions; the keyless kinds ask only the
// subscriptions that have such filters), wraps it once (SharedEvent) and hands it to `send` with the filter names.
// It keeps what a reader needs to do so: the slot statuses it read (each level of a slot announced once and in
// order, a level the source skipped filled in: slot-statuses.ts), whole blocks for blocks filters
// (block-assembler.ts) and the newest write of the accounts a gated subscription matched (newest-writes.ts). Pure.
import {
  Commitment,
  FilterIndex,
  keyId,
  matchBlockMeta,
  matchEntry,
  matchParsedUpdates,
  matchSlotStatus,
  scannedAccountView,
  scannedTransactionView,
  type CompiledSubscription,
} from '../filters/index.js';
import { matchBlocks } from '../filters/match-chain.js';
import { BlockAssembler, type AssembledBlock } from './block-assembler.js';
import type { ChainState } from './chain-state.js';
import { blockMetaUpdate, blockUpdate, recordUpdate, statusUpdate, type SharedEvent } from './shared-event.js';
import { SlotStatuses } from './slot-statuses.js';
import { NewestWrites } from './newest-writes.js';
import type { DataRecord, SlotRecord, StreamEvent } from './stream-event.js';

/** Slot statuses a reader keeps, in slots behind the newest it read (a slot's statuses come within a few hundred). */
export const STATUS_WINDOW = 20_000n;
/** Newest writes of watched accounts kept this many slots behind the newest (finalized comes ~32 slots after processed). */
export const WRITES_WINDOW = 256n;

/** Hands an update to a subscription under the names (sorted) of the filters it matched. */
export type Send<S> = (s: S, update: SharedEvent, names: string[]) => void;

export class Dispatcher<S> {
  private readonly index = new FilterIndex<S>();
  /** Subscriptions with slot, blocks_meta or entry filters. */
  private readonly chainSubs = new Map<S, CompiledSubscription>();
  /** Subscriptions with parsed filters (SubscribeParsed), with their filter names: every parsed record goes to each, so
   * the names are made once, not per record, and other chain subscribers (slot streams) are not walked for it. */
  private readonly parsedSubs = new Map<S, string[]>();
  /** Subscriptions with blocks filters, with their names, and the assembler that runs only while there are any. */
  private readonly blockSubs = new Map<S, string[]>();
  private assembler: BlockAssembler | undefined;
  /** Subscriptions above processed with account filters: their gates deduplicate writes per slot. */
  private readonly gatedAccounts = new Set<S>();
  /** The newest writes of the accounts a gated subscription matched, matched or not (newest-writes.ts). */
  readonly writes = new NewestWrites(WRITES_WINDOW);
  private readonly statuses = new SlotStatuses(STATUS_WINDOW);

  constructor(
    private readonly send: Send<S>,
    /** The chain state this reader keeps (the hub's: GetSlot, blockhashes), told each slot record before its statuses. */
    private readonly chain?: ChainState,
  ) {}

  /** Adds or replaces a subscription (nothing is merged). */
  register(s: S, sub: CompiledSubscription): void {
    this.index.set(s, sub);
    if (sub.commitment !== Commitment.processed && sub.accounts.length > 0) this.gatedAccounts.add(s);
    else this.gatedAccounts.delete(s);
    if (sub.slots.length + sub.blocksMeta.length + sub.entry.length > 0) this.chainSubs.set(s, sub);
    else this.chainSubs.delete(s);
    if (sub.parsed.length > 0) this.parsedSubs.set(s, matchParsedUpdates(sub));
    else this.parsedSubs.delete(s);
    if (sub.blocks.length > 0) {
      this.blockSubs.set(s, matchBlocks(sub));
      this.assembler ??= new BlockAssembler((b) => this.onBlock(b));
    } else this.dropBlocks(s);
  }

  unregister(s: S): void {
    this.index.delete(s);
    this.gatedAccounts.delete(s);
    this.chainSubs.delete(s);
    this.parsedSubs.delete(s);
    this.dropBlocks(s);
  }

  /** Status of a slot as this reader knows it: a level or terminal (skipped, dead), combined by slot-status.ts. */
  statusOf(slot: bigint): number | undefined {
    return this.statuses.get(slot);
  }

  /** The blocks this reader is assembling (while a subscription has blocks filters). */
  get blocks(): BlockAssembler | undefined {
    return this.assembler;
  }

  /**
   * A record in the reader's order. A slot record: each status it adds, in order, goes first to `level` (the
   * gates learn it and release what it completes), then out as a slot status update (Yellowstone's order: a slot's
   * updates, then the status that released them); its block meta follows. Progress statuses and gap records take
   * part in no commitment (behaviour.md, "Slot statuses"): they only go to the slot filters that want them.
   */
  event(e: StreamEvent, level: (slot: bigint, now: number) => void): void {
    this.assembler?.onEvent(e);
    if (e.kind !== 'slot') {
      this.record(e);
      return;
    }
    const ev = e.event;
    this.chain?.onSlot(ev);
    this.statuses.take(
      ev,
      (now) => level(ev.slot, now),
      (st) => {
        if (this.chainSubs.size > 0) this.matchStatus(e, st);
      },
    );
    if (ev.block !== undefined && this.chainSubs.size > 0) this.matchMeta(e);
  }

  /** A data record to the subscriptions it matches; `only`: to those of them it accepts (no block is assembled). */
  record(e: DataRecord, only?: (s: S) => boolean): void {
    switch (e.kind) {
      case 'transaction': {
        if (this.index.size === 0) return;
        const hits = this.index.matchTransactionView(scannedTransactionView(e.scan));
        if (hits.size > 0) this.sendHits(recordUpdate(e), hits, only);
        return;
      }
      case 'account': {
        if (this.index.size === 0) return;
        const hits = this.index.matchAccountView(scannedAccountView(e.scan));
        if (this.gatedAccounts.size > 0) this.noteWrite(e.scan, hits);
        if (hits.size > 0) this.sendHits(recordUpdate(e), hits, only);
        return;
      }
      case 'entry': {
        let u: SharedEvent | undefined;
        for (const [s, sub] of this.chainSubs) {
          if (only && !only(s)) continue;
          const names = matchEntry(sub);
          if (names.length > 0) this.send(s, (u ??= recordUpdate(e)), names);
        }
        return;
      }
      case 'parsed': {
        let u: SharedEvent | undefined;
        for (const [s, names] of this.parsedSubs) if (!only || only(s)) this.send(s, (u ??= recordUpdate(e)), names);
        return;
      }
    }
  }

  /**
   * Another reader's blocks of the slots it left unfinished (a replay's, at its hand-over: their records straddle
   * the live positions, so neither reader has them all) join this one's; a block whole now goes to `onDone` only
   * (block-assembler.ts `adopt`).
   */
  adoptBlocks(other: BlockAssembler, onDone: (u: SharedEvent) => void): void {
    this.assembler?.adopt(other, (b) => onDone(blockUpdate(b)));
  }

  private sendHits(u: SharedEvent, hits: Map<S, string[]>, only: ((s: S) => boolean) | undefined): void {
    for (const [s, names] of hits) if (!only || only(s)) this.send(s, u, names);
  }

  /** Remembers the write when a gated subscription matched it, or moves an account one did (newest-writes.ts). */
  private noteWrite(w: { slot: bigint; pubkey: Uint8Array; writeVersion: bigint }, hits: Map<S, string[]>): void {
    let watch = false;
    for (const s of hits.keys()) if (this.gatedAccounts.has(s)) watch = true;
    this.writes.note(w.slot, keyId(w.pubkey), w.writeVersion, undefined, watch);
  }

  private dropBlocks(s: S): void {
    this.blockSubs.delete(s);
    if (this.blockSubs.size === 0) this.assembler = undefined;
  }

  private onBlock(b: AssembledBlock): void {
    const u = blockUpdate(b);
    for (const [s, names] of this.blockSubs) this.send(s, u, names);
  }

  private matchStatus(e: SlotRecord, status: number): void {
    let u: SharedEvent | undefined;
    for (const [s, sub] of this.chainSubs) {
      const names = matchSlotStatus(sub, status);
      if (names.length > 0) this.send(s, (u ??= statusUpdate(e, status)), names);
    }
  }

  private matchMeta(e: SlotRecord): void {
    let u: SharedEvent | undefined;
    for (const [s, sub] of this.chainSubs) {
      const names = matchBlockMeta(sub);
      if (names.length > 0) this.send(s, (u ??= blockMetaUpdate(e)), names);
    }
  }
}
