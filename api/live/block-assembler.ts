// Whole blocks (geyser.Geyser's `blocks` filter) assembled from the stream topics, transport-neutral and
// pure: fed one event at a time (live tail or replay), it emits a block when the slot is complete
// (behaviour.md "Slot framing"): its end marker (the processed slot record with block meta) has been read
// and the records it counts have arrived. The marker's `end` counts records per topic kind and partition;
// the sums per kind are compared (the topics hold each record once, so they match when the partitions' do). A marker without `end` (older data) falls back to the block meta's executed transaction
// and entry counts, and its accounts are those read by then.
// Accounts are Yellowstone's block accounts: the slot's last write of each pubkey (highest write_version).
// A dead or skipped slot drops what was collected. Slots far behind the newest end marker are dropped
// unfinished (a block whose records started before the assembler did can never complete). The window follows
// the end markers, not the data: a replay reads the data topics ahead of the slots topic (a partition's chunks
// come when the broker serves them), and a window on the newest record of any kind dropped the range's first
// slots before their markers came (issue 32 item 7). Memory is then bounded by how far a reader reads ahead.
// A replay's unfinished slots at its hand-over join the live assembler (`adopt`): a slot whose records straddle
// the hand-over positions is whole in neither.
import type { AccountEvent, EntryEvent, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { SlotStatus } from '../../schemas/gen/events.js';
import type { StreamEvent } from './stream-event.js';
import { isTerminal } from './slot-status.js';

export interface AssembledBlock {
  readonly slot: bigint;
  /** The end marker: the processed slot record with its block meta. */
  readonly marker: SlotEvent;
  /** In block order (index). */
  readonly transactions: readonly TransactionEvent[];
  /** The slot's last write per account. */
  readonly accounts: readonly AccountEvent[];
  /** In block order (index). */
  readonly entries: readonly EntryEvent[];
}

interface Pending {
  marker?: SlotEvent;
  transactions: TransactionEvent[];
  accounts: Map<string, AccountEvent>;
  /** Every account record read (pubkey and write_version): the count the marker's is compared with. */
  accountIds: Set<string>;
  entries: EntryEvent[];
}

/** Unfinished slots kept this far behind the newest slot seen. */
export const BLOCK_WINDOW = 64n;

export class BlockAssembler {
  private readonly pending = new Map<bigint, Pending>();
  /** The newest end marker's slot. */
  private newest = 0n;

  constructor(private readonly onBlock: (b: AssembledBlock) => void) {}

  onEvent(e: StreamEvent): void {
    switch (e.kind) {
      case 'transaction': {
        const tx = e.event;
        this.at(tx.slot)?.transactions.push(tx);
        return this.check(tx.slot);
      }
      case 'account': {
        const acc = e.event;
        const p = this.at(acc.slot);
        if (p) {
          const k = Buffer.from(acc.pubkey).toString('latin1');
          p.accountIds.add(`${k}:${acc.writeVersion}`);
          const prev = p.accounts.get(k);
          if (!prev || acc.writeVersion >= prev.writeVersion) p.accounts.set(k, acc);
        }
        return this.check(acc.slot);
      }
      case 'entry':
        this.at(e.event.slot)?.entries.push(e.event);
        return this.check(e.event.slot);
      case 'slot': {
        const ev = e.event;
        if (isTerminal(ev.status)) {
          this.pending.delete(ev.slot);
          return;
        }
        if (ev.status !== SlotStatus.SLOT_STATUS_PROCESSED || ev.block === undefined) return;
        const p = this.at(ev.slot);
        if (!p) return;
        p.marker = ev;
        if (ev.slot > this.newest) {
          this.newest = ev.slot;
          for (const s of this.pending.keys()) if (s + BLOCK_WINDOW < ev.slot) this.pending.delete(s);
        }
        return this.check(ev.slot);
      }
    }
  }

  /** The slot's collection; undefined for slots too far behind the newest end marker to be worth starting. */
  private at(slot: bigint): Pending | undefined {
    let p = this.pending.get(slot);
    if (p) return p;
    if (slot + BLOCK_WINDOW < this.newest) return undefined;
    p = { transactions: [], accounts: new Map(), accountIds: new Set(), entries: [] };
    this.pending.set(slot, p);
    return p;
  }

  /**
   * Takes in what `other` (a replay's assembler, at its hand-over) collected of the slots it did not finish,
   * leaving out the records this one has too (a transaction by signature and index, an entry by index, an account
   * write by pubkey and write_version). A slot that is whole now goes to `onDone` instead of this assembler's
   * callback: only the replaying stream lacked it (another stream replaying too may hold it from its own replay);
   * one still waiting for its marker completes later as any live slot.
   */
  adopt(other: BlockAssembler, onDone: (b: AssembledBlock) => void): void {
    for (const [slot, theirs] of other.pending) {
      const p = this.at(slot);
      if (!p) continue;
      const txs = new Set(p.transactions.map(txId));
      for (const t of theirs.transactions) if (!txs.has(txId(t))) p.transactions.push(t);
      const entries = new Set(p.entries.map((e) => e.index));
      for (const e of theirs.entries) if (!entries.has(e.index)) p.entries.push(e);
      for (const id of theirs.accountIds) p.accountIds.add(id);
      for (const [k, acc] of theirs.accounts) {
        const mine = p.accounts.get(k);
        if (!mine || acc.writeVersion > mine.writeVersion) p.accounts.set(k, acc);
      }
      if (!p.marker && theirs.marker) p.marker = theirs.marker;
      this.check(slot, onDone);
    }
  }

  private check(slot: bigint, emit: (b: AssembledBlock) => void = this.onBlock): void {
    const p = this.pending.get(slot);
    const marker = p?.marker;
    if (!p || !marker) return;
    const want = expected(marker);
    if (p.transactions.length < want.transactions || p.entries.length < want.entries) return;
    if (want.accounts !== undefined && p.accountIds.size < want.accounts) return;
    this.pending.delete(slot);
    const byIndex = <T extends { index: bigint | number }>(a: T, b: T) =>
      BigInt(a.index) < BigInt(b.index) ? -1 : BigInt(a.index) > BigInt(b.index) ? 1 : 0;
    emit({
      slot,
      marker,
      transactions: p.transactions.sort(byIndex),
      accounts: [...p.accounts.values()],
      entries: p.entries.sort(byIndex),
    });
  }
}

function txId(t: TransactionEvent): string {
  return `${t.index}:${t.signatures[0] ? Buffer.from(t.signatures[0]).toString('hex') : ''}`;
}

/** What the marker says the slot holds; accounts undefined when it cannot say. */
function expected(marker: SlotEvent): { transactions: number; entries: number; accounts: number | undefined } {
  const counts = marker.end?.counts;
  if (counts !== undefined) {
    const sum = (kind: string) => counts.reduce((n, c) => (c.kind === kind ? n + c.count : n), 0);
    return { transactions: sum('transactions'), entries: sum('entries'), accounts: sum('accounts') };
  }
  const b = marker.block!;
  return {
    transactions: Number(b.executedTransactionCount ?? BigInt(b.transactionCount)),
    entries: Number(b.entryCount ?? 0n),
    accounts: undefined,
  };
}
