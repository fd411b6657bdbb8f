// The chain of the snapshot-then-stream tests (issue 23, item 1): slots of account writes published to real topics
// (one partition each, framed as the ingest frames them), each slot confirmed by the next one's records, while a
// client subscribes with a snapshot. It remembers every write it published, so the tests know, independently of
// the views, the state of every account at any slot and each account's last write in each slot (what a confirmed
// stream gets: Yellowstone's per-slot deduplication).
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { Kafka } from '../../../platform/kafka/index.js';
import { AccountEvent, SlotEvent, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import type { TopicNames } from '../../../schemas/topics.js';
import { TestPublisher } from '../grpc/clients.js';
import { framedSlot } from '../ingest/framed-slot.js';

/** An account update as a client saw it, whatever the transport. */
export interface SeenAccount {
  slot: bigint;
  pubkey: string;
  lamports: bigint;
  /** hex */
  data: string;
  startup: boolean;
}

const keyOf = (seed: string): Buffer => createHash('sha256').update(seed).digest();

export class SnapshotChain {
  /** The watched program's accounts (some closed and reopened along the way). */
  readonly accounts: Buffer[];
  readonly owner: Buffer;
  /** Accounts of another program, written alongside: never in a watched stream. */
  private readonly others: Buffer[];
  readonly writes: AccountEvent[] = [];
  private writeVersion = 0n;
  private rng: number;
  next: bigint;
  private running: Promise<void> | undefined;
  private stopRequested = false;

  private constructor(
    private readonly pub: TestPublisher,
    tag: string,
    first: bigint,
  ) {
    this.owner = keyOf(`${tag}-owner`);
    this.accounts = Array.from({ length: 24 }, (_, i) => keyOf(`${tag}-acct-${i}`));
    this.others = Array.from({ length: 6 }, (_, i) => keyOf(`${tag}-other-${i}`));
    this.next = first;
    this.rng = Number(first) || 1;
  }

  static async start(kafka: Kafka, topics: TopicNames, tag: string, first: bigint): Promise<SnapshotChain> {
    return new SnapshotChain(await TestPublisher.start(kafka, topics), tag, first);
  }

  private random(n: number): number {
    this.rng = (this.rng * 1103515245 + 12345) % 2147483648;
    return this.rng % n;
  }

  private write(slot: bigint, pubkey: Buffer, owner: Buffer, lamports: bigint): AccountEvent {
    const writeVersion = ++this.writeVersion;
    const e = AccountEvent.fromPartial({
      pubkey,
      owner,
      lamports,
      executable: false,
      rentEpoch: 18446744073709551615n,
      data: lamports === 0n ? Buffer.alloc(0) : Buffer.from(`${bs58.encode(pubkey).slice(0, 6)}@${slot}#${writeVersion}`),
      writeVersion,
      slot,
      isStartup: false,
    });
    this.writes.push(e);
    return e;
  }

  /**
   * Publishes one slot: writes to a few watched accounts (one written twice, one closed now and then) and to other
   * programs' accounts, its end marker, and the confirmation of the slot before it. The first watched account is
   * written in every slot, so every slot has something for a watched stream.
   */
  async slot(): Promise<bigint> {
    const slot = this.next++;
    const data: ChainEvent[] = [];
    const w = (pubkey: Buffer, owner: Buffer, lamports: bigint) =>
      data.push({ kind: 'accounts', event: this.write(slot, pubkey, owner, lamports) });
    w(this.accounts[0]!, this.owner, 1_000n + slot);
    for (let i = 0; i < 4; i++)
      w(this.accounts[1 + this.random(this.accounts.length - 1)]!, this.owner, BigInt(1 + this.random(1_000_000)));
    const twice = this.accounts[1 + this.random(this.accounts.length - 1)]!;
    w(twice, this.owner, 7n);
    w(twice, this.owner, 8n + slot);
    if (this.random(3) === 0) w(this.accounts[1 + this.random(this.accounts.length - 1)]!, this.owner, 0n);
    w(this.others[this.random(this.others.length)]!, keyOf('other-program'), 5n);
    await this.pub.publish([
      ...framedSlot(slot, data),
      { kind: 'slots', event: SlotEvent.fromPartial({ slot: slot - 1n, status: SlotStatus.SLOT_STATUS_CONFIRMED }) },
    ]);
    return slot;
  }

  /** Confirms `slot` (the last one published: the next slot's records would). */
  async confirm(slot: bigint): Promise<void> {
    await this.pub.publish([{ kind: 'slots', event: SlotEvent.fromPartial({ slot, status: SlotStatus.SLOT_STATUS_CONFIRMED }) }]);
  }

  /** Publishes slots one after another (a few ms apart) until stop(). */
  run(gapMs = 15): void {
    this.stopRequested = false;
    this.running = (async () => {
      while (!this.stopRequested) {
        await this.slot();
        await new Promise((r) => setTimeout(r, gapMs));
      }
    })();
  }

  /** Stops the writer; returns the last slot published. */
  async stop(): Promise<bigint> {
    this.stopRequested = true;
    await this.running;
    return this.next - 1n;
  }

  async close(): Promise<void> {
    await this.pub.stop();
  }

  private watched(e: AccountEvent): boolean {
    return e.owner.equals(this.owner);
  }

  /** The watched accounts' state at the end of `slot`: each one's last write at or below it, closed ones left out. */
  stateAt(slot: bigint): Map<string, SeenAccount> {
    const last = new Map<string, AccountEvent>();
    for (const e of this.writes) if (e.slot <= slot && this.watched(e)) last.set(bs58.encode(e.pubkey), e);
    const out = new Map<string, SeenAccount>();
    for (const [k, e] of last) if (e.lamports > 0n) out.set(k, seen(e, slot, true));
    return out;
  }

  /** What a confirmed stream gets live in slots after..through: each watched account's last write per slot, in slot order. */
  liveAfter(after: bigint, through: bigint): SeenAccount[] {
    const perSlot = new Map<bigint, Map<string, AccountEvent>>();
    for (const e of this.writes) {
      if (e.slot <= after || e.slot > through || !this.watched(e)) continue;
      let m = perSlot.get(e.slot);
      if (!m) perSlot.set(e.slot, (m = new Map()));
      m.set(bs58.encode(e.pubkey), e);
    }
    return [...perSlot.keys()].sort((a, b) => (a < b ? -1 : 1)).flatMap((s) => [...perSlot.get(s)!.values()].map((e) => seen(e, s, false)));
  }
}

function seen(e: AccountEvent, slot: bigint, startup: boolean): SeenAccount {
  return { slot, pubkey: bs58.encode(e.pubkey), lamports: e.lamports, data: e.data.toString('hex'), startup };
}

/** A client's view: the snapshot, then each update applied in order (a 0-lamport write closes the account). */
export function foldView(updates: readonly SeenAccount[]): Map<string, { lamports: bigint; data: string }> {
  const view = new Map<string, { lamports: bigint; data: string }>();
  for (const u of updates) {
    if (u.lamports === 0n) view.delete(u.pubkey);
    else view.set(u.pubkey, { lamports: u.lamports, data: u.data });
  }
  return view;
}

/** Order-independent text of a list of updates (within a slot, the order of accounts is not part of the contract). */
export const sortedIds = (us: readonly SeenAccount[]): string[] =>
  us.map((u) => `${u.slot}|${u.pubkey}|${u.lamports}|${u.data}|${u.startup}`).sort();
