// The chain as the live layer has seen it: the newest slot at each commitment level and the block meta of
// recent slots. Answers the unary "where is the chain" calls (geyser.Geyser's GetSlot, GetBlockHeight,
// GetLatestBlockhash, IsBlockhashValid; PubSub's slot and root notifications) from the same statuses the
// commitment gate uses. Pure: fed by the hub, one slot record at a time.
import type { BlockMeta, SlotEvent } from '../../schemas/gen/events.js';
import { slotStatusOf, type Commitment } from '../../schemas/commitment.js';
import { isLevel, isTerminal } from './slot-status.js';

/** Agave: a blockhash stays valid for 150 blocks (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_BLOCKS = 150n;
/** Block metas kept, in slots behind the newest processed slot (a few minutes of chain). */
const META_WINDOW = 1_000n;

export interface BlockAt {
  readonly slot: bigint;
  readonly blockHeight: bigint;
  readonly blockhash: Uint8Array;
}

interface Known {
  meta?: BlockMeta;
  status?: number;
}

export class ChainState {
  private readonly slots = new Map<bigint, Known>();
  /** Newest slot per level (index = the level's slot status, slotStatusOf). */
  private readonly newest: (bigint | undefined)[] = [undefined, undefined, undefined];
  private readonly byHash = new Map<string, bigint>();

  onSlot(ev: SlotEvent): void {
    let k = this.slots.get(ev.slot);
    if (ev.block) {
      if (!k) this.slots.set(ev.slot, (k = {}));
      k.meta = ev.block;
      this.byHash.set(Buffer.from(ev.block.blockhash).toString('latin1'), ev.slot);
    }
    if (isTerminal(ev.status)) {
      if (!k) this.slots.set(ev.slot, (k = {}));
      k.status = ev.status;
      return;
    }
    if (!isLevel(ev.status)) return;
    if (k && isTerminal(k.status)) return;
    const cur = this.newest[ev.status];
    if (cur === undefined || ev.slot > cur) {
      // A slot confirmed is also processed, a finalized one also confirmed.
      for (let l = 0; l <= ev.status; l++) if (this.newest[l] === undefined || ev.slot > this.newest[l]!) this.newest[l] = ev.slot;
      if (ev.status === 0) this.prune(ev.slot - META_WINDOW);
    }
  }

  private prune(below: bigint): void {
    if (this.slots.size < Number(META_WINDOW) * 2) return;
    for (const [slot, k] of this.slots) {
      if (slot >= below) continue;
      this.slots.delete(slot);
      if (k.meta) this.byHash.delete(Buffer.from(k.meta.blockhash).toString('latin1'));
    }
  }

  /** The newest slot that reached `level`; undefined before the first status at that level. */
  slot(level: Commitment): bigint | undefined {
    return this.newest[slotStatusOf(level)];
  }

  /** The block meta of a recent slot (the last 1,000 processed slots), if its end marker was read. */
  meta(slot: bigint): BlockMeta | undefined {
    return this.slots.get(slot)?.meta;
  }

  /** The newest block at `level` whose meta is known (a level can name a slot whose marker was not read). */
  block(level: Commitment): BlockAt | undefined {
    const newest = this.newest[slotStatusOf(level)];
    if (newest === undefined) return undefined;
    for (let s = newest; s >= 0n && newest - s < META_WINDOW; s--) {
      const meta = this.slots.get(s)?.meta;
      if (meta && !isTerminal(this.slots.get(s)?.status)) return { slot: s, blockHeight: meta.blockHeight, blockhash: meta.blockhash };
    }
    return undefined;
  }

  /** Agave's rule: the blockhash is one of the last 150 blocks of the chain at `level`. */
  isBlockhashValid(blockhash: Uint8Array, level: Commitment): boolean {
    const slot = this.byHash.get(Buffer.from(blockhash).toString('latin1'));
    const tip = this.block(level);
    if (slot === undefined || tip === undefined || slot > tip.slot) return false;
    const k = this.slots.get(slot)!;
    if (isTerminal(k.status)) return false;
    return tip.blockHeight - k.meta!.blockHeight <= BLOCKHASH_VALID_BLOCKS;
  }
}
