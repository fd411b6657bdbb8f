// The newest write of each account in a slot: the one structure the live layer keeps it in (issue 33). Yellowstone
// deduplicates a slot's account writes (block_reconstruction.rs, ProcessingSlot::seal; grpc.rs: "must not be
// bypassed"): of one slot's writes of an account only the one with the highest write_version goes out, and it does
// so before its filters, so a stream at confirmed gets an account's write only when it is the slot's last one, even
// if the last one does not match the stream's filters. Three readers keep it:
// - the hub and each replay: the later writes of the accounts a gated stream matched, matched or not (`watch`);
// - the commitment gate: the writes it holds per slot, released as each account's newest only (commitment-gate.ts);
// - PubSub's account and program subscriptions: the write per account and slot to notify (api/pubsub/subscription.ts).
// Pure. Of two writes with the same version the later one is kept (a copy of the same write).

/** An account write: the account (any string identity) and its write version. */
export interface Write {
  readonly key: string;
  readonly version: bigint;
}

/** The newest write of one account in one slot, and what its reader keeps with it. */
export interface Newest<T> {
  version: bigint;
  value: T;
}

/** One slot's newest writes, per account in the order the accounts were first written, and how many writes came in. */
export interface SlotWrites<T> {
  readonly byKey: Map<string, Newest<T>>;
  noted: number;
}

export class NewestWrites<T = undefined> {
  private readonly bySlot = new Map<bigint, SlotWrites<T>>();
  private newestSlot = -1n;

  /** `window`: slots kept behind the newest slot noted; undefined: until the reader forgets them. */
  constructor(private readonly window?: bigint) {}

  /**
   * A write the reader read. `watch` false: only moves an account already kept in the slot (a later write of an
   * account a gated stream matched, which the stream's filters did not match).
   */
  note(slot: bigint, key: string, version: bigint, value: T, watch = true): void {
    let w = this.bySlot.get(slot);
    if (w === undefined) {
      if (!watch) return;
      this.bySlot.set(slot, (w = { byKey: new Map(), noted: 0 }));
      if (slot > this.newestSlot) {
        this.newestSlot = slot;
        if (this.window !== undefined) this.forgetBefore(slot - this.window);
      }
    }
    const prev = w.byKey.get(key);
    if (prev === undefined) {
      if (!watch) return;
      w.byKey.set(key, { version, value });
    } else if (version >= prev.version) {
      prev.version = version;
      prev.value = value;
    }
    w.noted++;
  }

  /** The newest version kept of an account in the slot. */
  newest(slot: bigint, key: string): bigint | undefined {
    return this.bySlot.get(slot)?.byKey.get(key)?.version;
  }

  has(slot: bigint): boolean {
    return this.bySlot.has(slot);
  }

  /** The slot's newest writes, forgotten here; undefined when none was kept. */
  take(slot: bigint): SlotWrites<T> | undefined {
    const w = this.bySlot.get(slot);
    if (w !== undefined) this.bySlot.delete(slot);
    return w;
  }

  forget(slot: bigint): void {
    this.bySlot.delete(slot);
  }

  /** Forgets every slot below `slot`. */
  forgetBefore(slot: bigint): void {
    for (const s of this.bySlot.keys()) if (s < slot) this.bySlot.delete(s);
  }

  clear(): void {
    this.bySlot.clear();
  }
}
