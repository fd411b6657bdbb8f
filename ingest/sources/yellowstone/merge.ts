// Several Yellowstone upstreams merged into one update stream (pure: no I/O, no clock). Each update is passed
// on once, from whichever upstream delivers it first, by its identity:
//   slot status: slot + status · block meta: slot · transaction: slot + signature
//   account write: slot + pubkey + write_version · entry: slot + index
// The one assembler behind the merge then frames slots as it does for one upstream (in slot order, a slot
// when it is whole), so a slot's end comes from the merged stream having seen the slot whole, wherever its
// records came from. Data of a slot the assembler has already handed over (`closedThrough`) is dropped: when
// the source counts a slot's transactions and entries (no filter) the slot went out whole, so it is a copy;
// with filters it is what one upstream would call late data too. Statuses are kept longer (confirmed and
// finalized come ~32 slots after the end) and deduplicated by (slot, status) over STATUS_WINDOW slots.
//
// Lag: each upstream's tip is the highest slot it announced (a status or block meta); its lag is the fastest
// upstream's tip minus its own. An upstream more than `maxLagSlots` behind is a laggard (the caller drops and
// resubscribes it), but only once it has been within the limit since its subscription started: one replaying
// its way back after a reconnect is not dropped for being behind.
import bs58 from 'bs58';
import type { SubscribeUpdate } from './geyser-service.js';

/** What became of an offered update. */
export type Verdict = 'won' | 'duplicate' | 'closed' | 'ignored';

/** Slots of statuses remembered for deduplication below the highest slot any upstream announced. */
export const STATUS_WINDOW = 4096n;

interface UpstreamState {
  /** Highest slot announced since the upstream's current subscription started; undefined before any. */
  tip: bigint | undefined;
  /** Within maxLagSlots of the fastest at least once since the subscription started. */
  caughtUp: boolean;
}

/** The identity of an update and its slot; undefined for kinds that carry no chain data (pings, pongs, ...). */
export function identityOf(u: SubscribeUpdate): { slot: bigint; key: string; status: boolean } | undefined {
  if (u.slot) return { slot: BigInt(u.slot.slot), key: `s${u.slot.status}`, status: true };
  if (u.blockMeta) return { slot: BigInt(u.blockMeta.slot), key: 'b', status: false };
  if (u.transaction) {
    const sig = u.transaction.transaction?.signature;
    return { slot: BigInt(u.transaction.slot), key: `t${sig ? Buffer.from(sig).toString('base64') : ''}`, status: false };
  }
  if (u.account) {
    const a = u.account.account;
    return {
      slot: BigInt(u.account.slot),
      key: `a${a ? bs58.encode(a.pubkey) : ''}:${a?.writeVersion ?? ''}`,
      status: false,
    };
  }
  if (u.entry) return { slot: BigInt(u.entry.slot), key: `e${u.entry.index}`, status: false };
  return undefined;
}

export class UpstreamMerge {
  private readonly ups: UpstreamState[];
  /** Identities seen per slot: data of slots not handed over yet, statuses over STATUS_WINDOW. */
  private readonly seen = new Map<bigint, Set<string>>();
  /** Highest slot handed over by the assembler: data at or below it is dropped. */
  private closed: bigint | undefined;
  private highest: bigint | undefined;

  constructor(
    upstreams: number,
    private readonly maxLagSlots: number,
  ) {
    this.ups = Array.from({ length: upstreams }, () => ({ tip: undefined, caughtUp: false }));
  }

  /** An update from upstream `i`: `won` when it is the first of its identity (pass it on), else why not. */
  offer(i: number, u: SubscribeUpdate): Verdict {
    const id = identityOf(u);
    if (!id) return 'ignored';
    if (u.slot || u.blockMeta) this.announce(i, id.slot);
    if (!id.status && this.closed !== undefined && id.slot <= this.closed) return 'closed';
    if (id.status && this.highest !== undefined && id.slot + STATUS_WINDOW < this.highest) return 'closed';
    let keys = this.seen.get(id.slot);
    if (!keys) this.seen.set(id.slot, (keys = new Set()));
    if (keys.has(id.key)) return 'duplicate';
    keys.add(id.key);
    return 'won';
  }

  /** The assembler has handed over every slot up to `slot`: their data identities are no longer needed. */
  closedThrough(slot: bigint | undefined): void {
    if (slot === undefined || (this.closed !== undefined && slot <= this.closed)) return;
    this.closed = slot;
    const statusFloor = this.highest !== undefined ? this.highest - STATUS_WINDOW : undefined;
    for (const [s, keys] of this.seen) {
      if (s > slot) continue;
      if (statusFloor !== undefined && s < statusFloor) {
        this.seen.delete(s);
        continue;
      }
      for (const k of keys) if (k[0] !== 's') keys.delete(k);
    }
  }

  /** Upstream `i` (re)subscribes: its tip and catch-up start over. */
  restarted(i: number): void {
    this.ups[i] = { tip: undefined, caughtUp: false };
  }

  /** Slots upstream `i` trails the fastest by (0 for the fastest; undefined before it announced anything). */
  lag(i: number): number | undefined {
    const tip = this.ups[i]!.tip;
    if (tip === undefined || this.highest === undefined) return undefined;
    return Number(this.highest - tip);
  }

  /** Upstreams to drop: more than maxLagSlots behind after having kept up since their subscription. */
  laggards(): number[] {
    const out: number[] = [];
    this.ups.forEach((u, i) => {
      const lag = this.lag(i);
      if (lag === undefined) return;
      if (lag <= this.maxLagSlots) u.caughtUp = true;
      else if (u.caughtUp) out.push(i);
    });
    return out;
  }

  private announce(i: number, slot: bigint): void {
    const up = this.ups[i]!;
    if (up.tip === undefined || slot > up.tip) up.tip = slot;
    if (this.highest === undefined || slot > this.highest) this.highest = slot;
  }
}
