// Whole blocks (geyser.Geyser's `blocks` filter) assembled from the stream topics, transport-neutral and
// pure: fed one event at a time (live tail or replay), it emits a block when the slot is complete
// (behaviour.md "Slot framing"): its end marker (the processed slot record with block meta) has been read
// and the records it counts have arrived. The marker's `end` counts records per topic kind and partition;
// the sums per kind are compared (the topics hold each record once, so they match when the partitions' do). A marker without `end` (older data) falls back to the block meta's executed transaction
// and entry counts, and its accounts are those read by then.
// Accounts are Yellowstone's block accounts: the slot's last write of each pubkey (highest write_version).
// A dead or skipped slot drops what was collected. Slots far behind the newest one seen are dropped
// unfinished (a block whose records started before the assembler did can never complete).
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
  accountRecords: number;
  entries: EntryEvent[];
}

/** Unfinished slots kept this far behind the newest slot seen. */
export const BLOCK_WINDOW = 64n;

export class BlockAssembler {
  private readonly pending = new Map<bigint, Pending>();
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
          p.accountRecords++;
          const k = Buffer.from(acc.pubkey).toString('latin1');
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
        if (p) p.marker = ev;
        return this.check(ev.slot);
      }
    }
  }

  /** The slot's collection; undefined for slots too far behind to be worth starting. */
  private at(slot: bigint): Pending | undefined {
    let p = this.pending.get(slot);
    if (p) return p;
    if (slot + BLOCK_WINDOW < this.newest) return undefined;
    p = { transactions: [], accounts: new Map(), accountRecords: 0, entries: [] };
    this.pending.set(slot, p);
    if (slot > this.newest) {
      this.newest = slot;
      for (const s of this.pending.keys()) if (s + BLOCK_WINDOW < slot) this.pending.delete(s);
    }
    return p;
  }

  private check(slot: bigint): void {
    const p = this.pending.get(slot);
    const marker = p?.marker;
    if (!p || !marker) return;
    const want = expected(marker);
    if (p.transactions.length < want.transactions || p.entries.length < want.entries) return;
    if (want.accounts !== undefined && p.accountRecords < want.accounts) return;
    this.pending.delete(slot);
    const byIndex = <T extends { index: bigint | number }>(a: T, b: T) =>
      BigInt(a.index) < BigInt(b.index) ? -1 : BigInt(a.index) > BigInt(b.index) ? 1 : 0;
    this.onBlock({
      slot,
      marker,
      transactions: p.transactions.sort(byIndex),
      accounts: [...p.accounts.values()],
      entries: p.entries.sort(byIndex),
    });
  }
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
