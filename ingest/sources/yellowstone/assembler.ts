// Per-slot assembly of a Yellowstone stream (pure: no I/O, no clock). Updates of many slots interleave on
// the wire; a slot's batch goes out, in slot order, once the slot is whole:
//   - its block meta and its processed status have arrived, and the transactions and entries the block
//     meta announces (executed_transaction_count, entries_count) have been received, where the
//     subscription receives all of them; or
//   - its dead status has arrived (a fork that died: no block meta).
// Statuses of slots already out (confirmed, finalized) go in the batch of the next slot that goes out,
// each (slot, status) once. Each update is converted once, on arrival; block time and the vote count
// are filled in when the slot goes out. Leader and epoch records are the caller's (they need JSON-RPC).
//
// Pieces (`pieces`, --yellowstone-publish pieces): the lowest slot under way is handed over as it arrives, in partial
// batches, instead of once it is whole: its transactions in index order (the run of consecutive indexes from 0 when
// the subscription receives every transaction, otherwise each one above the last sent), its account writes in
// arrival order and its entries in index order; statuses, block meta and what is left go in its last batch, as above.
// Transactions sent before the block meta carry no block time: readers take it from the block (behaviour.md). Once
// a slot's first piece is out (`open`), nothing of another slot goes out before its last one: data of a lower slot
// that begins after it is late data, statuses of one go with the next batch; a resubscription's replay of the open
// slot sends nothing twice; an open slot given up (no block while `waitSlots` later slots are whole) ends with a
// last batch of what is left and no end marker.
//
// Subscriptions: the caller starts each (re)subscription with `startSubscription`, saying where history
// must continue (`resumeFrom`, undefined on a fresh start) and where the upstream replays from
// (`replayFrom`, undefined for a live subscription). Unfinished slots of the previous subscription are
// dropped (the replay sends them again); data of slots below `resumeFrom` is already out and is skipped.
// When the upstream cannot reach back to `resumeFrom`, the first batch of the subscription carries a gap
// record naming the exact missing range; nothing of those slots goes out after it either (a finalization of one
// that comes live later is dropped).
import {
  SlotStatus,
  type AccountEvent,
  type ChainEvent,
  type EntryEvent,
  type SlotEvent,
  type TransactionEvent,
} from '../../../schemas/codec.js';
import type { BlockMeta } from '../../../schemas/codec.js';
import {
  accountFromYellowstone,
  blockMetaFromYellowstone,
  entryFromYellowstone,
  slotFromYellowstone,
  transactionFromYellowstone,
  type SubscribeUpdate,
} from '../../../schemas/yellowstone/index.js';
import type { SlotBatch } from '../../source.js';
import { identityOf } from '../../publish/identity.js';

export interface AssemblerOptions {
  /** The subscription receives every transaction of a block (no filter): wait for executed_transaction_count. */
  countTransactions: boolean;
  /** The subscription receives entries: wait for entries_count. */
  countEntries: boolean;
  /** A slot with block meta and processed status that still lacks announced transactions or entries goes
   * out (incomplete, noticed), and a slot that began but has no block yet is given up (abandoned, noticed),
   * once this many later slots are whole. */
  waitSlots?: number;
  /** Things the caller logs and counts: nothing is dropped or cut without one. */
  onNotice?: (n: Notice) => void;
  /** Hand the lowest slot under way over in pieces as its data arrives (above). */
  pieces?: boolean;
}

export type Notice =
  | { kind: 'incomplete'; slot: bigint; transactions: number; expectedTransactions: bigint; entries: number; expectedEntries: bigint }
  | { kind: 'abandoned'; slot: bigint; records: number }
  | { kind: 'before-start'; slot: bigint; records: number }
  | { kind: 'partial-at-start'; slot: bigint }
  | { kind: 'late-data'; slot: bigint }
  | { kind: 'gap'; first: bigint; last: bigint; reason: string }
  /** The update goes to the dead-letter topic (the caller's); a transaction or entry still counts toward its
   * slot's announced totals, so the slot is not held back waiting for it. */
  | {
      kind: 'unconvertible';
      slot: bigint | undefined;
      what: string;
      reason: string;
      signature: Uint8Array | undefined;
      update: SubscribeUpdate;
    };

interface Pending {
  slot: bigint;
  /** Status records of the slot in arrival order (processed and dead included). */
  statuses: SlotEvent[];
  /** Statuses of the slot that came after its end status: they go with the next batch. */
  after: SlotEvent[];
  meta?: BlockMeta;
  txs: TransactionEvent[];
  accounts: AccountEvent[];
  entries: EntryEvent[];
  votes: number;
  /** Transactions and entries received but not convertible (dead letters): they still count as received. */
  lostTxs: number;
  lostEntries: number;
  /** Pieces: how many of `txs`, `accounts` and `entries` the open slot's pieces have looked at. */
  seen: { txs: number; accounts: number; entries: number };
}

/** Pieces: the slot whose first piece went out and whose last has not, and what of it is out. */
interface OpenSlot {
  slot: bigint;
  /** Transactions out by index; the next index a run continues with; those that came before their turn. */
  txs: Set<number>;
  nextTx: number;
  heldTxs: Map<number, TransactionEvent>;
  /** Account writes out, by pubkey and write version. */
  accounts: Set<string>;
  /** Entries out by index, the next index, and those that came before their turn. */
  entries: Set<bigint>;
  nextEntry: bigint;
  heldEntries: Map<bigint, EntryEvent>;
}

/** An account write's identity (pubkey, write version), as the publisher's resume knows it. */
const accountKey = (a: AccountEvent): string => identityOf({ kind: 'accounts', event: a });

export interface SubscriptionStart {
  /** First slot history still needs (last slot out + 1); undefined on a fresh start (history begins at the first whole slot). */
  resumeFrom?: bigint;
  /** from_slot of the subscription; undefined for a live one. */
  replayFrom?: bigint;
  /** Why the upstream cannot reach back to resumeFrom (for the gap record). */
  gapReason?: string;
}

const STATUS_WINDOW = 4096n;
/** How far back a reconnect replays to collect statuses of slots already out (about a minute of slots:
 * finalization takes ~32 slots). */
export const STATUS_REPLAY_DEPTH = 150n;

const isEnd = (s: SlotEvent) => s.status === SlotStatus.SLOT_STATUS_PROCESSED || s.status === SlotStatus.SLOT_STATUS_DEAD;

export class SlotAssembler {
  private readonly pending = new Map<bigint, Pending>();
  /** Statuses of slots already out, for the next batch. */
  private late: SlotEvent[] = [];
  /** Data of abandoned slots (no block, overtaken), for the next batch. */
  private carried: ChainEvent[] = [];
  /** (slot -> statuses) published, for slots in the last STATUS_WINDOW: each goes out once. */
  private readonly published = new Map<bigint, Set<SlotStatus>>();
  private last: bigint | undefined;
  private first: bigint | undefined;
  private resuming = false;
  private sub: SubscriptionStart = {};
  private subEmitted = false;
  /** Live subscription: the slot of its first data update (that slot may have started before we joined). */
  private firstDataSlot: bigint | undefined;
  private readonly waitSlots: number;
  /** Arrival order of status updates: a batch's statuses keep the order the upstream sent them in (records of
   * different slots can share a partition, and a relay must keep their order there). */
  private readonly arrival = new WeakMap<SlotEvent, number>();
  private arrived = 0;
  /** Pieces: the slot handed over in part (above); undefined between slots. */
  private open: OpenSlot | undefined;
  /** The gaps published (first..last slot), the recent ones: nothing of their slots goes out (`inGap`). */
  private gaps: { first: bigint; last: bigint }[] = [];

  constructor(private readonly opts: AssemblerOptions) {
    this.waitSlots = opts.waitSlots ?? 2;
  }

  /** Highest slot whose batch went out. */
  get lastSlot(): bigint | undefined {
    return this.last;
  }

  /** Where a reconnect should ask the upstream to replay from: low enough to collect the confirmed and
   * finalized statuses of recent slots already out (deduplicated here), never above `resumeFrom`. */
  replayStartFor(resumeFrom: bigint): bigint {
    let from = resumeFrom;
    for (const [slot, statuses] of this.published) {
      if (slot < resumeFrom - STATUS_REPLAY_DEPTH || slot >= from) continue;
      const settled = statuses.has(SlotStatus.SLOT_STATUS_FINALIZED) || statuses.has(SlotStatus.SLOT_STATUS_DEAD);
      if (!settled) from = slot;
    }
    return from;
  }

  /** After a restart: the statuses Kafka already holds for the recent slots (read back from the slots
   * topic), so the replay before `resumeFrom` publishes only the statuses that arrived while the ingest
   * was down, and `replayStartFor` knows which slots are not settled yet. */
  seedPublished(statuses: ReadonlyMap<bigint, ReadonlySet<SlotStatus>>): void {
    for (const [slot, set] of statuses) {
      let mine = this.published.get(slot);
      if (!mine) this.published.set(slot, (mine = new Set()));
      for (const st of set) mine.add(st);
    }
  }

  startSubscription(s: SubscriptionStart): void {
    this.pending.clear();
    // The open slot stays open: the replay sends it again (what is out is skipped), or it is given up.
    if (this.open) {
      this.open.heldTxs.clear();
      this.open.heldEntries.clear();
      this.slot(this.open.slot);
    }
    this.sub = s;
    this.subEmitted = false;
    this.firstDataSlot = undefined;
    if (s.resumeFrom !== undefined) this.resuming = true;
  }

  /** Converts one update and returns the batches it completes (usually none). `more`: further updates are already
   * at hand, so a piece may wait for them (pieces go out in fewer, larger batches while the upstream is ahead, and
   * one by one when it is not: no update waits for another that has not come). */
  push(u: SubscribeUpdate, more = false): SlotBatch[] {
    try {
      this.accept(u);
    } catch (err) {
      const slot = slotOfUpdate(u);
      this.opts.onNotice?.({
        kind: 'unconvertible',
        slot,
        what: kindOfUpdate(u),
        reason: (err as Error).message,
        signature: u.transaction?.transaction?.signature,
        update: u,
      });
      const p = slot === undefined || this.isPast(slot) ? undefined : this.slot(slot);
      if (p && u.transaction) p.lostTxs++;
      if (p && u.entry) p.lostEntries++;
    }
    return this.drain(more);
  }

  /** What waits to go out as a piece, after updates pushed with `more` that the assembler will not see (a ping, a
   * duplicate the merge dropped). */
  flush(): SlotBatch[] {
    return this.drain(false);
  }

  private accept(u: SubscribeUpdate): void {
    if (u.slot) {
      this.status(slotFromYellowstone(u.slot));
      return;
    }
    if (u.blockMeta) {
      const { slot, block } = blockMetaFromYellowstone(u.blockMeta);
      const p = this.data(slot);
      if (p) p.meta = block;
      return;
    }
    if (u.transaction) {
      const p = this.data(BigInt(u.transaction.slot));
      if (!p) return;
      const tx = transactionFromYellowstone(u.transaction);
      p.txs.push(tx);
      if (tx.isVote) p.votes++;
      return;
    }
    if (u.account) {
      const p = this.data(BigInt(u.account.slot));
      if (p) p.accounts.push(accountFromYellowstone(u.account));
      return;
    }
    if (u.entry) {
      const p = this.data(BigInt(u.entry.slot));
      if (p) p.entries.push(entryFromYellowstone(u.entry));
    }
    // ping, pong and kinds the source does not subscribe to carry nothing for history.
  }

  /** The pending record of a slot whose data is arriving, or undefined when its batch is already out. */
  private data(slot: bigint): Pending | undefined {
    if (this.firstDataSlot === undefined && this.sub.replayFrom === undefined) this.firstDataSlot = slot;
    // A replay from before where history stops (to collect late statuses) sends data already out.
    if (this.sub.resumeFrom !== undefined && slot < this.sub.resumeFrom) return undefined;
    if (this.isPast(slot)) {
      // A replay's overlap with what is out is expected; anything else is an upstream that sent data late.
      const replayed = this.sub.resumeFrom !== undefined && slot < this.sub.resumeFrom;
      if (!replayed) this.opts.onNotice?.({ kind: 'late-data', slot });
      return undefined;
    }
    return this.slot(slot);
  }

  /** A slot whose data can no longer go out: it is out (or passed over), or below the open slot (pieces). */
  private isPast(slot: bigint): boolean {
    return (this.last !== undefined && slot <= this.last) || (this.open !== undefined && slot < this.open.slot);
  }

  private slot(slot: bigint): Pending {
    let p = this.pending.get(slot);
    if (!p) {
      p = {
        slot,
        statuses: [],
        after: [],
        txs: [],
        accounts: [],
        entries: [],
        votes: 0,
        lostTxs: 0,
        lostEntries: 0,
        seen: { txs: 0, accounts: 0, entries: 0 },
      };
      this.pending.set(slot, p);
    }
    return p;
  }

  private status(e: SlotEvent): void {
    this.arrival.set(e, this.arrived++);
    if (this.inGap(e.slot)) return;
    if (this.isPast(e.slot)) {
      // A slot already out (or passed over): its later statuses go with the next batch, once.
      if (!this.resuming && this.first !== undefined && e.slot < this.first) return; // before history began
      if (this.wasPublished(e)) return;
      if (this.late.some((l) => l.slot === e.slot && l.status === e.status)) return;
      this.late.push(e);
      return;
    }
    if (this.last === undefined && this.sub.resumeFrom !== undefined && e.slot < this.sub.resumeFrom) {
      // Resuming after a restart: statuses of slots already in Kafka, reaching a new level now (what Kafka
      // holds already, when the caller seeded it, is not published again).
      if (this.wasPublished(e)) return;
      if (!this.late.some((l) => l.slot === e.slot && l.status === e.status)) this.late.push(e);
      return;
    }
    const p = this.slot(e.slot);
    if (p.statuses.some((s) => s.status === e.status)) return;
    if (!isEnd(e) && p.statuses.some(isEnd)) {
      // After the slot's end (its processed status came, its data is still arriving): the slot's batch ends
      // with its end marker, so this goes with the next batch, as a status of a slot already out would
      // (or nowhere, if the slot is not published).
      if (!p.after.some((l) => l.status === e.status)) p.after.push(e);
      return;
    }
    p.statuses.push(e);
  }

  /** A slot a gap record names, or the one this subscription's first batch will name (its replay starts after where
   * history stops): a status of it (a finalization that comes live later) is not published, since the gap record
   * says nothing of those slots is held. */
  private inGap(slot: bigint): boolean {
    if (this.gaps.some((g) => slot >= g.first && slot <= g.last)) return true;
    const { resumeFrom, replayFrom } = this.sub;
    return !this.subEmitted && resumeFrom !== undefined && replayFrom !== undefined && slot >= resumeFrom && slot < replayFrom;
  }

  private wasPublished(e: SlotEvent): boolean {
    return this.published.get(e.slot)?.has(e.status) ?? false;
  }

  private ready(p: Pending): boolean {
    if (p.statuses.some((s) => s.status === SlotStatus.SLOT_STATUS_DEAD)) return true;
    return p.meta !== undefined && p.statuses.some((s) => s.status === SlotStatus.SLOT_STATUS_PROCESSED) && this.counted(p);
  }

  private counted(p: Pending): boolean {
    const m = p.meta!;
    if (this.opts.countTransactions && BigInt(p.txs.length + p.lostTxs) < (m.executedTransactionCount ?? 0n)) return false;
    if (this.opts.countEntries && BigInt(p.entries.length + p.lostEntries) < (m.entryCount ?? 0n)) return false;
    return true;
  }

  private drain(more: boolean): SlotBatch[] {
    const out: SlotBatch[] = [];
    for (;;) {
      const slots = [...this.pending.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const lowest = slots[0];
      if (lowest === undefined) break;
      const p = this.pending.get(lowest)!;
      if (this.ready(p)) {
        out.push(this.emit(p));
        continue;
      }
      const readyAbove = slots.slice(1).filter((s) => this.ready(this.pending.get(s)!)).length;
      if (readyAbove === 0) break;
      const hasBlock = p.meta !== undefined || p.statuses.some(isEnd);
      const beforeStart = !this.resuming && this.first === undefined;
      if (!hasBlock) {
        // No block meta and no processed status while a later slot is whole: a slot the cluster abandoned (or
        // whose start we did not see), or a fork still replaying: a block on another fork can be whole first
        // (its parent is below this slot), and an upstream reading partitions can hand over a later block first
        // (a relayed slotstream, issue 32). So it is given up, its records going out with the next batch, only
        // once `waitSlots` later slots are whole, as a block short of its transactions is.
        if (!beforeStart && readyAbove < this.waitSlots) break;
        const last = this.giveUp(p, beforeStart);
        if (last) out.push(last);
        continue;
      }
      const partialAtStart = this.sub.replayFrom === undefined && this.firstDataSlot !== undefined && lowest <= this.firstDataSlot;
      // An open slot is history already (its first pieces are out): short of what it announced, it goes out incomplete.
      if (partialAtStart && this.open?.slot !== lowest) {
        // A live subscription joined this slot part-way: it is not history (a fresh start) or it is in the gap.
        this.pending.delete(lowest);
        this.opts.onNotice?.({ kind: 'partial-at-start', slot: lowest });
        continue;
      }
      if (readyAbove < this.waitSlots) break;
      const m = p.meta;
      this.opts.onNotice?.({
        kind: 'incomplete',
        slot: lowest,
        transactions: p.txs.length,
        expectedTransactions: m?.executedTransactionCount ?? 0n,
        entries: p.entries.length,
        expectedEntries: m?.entryCount ?? 0n,
      });
      out.push(this.emit(p));
    }
    const piece = more ? undefined : this.piece();
    if (piece) out.push(piece);
    return out;
  }

  /** A slot without a block is given up (drain says when): before history begins it is dropped; otherwise its
   * statuses go with the next batch and so do its records, unless its first pieces are out: then the rest ends it,
   * without an end marker (returned), and it is passed over. */
  private giveUp(p: Pending, beforeStart: boolean): SlotBatch | undefined {
    this.pending.delete(p.slot);
    const records = p.statuses.length + p.txs.length + p.accounts.length + p.entries.length;
    if (beforeStart) {
      if (records > p.statuses.length) this.opts.onNotice?.({ kind: 'before-start', slot: p.slot, records });
      return undefined;
    }
    if (records > p.statuses.length) this.opts.onNotice?.({ kind: 'abandoned', slot: p.slot, records });
    this.late.push(...p.statuses);
    if (this.open?.slot === p.slot) return this.lastPiece(p);
    for (const t of p.txs) this.carried.push({ kind: 'transactions', event: t });
    for (const a of p.accounts) this.carried.push({ kind: 'accounts', event: a });
    for (const e of p.entries) this.carried.push({ kind: 'entries', event: e });
    return undefined;
  }

  /** Pieces: what of the lowest slot under way can go out now (a partial batch), if anything. */
  private piece(): SlotBatch | undefined {
    if (!this.opts.pieces) return undefined;
    let lowest: Pending | undefined;
    for (const p of this.pending.values()) if (lowest === undefined || p.slot < lowest.slot) lowest = p;
    if (lowest === undefined || !this.mayOpen(lowest)) return undefined;
    const p = lowest;
    // Open from here on, even before anything of it is out: transactions may wait for their turn in `heldTxs`.
    const o = (this.open ??= {
      slot: p.slot,
      txs: new Set(),
      nextTx: 0,
      heldTxs: new Map(),
      accounts: new Set(),
      entries: new Set(),
      nextEntry: 0n,
      heldEntries: new Map(),
    });
    const data = this.nextTransactions(p, o);
    for (; p.seen.accounts < p.accounts.length; p.seen.accounts++) {
      const a = p.accounts[p.seen.accounts]!;
      const k = accountKey(a);
      if (o.accounts.has(k)) continue;
      o.accounts.add(k);
      data.push({ kind: 'accounts', event: a });
    }
    if (this.opts.countEntries) {
      for (; p.seen.entries < p.entries.length; p.seen.entries++) {
        const e = p.entries[p.seen.entries]!;
        if (!o.entries.has(e.index)) o.heldEntries.set(e.index, e);
      }
      for (let e = o.heldEntries.get(o.nextEntry); e !== undefined; e = o.heldEntries.get(++o.nextEntry)) {
        o.heldEntries.delete(e.index);
        o.entries.add(e.index);
        data.push({ kind: 'entries', event: e });
      }
    }
    if (data.length === 0) return undefined;
    const events = this.opening(p.slot);
    events.push(...data);
    return { slot: p.slot, events, partial: true };
  }

  /** Pieces: the open slot's transactions that may go out now, in index order. */
  private nextTransactions(p: Pending, o: OpenSlot): ChainEvent[] {
    const data: ChainEvent[] = [];
    for (; p.seen.txs < p.txs.length; p.seen.txs++) {
      const t = p.txs[p.seen.txs]!;
      if (o.txs.has(t.index)) continue;
      if (this.opts.countTransactions) o.heldTxs.set(t.index, t);
      else if (t.index >= o.nextTx) {
        // A filtered subscription has gaps in its indexes: each one above the last sent goes, the others wait
        // for the slot's last batch.
        o.txs.add(t.index);
        o.nextTx = t.index + 1;
        data.push({ kind: 'transactions', event: t });
      }
    }
    // Every transaction comes: the run of consecutive indexes keeps the block's order.
    for (let t = o.heldTxs.get(o.nextTx); t !== undefined; t = o.heldTxs.get(++o.nextTx)) {
      o.heldTxs.delete(t.index);
      o.txs.add(t.index);
      data.push({ kind: 'transactions', event: t });
    }
    // Once the block meta is in, what goes carries its time.
    for (const e of data) if (e.kind === 'transactions') e.event.blockTime = p.meta?.blockTime;
    return data;
  }

  /** Pieces: whether the lowest slot under way may go out in part now. While a slot is open, only that slot.
   * Otherwise only the slot right after the last one out, or one whose parent is out (or before where history
   * resumes): a slot between could be its
   * ancestor still to come (an upstream reading partitions, a relayed slotstream, can hand a later slot's data over
   * first), and once a slot is open, data of lower slots is late. Not before history begins (a fresh start begins
   * with the first whole slot), not a slot a live subscription joined part-way (it is not history), not a slot
   * about to go out whole anyway (dead). */
  private mayOpen(p: Pending): boolean {
    if (this.open) return this.open.slot === p.slot;
    if (!this.resuming && this.first === undefined) return false;
    if (this.sub.replayFrom === undefined && this.firstDataSlot !== undefined && p.slot <= this.firstDataSlot) return false;
    if (p.statuses.some((s) => s.status === SlotStatus.SLOT_STATUS_DEAD)) return false;
    const next = this.last !== undefined ? this.last + 1n : this.sub.resumeFrom;
    if (p.slot === next) return true;
    const parent = p.statuses.find((s) => s.parent !== undefined)?.parent ?? p.meta?.parentSlot;
    if (parent === undefined) return false;
    return this.last !== undefined ? parent <= this.last : this.sub.resumeFrom !== undefined && parent < this.sub.resumeFrom;
  }

  /** The first events of a batch: the subscription's gap record (its first batch) and the data of abandoned slots. */
  private opening(slot: bigint): ChainEvent[] {
    const events: ChainEvent[] = [];
    if (!this.subEmitted) {
      this.subEmitted = true;
      const gap = this.gapBefore(slot);
      if (gap) events.push({ kind: 'slots', event: gap });
    }
    events.push(...this.carried);
    this.carried = [];
    return events;
  }

  /** Pieces: an open slot given up ends with what of it is not out yet, and no end marker. */
  private lastPiece(p: Pending): SlotBatch {
    const events = this.opening(p.slot);
    events.push(...this.unsent(p));
    this.open = undefined;
    this.last = p.slot;
    return { slot: p.slot, events };
  }

  /** The slot's data not out yet (all of it unless the slot is open), transactions and entries in index order. */
  private unsent(p: Pending): ChainEvent[] {
    const o = this.open?.slot === p.slot ? this.open : undefined;
    const events: ChainEvent[] = [];
    p.txs.sort((a, b) => a.index - b.index);
    for (const t of p.txs) {
      if (o?.txs.has(t.index)) continue;
      t.blockTime = p.meta?.blockTime;
      events.push({ kind: 'transactions', event: t });
    }
    for (const a of p.accounts) if (!o?.accounts.has(accountKey(a))) events.push({ kind: 'accounts', event: a });
    p.entries.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
    for (const e of p.entries) if (!o?.entries.has(e.index)) events.push({ kind: 'entries', event: e });
    return events;
  }

  private emit(p: Pending): SlotBatch {
    this.pending.delete(p.slot);
    const events: ChainEvent[] = [];
    if (!this.subEmitted) {
      this.subEmitted = true;
      const gap = this.gapBefore(p.slot);
      if (gap) events.push({ kind: 'slots', event: gap });
    }
    // Statuses of other slots that arrived before this slot's end, and this slot's own statuses before its
    // end, in arrival order; statuses that arrived after its end, or after a later slot's first status (the
    // upstream had moved on to that slot), wait for the next batch.
    const endAt = p.statuses.findIndex(isEnd);
    let cut = endAt < 0 ? Infinity : this.arrivalOf(p.statuses[endAt]!);
    for (const q of this.pending.values()) if (q.slot > p.slot) for (const s of q.statuses) cut = Math.min(cut, this.arrivalOf(s));
    // A live resume's gap is known once its first batch goes: statuses of its slots that came before are dropped.
    const now = this.late.filter((s) => this.arrivalOf(s) < cut && !this.inGap(s.slot));
    this.late = this.late.filter((s) => this.arrivalOf(s) >= cut && !this.inGap(s.slot));
    const before = endAt < 0 ? p.statuses : p.statuses.slice(0, endAt);
    for (const s of [...now, ...before].sort((a, b) => this.arrivalOf(a) - this.arrivalOf(b))) events.push({ kind: 'slots', event: s });
    events.push(...this.carried);
    this.carried = [];
    events.push(...this.unsent(p));
    if (this.open?.slot === p.slot) this.open = undefined;
    if (endAt >= 0) {
      for (const s of p.statuses.slice(endAt)) {
        if (s.status === SlotStatus.SLOT_STATUS_PROCESSED && p.meta) {
          s.block = { ...p.meta, voteTransactionCount: this.opts.countTransactions ? p.votes : 0 };
        }
        events.push({ kind: 'slots', event: s });
      }
    }
    for (const e of events) if (e.kind === 'slots') this.remember(e.event);
    for (const s of p.after)
      if (!this.wasPublished(s) && !this.late.some((l) => l.slot === s.slot && l.status === s.status)) this.late.push(s);
    this.last = p.slot;
    this.first ??= p.slot;
    return { slot: p.slot, events };
  }

  private arrivalOf(s: SlotEvent): number {
    return this.arrival.get(s) ?? -1;
  }

  private gapBefore(slot: bigint): SlotEvent | undefined {
    const from = this.sub.resumeFrom;
    if (from === undefined) return undefined;
    const replay = this.sub.replayFrom;
    if (replay !== undefined && replay <= from) return undefined;
    const last = replay !== undefined ? replay - 1n : slot - 1n;
    if (last < from) return undefined;
    const reason = this.sub.gapReason ?? `the upstream could not replay from slot ${from}`;
    this.opts.onNotice?.({ kind: 'gap', first: from, last, reason });
    this.gaps = this.gaps.filter((g) => g.last + STATUS_WINDOW >= from);
    this.gaps.push({ first: from, last });
    return {
      slot: from,
      status: SlotStatus.SLOT_STATUS_GAP,
      block: undefined,
      deadError: undefined,
      parent: undefined,
      gap: { firstSlot: from, lastSlot: last, reason },
    };
  }

  private remember(e: SlotEvent): void {
    if (e.status === SlotStatus.SLOT_STATUS_GAP) return;
    let set = this.published.get(e.slot);
    if (!set) {
      set = new Set();
      this.published.set(e.slot, set);
    }
    set.add(e.status);
    if (this.published.size > Number(STATUS_WINDOW)) {
      const floor = (this.last ?? e.slot) - STATUS_WINDOW;
      for (const s of this.published.keys()) if (s < floor) this.published.delete(s);
    }
  }
}

function slotOfUpdate(u: SubscribeUpdate): bigint | undefined {
  const s = u.slot?.slot ?? u.blockMeta?.slot ?? u.transaction?.slot ?? u.account?.slot ?? u.entry?.slot;
  return s === undefined ? undefined : BigInt(s);
}

function kindOfUpdate(u: SubscribeUpdate): string {
  if (u.slot) return 'slot';
  if (u.blockMeta) return 'block meta';
  if (u.transaction) return 'transaction';
  if (u.account) return 'account';
  if (u.entry) return 'entry';
  return 'update';
}
