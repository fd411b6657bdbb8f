// The newest write version a reader saw of an account in a slot, for the accounts a gated stream matched
// there. Yellowstone deduplicates a slot's writes before its filters (block_reconstruction.rs: the frozen
// block's messages, then each client's filter), so a stream at confirmed gets an account's write only when
// it is the slot's last one, even if the last one does not match the stream's filters (a memcmp, datasize or
// lamports filter that an earlier write of the slot met and the last one does not). A session only ever sees
// the writes it matched; this index also remembers the later writes of those accounts that did not match.
// Pure; kept only for the accounts someone watches (`watch`), so its size follows what the gates hold.

export class NewestWrites {
  private readonly bySlot = new Map<bigint, Map<string, bigint>>();
  private newestSlot = -1n;

  /** `window`: slots kept behind the newest slot noted (a gate holding a slot longer dedups it on its own). */
  constructor(private readonly window: bigint) {}

  /**
   * A write the reader read. `watch`: a gated stream matched it (its account is now remembered in the slot);
   * otherwise it only moves an account already remembered.
   */
  note(slot: bigint, key: string, version: bigint, watch: boolean): void {
    let m = this.bySlot.get(slot);
    if (m === undefined) {
      if (!watch) return;
      this.bySlot.set(slot, (m = new Map()));
      if (slot > this.newestSlot) {
        this.newestSlot = slot;
        for (const s of this.bySlot.keys()) if (s < slot - this.window) this.bySlot.delete(s);
      }
    }
    const prev = m.get(key);
    if (prev === undefined ? watch : version > prev) m.set(key, version);
  }

  /** The newest version seen of a remembered account in the slot. */
  newest(slot: bigint, key: string): bigint | undefined {
    return this.bySlot.get(slot)?.get(key);
  }
}
