// The REAL helius-laserstream SDK (its napi client with automatic reconnection, as applications use it)
// against a local slotstream: one subscription, every update it hands to the application recorded with
// the update's identity (behaviour.md "Equality in tests") and the slot it belongs to.
import { shutdownAllStreams, subscribe, type StreamHandle } from 'helius-laserstream';

/** The SDK decodes with protobufjs (longs as strings, bytes as Buffers, oneof members as plain fields). */
export interface LaserstreamUpdate {
  filters: string[];
  transaction?: { slot: string; transaction: { signature: Buffer } };
  account?: { slot: string; account: { pubkey: Buffer; writeVersion: string } };
  slot?: { slot: string; status: number };
  createdAt?: Date;
}

export interface Identified {
  /** "tx <sig hex>", "acc <pubkey hex> <write_version>" or "slot <slot> <status>". */
  id: string;
  slot: bigint;
  /** performance.now() in the receive callback. */
  at: number;
}

/** The update's identity, or undefined for kinds the test does not subscribe to. */
export function identify(u: LaserstreamUpdate): { id: string; slot: bigint } | undefined {
  if (u.transaction) return { id: `tx ${u.transaction.transaction.signature.toString('hex')}`, slot: BigInt(u.transaction.slot) };
  if (u.account)
    return { id: `acc ${u.account.account.pubkey.toString('hex')} ${u.account.account.writeVersion}`, slot: BigInt(u.account.slot) };
  if (u.slot) return { id: `slot ${u.slot.slot} ${u.slot.status}`, slot: BigInt(u.slot.slot) };
  return undefined;
}

export class LaserstreamRecorder {
  readonly updates: Identified[] = [];
  readonly errors: Error[] = [];

  private constructor(private readonly handle: StreamHandle) {}

  /** Subscribes through the SDK (plaintext endpoint, no API key) with its reconnection and replay on. */
  static async open(port: number, request: object): Promise<LaserstreamRecorder> {
    const holder: { r?: LaserstreamRecorder; early: Identified[]; errors: Error[] } = { early: [], errors: [] };
    const handle = await subscribe(
      { endpoint: `http://127.0.0.1:${port}`, apiKey: '', maxReconnectAttempts: 50, replay: true },
      request,
      (update) => {
        const id = identify(update);
        if (id) (holder.r?.updates ?? holder.early).push({ ...id, at: performance.now() });
      },
      (e) => void (holder.r?.errors ?? holder.errors).push(e),
    );
    const r = new LaserstreamRecorder(handle);
    r.updates.push(...holder.early);
    r.errors.push(...holder.errors);
    holder.r = r;
    return r;
  }

  has(id: string): boolean {
    return this.updates.some((u) => u.id === id);
  }

  cancel(): void {
    this.handle.cancel();
  }

  /** Stops every SDK stream of the process (its reconnect loops would otherwise outlive the test). */
  static shutdownAll(): void {
    shutdownAllStreams();
  }
}

/** Occurrences of each identity. */
export function counts(updates: readonly Identified[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const u of updates) m.set(u.id, (m.get(u.id) ?? 0) + 1);
  return m;
}
