// Yellowstone's account deduplication per slot (yellowstone-grpc-geyser block_reconstruction.rs,
// ProcessingSlot::seal; grpc.rs: "must not be bypassed"): of one slot's updates, an account written several
// times keeps only its write with the highest write_version; every other update stays, and the survivors keep
// their order. Pure; the commitment gate applies it to the updates of a slot it releases at confirmed or
// finalized (processed streams get every write, as Yellowstone's).

/** An account write as the deduplication sees it: the account (any string identity) and its write version. */
export interface Write {
  readonly key: string;
  readonly version: bigint;
}

/**
 * `items` without the writes superseded: a write goes when the same key has a write with a higher version in
 * `items`, or the same version later in `items` (a copy of the same write), or a higher version in `newer` (a
 * later write of the slot that is not among the items: one the stream's filters did not match). Items that are
 * not writes (`writeOf` answers undefined) all stay. Order kept; `items` itself when nothing goes.
 */
export function latestWritesOnly<T>(
  items: T[],
  writeOf: (item: T) => Write | undefined,
  newer: (key: string) => bigint | undefined = () => undefined,
): T[] {
  const last = new Map<string, { version: bigint; at: number }>();
  const writes: (Write | undefined)[] = items.map(writeOf);
  let count = 0;
  writes.forEach((w, at) => {
    if (w === undefined) return;
    count++;
    const prev = last.get(w.key);
    if (prev === undefined || w.version >= prev.version) last.set(w.key, { version: w.version, at });
  });
  const superseded = (key: string, version: bigint): boolean => {
    const n = newer(key);
    return n !== undefined && n > version;
  };
  // Most slots write each account once (or hold no writes): nothing to drop, no copy.
  if (last.size === count && ![...last].some(([key, w]) => superseded(key, w.version))) return items;
  return items.filter((_, at) => {
    const w = writes[at];
    return w === undefined || (last.get(w.key)!.at === at && !superseded(w.key, w.version));
  });
}
