// What a Subscribe stream must receive, computed from the records in Kafka independently of the api:
// per slot, the multiset of update identities that match the stream's filters (written as plain
// predicates by the test; at confirmed only each account's last write of a slot, as Yellowstone), and whether
// a slot is complete in Kafka (its end marker, or for a confirmed stream its confirmed status, is committed). Also the resume point of a cut stream: the
// slot after the last one it received whole.
import { SlotStatus, type AccountEvent, type RecordEvent, type TransactionEvent } from '../../../schemas/codec.js';
import { accountIdentity, txIdentity, type Received } from './resumable-stream.js';

export interface StreamExpectation {
  /** 'confirmed': only slots that reached confirmed count (the commitment gate's rule). */
  commitment: 'processed' | 'confirmed';
  matchTransaction(t: TransactionEvent): boolean;
  matchAccount(a: AccountEvent): boolean;
}

/** A record as read back from Kafka. */
export interface PlacedEvent {
  topic: string;
  partition: number;
  offset: bigint;
  event: RecordEvent;
}

export interface Place {
  /** `topic/partition`. */
  tp: string;
  offset: bigint;
  slot: bigint;
}

export interface ChainTruth {
  txs: TransactionEvent[];
  accounts: AccountEvent[];
  /** Every status recorded per slot. */
  statuses: Map<bigint, Set<number>>;
  maxSlot: bigint;
  /** Where each transaction and account write sits in Kafka, by identity. */
  places: Map<string, Place>;
}

export function chainTruth(records: Iterable<PlacedEvent>): ChainTruth {
  const t: ChainTruth = { txs: [], accounts: [], statuses: new Map(), maxSlot: -1n, places: new Map() };
  for (const { topic, partition, offset, event: e } of records) {
    const tp = `${topic}/${partition}`;
    if (e.kind === 'transactions') {
      t.txs.push(e.event);
      t.places.set(txIdentity(e.event.signatures[0]!), { tp, offset, slot: e.event.slot });
    } else if (e.kind === 'accounts') {
      t.accounts.push(e.event);
      t.places.set(accountIdentity(e.event.pubkey, e.event.writeVersion), { tp, offset, slot: e.event.slot });
    } else if (e.kind === 'slots') {
      const s = t.statuses.get(e.event.slot) ?? new Set<number>();
      s.add(e.event.status);
      t.statuses.set(e.event.slot, s);
      if (e.event.slot > t.maxSlot) t.maxSlot = e.event.slot;
    }
  }
  return t;
}

const ENDS = [SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_DEAD];
const TERMINAL = [SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_DEAD];
const CONFIRMED = [SlotStatus.SLOT_STATUS_CONFIRMED, SlotStatus.SLOT_STATUS_FINALIZED];

/** A slot is complete for the stream when nothing more can arrive for it. */
export function isComplete(x: StreamExpectation, truth: ChainTruth, slot: bigint): boolean {
  const st = truth.statuses.get(slot);
  if (!st) return false;
  if (x.commitment === 'processed') return ENDS.some((s) => st.has(s));
  return CONFIRMED.some((s) => st.has(s)) || TERMINAL.some((s) => st.has(s));
}

function delivered(x: StreamExpectation, truth: ChainTruth, slot: bigint): boolean {
  if (x.commitment === 'processed') return true;
  const st = truth.statuses.get(slot);
  return st !== undefined && CONFIRMED.some((s) => st.has(s)) && !TERMINAL.some((s) => st.has(s));
}

export type Multiset = Map<string, number>;

/** Per slot, the identities the stream must receive. */
export function expectedBySlot(x: StreamExpectation, truth: ChainTruth): Map<bigint, Multiset> {
  const out = new Map<bigint, Multiset>();
  const add = (slot: bigint, id: string): void => {
    if (!delivered(x, truth, slot)) return;
    const m = out.get(slot) ?? new Map<string, number>();
    m.set(id, (m.get(id) ?? 0) + 1);
    out.set(slot, m);
  };
  for (const t of truth.txs) if (x.matchTransaction(t)) add(t.slot, txIdentity(t.signatures[0]!));
  const last = x.commitment === 'processed' ? undefined : lastWrites(truth.accounts);
  for (const a of truth.accounts) {
    // Above processed, Yellowstone's per-slot deduplication comes before the filters: only an account's last
    // write of the slot, and only when it matches.
    if (last && last.get(slotAccount(a)) !== a.writeVersion) continue;
    if (x.matchAccount(a)) add(a.slot, accountIdentity(a.pubkey, a.writeVersion));
  }
  return out;
}

const slotAccount = (a: AccountEvent): string => `${a.slot}/${Buffer.from(a.pubkey).toString('hex')}`;

/** Per slot and account, the highest write version of the slot. */
function lastWrites(accounts: readonly AccountEvent[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const a of accounts) {
    const k = slotAccount(a);
    const v = out.get(k);
    if (v === undefined || a.writeVersion > v) out.set(k, a.writeVersion);
  }
  return out;
}

export function bySlot(received: readonly Received[]): Map<bigint, Multiset> {
  const out = new Map<bigint, Multiset>();
  for (const r of received) {
    const m = out.get(r.slot) ?? new Map<string, number>();
    m.set(r.id, (m.get(r.id) ?? 0) + 1);
    out.set(r.slot, m);
  }
  return out;
}

const sameMultiset = (a: Multiset | undefined, b: Multiset | undefined): boolean => {
  const x = a ?? new Map<string, number>();
  const y = b ?? new Map<string, number>();
  if (x.size !== y.size) return false;
  for (const [k, n] of x) if (y.get(k) !== n) return false;
  return true;
};

export interface MultisetDiff {
  /** Expected, not received (with multiplicity). */
  missing: string[];
  /** Received more often than expected: duplicates or updates that should not have matched. */
  extra: string[];
}

/** Received against expected over all slots. */
export function compareReceived(received: readonly Received[], expected: Map<bigint, Multiset>): MultisetDiff {
  const want = new Map<string, number>();
  for (const m of expected.values()) for (const [k, n] of m) want.set(k, (want.get(k) ?? 0) + n);
  const got = new Map<string, number>();
  for (const r of received) got.set(r.id, (got.get(r.id) ?? 0) + 1);
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of want) for (let i = got.get(k) ?? 0; i < n; i++) missing.push(k);
  for (const [k, n] of got) for (let i = want.get(k) ?? 0; i < n; i++) extra.push(k);
  return { missing, extra };
}

/**
 * Where a cut stream resumes: the first slot from `base` that it has not received whole (the slot after
 * the last one it had fully received). Slots not yet complete in Kafka count as not received whole.
 */
export function resumePoint(x: StreamExpectation, truth: ChainTruth, received: readonly Received[], base: bigint): bigint {
  const got = bySlot(received);
  const want = expectedBySlot(x, truth);
  let s = base;
  while (s <= truth.maxSlot && isComplete(x, truth, s) && sameMultiset(got.get(s), want.get(s))) s++;
  return s;
}

/**
 * Updates a processed stream skipped: within one session a partition's records arrive in offset order,
 * so a matching record older than one the session received from the same partition (and of a slot the
 * session covers) must have arrived already. Tells a lost update from one still on its way.
 */
export function skippedUpdates(x: StreamExpectation, truth: ChainTruth, session: readonly Received[], fromSlot: bigint): string[] {
  if (x.commitment !== 'processed') return [];
  const newest = new Map<string, bigint>();
  const got = new Set<string>();
  for (const r of session) {
    got.add(r.id);
    const p = truth.places.get(r.id);
    if (p && (newest.get(p.tp) ?? -1n) < p.offset) newest.set(p.tp, p.offset);
  }
  const out: string[] = [];
  const check = (id: string): void => {
    const p = truth.places.get(id)!;
    if (p.slot < fromSlot || got.has(id)) return;
    const n = newest.get(p.tp);
    if (n !== undefined && p.offset < n) out.push(`${id} (${p.tp} offset ${p.offset}, slot ${p.slot}; offset ${n} was received)`);
  };
  for (const t of truth.txs) if (x.matchTransaction(t)) check(txIdentity(t.signatures[0]!));
  for (const a of truth.accounts) if (x.matchAccount(a)) check(accountIdentity(a.pubkey, a.writeVersion));
  return out;
}
