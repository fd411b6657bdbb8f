// Snapshot, then stream (issue 23, item 1): the first part of a session that asked for a snapshot. It picks ONE
// slot S, streams the state at S of every account the subscription's account filters match (the accounts view,
// api/views/account-snapshot.ts, read as RowBinary into account records: snapshot-records.ts), each as an
// account update with is_startup set and slot S, waiting for the
// transport whenever its write buffer is full (back-pressure: a snapshot of millions of accounts is never held in
// memory), and returns S. The session then starts its live part as a from_slot S + 1 replay (session.ts), whose
// hand-over is the one every from_slot stream has: no gap, no duplicate.
//
// Which slot: the newest slot the views hold at the subscription's commitment (the projector's `heads`: every
// record up to it is stored). When the views trail Kafka, S is older than the live tail's slot at that level and
// the replay reads the difference from Kafka. When the views hold no slot at that level yet (a fresh chain), the
// snapshot waits up to SNAPSHOT_WAIT_MS for one, then the session fails UNAVAILABLE.
import bs58 from 'bs58';
import { matchAccountView, scannedAccountView, type CompiledSubscription } from '../filters/index.js';
import type { SnapshotCandidates } from '../views/account-snapshot.js';
import type { StreamViews } from './stream-views.js';
import { SharedEvent } from './shared-event.js';
import { SnapshotRowDecoder } from './snapshot-records.js';

/** How long a snapshot waits for the views to hold a slot at its commitment. */
export const SNAPSHOT_WAIT_MS = 10_000;
const POLL_MS = 100;

/** Why a snapshot cannot be served (the session fails SLOTSTREAM_LIVE_UNAVAILABLE with this message). */
export class SnapshotUnavailable extends Error {
  override name = 'SnapshotUnavailable';
}

/**
 * Pure: the accounts a snapshot reads, from the subscription's account filters. Undefined: the subscription has
 * none (nothing to snapshot). A filter naming pubkeys contributes them (its other fields narrow further, on each
 * row); one naming owners only, its owners; one naming neither makes the snapshot read every account.
 */
export function snapshotCandidates(sub: CompiledSubscription): SnapshotCandidates | undefined {
  if (sub.accounts.length === 0) return undefined;
  const pubkeys = new Set<string>();
  const owners = new Set<string>();
  for (const f of sub.accounts) {
    if (f.account.size > 0) for (const k of f.account) pubkeys.add(k);
    else if (f.owner.size > 0) for (const k of f.owner) owners.add(k);
    else return { kind: 'all' };
  }
  const b58 = (ids: Set<string>): string[] => [...ids].map((id) => bs58.encode(Buffer.from(id, 'latin1')));
  if (owners.size === 0) return { kind: 'pubkeys', pubkeys: b58(pubkeys) };
  return { kind: 'owners', owners: b58(owners), pubkeys: b58(pubkeys) };
}

export interface SnapshotOptions {
  /** The views (stream-views.ts: ClickHouse or the engine process); undefined: no snapshot can be served. */
  views: StreamViews | undefined;
  sub: CompiledSubscription;
  /** Hands one matched account update on (the session's sink, past any gate: S has reached the level). */
  deliver(update: SharedEvent, names: readonly string[]): void;
  /** The transport's back-pressure (SessionSink.ready). */
  ready(): Promise<void> | undefined;
  /** False once the session moved on (closed, or a new request replaced the subscription): the snapshot stops. */
  current(): boolean;
  waitMs?: number;
}

/** The slot a snapshot is taken at: the views' newest at the commitment, waited for up to `waitMs`. */
export async function snapshotSlot(o: Pick<SnapshotOptions, 'views' | 'sub' | 'current' | 'waitMs'>): Promise<bigint> {
  if (o.views === undefined) throw new SnapshotUnavailable('snapshot: this api process has no ClickHouse views to read accounts from');
  const deadline = performance.now() + (o.waitMs ?? SNAPSHOT_WAIT_MS);
  for (;;) {
    const head = await o.views.head(o.sub.commitment);
    if (head !== undefined) return head;
    if (performance.now() >= deadline || !o.current())
      throw new SnapshotUnavailable(
        `snapshot: the views hold no ${o.sub.commitment} slot yet (waited ${o.waitMs ?? SNAPSHOT_WAIT_MS} ms); retry once the projector has caught up`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Streams the snapshot at the views' slot S to `deliver` and returns S (undefined when the session moved on
 * meanwhile). Accounts go out in pubkey order, one update each, names as live matching gives them.
 */
export async function runSnapshot(o: SnapshotOptions): Promise<bigint | undefined> {
  const slot = await snapshotSlot(o);
  const candidates = snapshotCandidates(o.sub);
  if (candidates === undefined || !o.current()) return o.current() ? slot : undefined;
  const rows = new SnapshotRowDecoder(slot);
  const chunks = o.views!.accountSnapshot(candidates, slot)[Symbol.asyncIterator]();
  try {
    // The next chunk is asked for before this one is sent: the engine reads it (on its own threads) meanwhile.
    // A chunk asked for and then not awaited (the session moved on) may fail: marked handled, so it cannot end the process.
    const ask = () => {
      const p = chunks.next();
      p.catch(() => undefined);
      return p;
    };
    let next = ask();
    for (;;) {
      const chunk = await next;
      if (chunk.done) break;
      next = ask();
      // Each row is an account record with its scan (snapshot-records.ts): matched, and re-framed by
      // stream.Stream, like a record read from Kafka.
      rows.push(chunk.value);
      for (let record = rows.next(); record !== undefined; record = rows.next()) {
        if (!o.current()) return undefined;
        const names = matchAccountView(o.sub, scannedAccountView(record.scan));
        if (names.length === 0) continue;
        o.deliver(new SharedEvent(record), names);
        const wait = o.ready();
        if (wait) await wait;
      }
    }
    rows.end();
  } finally {
    await chunks.return?.(undefined).catch(() => undefined); // stopping early cancels the query
  }
  return o.current() ? slot : undefined;
}
