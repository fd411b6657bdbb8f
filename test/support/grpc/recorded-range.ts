// A recorded range of ~4 s of chain time at 20 ms slots, and a paced replay of it (issue 23 item 3): shared by
// api/grpc/bounded-replay.int.test.ts (bounded replays deliver every update once; a paced one is slowed down) and
// bench/stream-latency.ts (how close a paced replay comes to the recorded time / pace).
import { randomBytes } from 'node:crypto';
import type { ChainEvent } from '../../../schemas/codec.js';
import { waitFor } from '../harness/kafka.js';
import { framedSlot } from '../ingest/framed-slot.js';
import {
  accountEvent,
  b58,
  key,
  slotEvent,
  subscribe,
  txEvent,
  type Msg,
  type Recorder,
  type StoredRecord,
  type TestPublisher,
} from './clients.js';

/** The account whose transactions, and the owner whose accounts, the range's filters match. */
export const A = key();
export const OWNER = key();
export const SLOT_MS = 20;
export const FIRST = 100n;
export const LAST = 299n; // 200 slots: 4 s of chain time

/** One slot as the ingest frames it (data, then the end marker counting it; one partition), then its later levels. */
function slotEvents(slot: bigint): ChainEvent[] {
  const data: ChainEvent[] = [
    { kind: 'transactions', event: txEvent(slot, [A, key()]) },
    { kind: 'transactions', event: txEvent(slot, [key()]) },
    { kind: 'accounts', event: accountEvent(slot, key(), OWNER, randomBytes(8)) },
    { kind: 'accounts', event: accountEvent(slot, key(), key(), randomBytes(8)) },
  ];
  return [...framedSlot(slot, data), { kind: 'slots', event: slotEvent(slot, 1) }, { kind: 'slots', event: slotEvent(slot, 2) }];
}

/**
 * Publishes slots FIRST..LAST a slot every 20 ms (the chain's clock: the records' timestamps are when they went
 * out; a starved publisher only stretches the recorded time, which the paced figures are measured against), then
 * two more slots at once.
 */
export async function publishRecordedRange(pub: TestPublisher): Promise<void> {
  const start = performance.now();
  for (let s = FIRST; s <= LAST; s++) {
    await pub.publish(slotEvents(s));
    const due = start + Number(s - FIRST + 1n) * SLOT_MS;
    const now = performance.now();
    if (due > now) await new Promise((r) => setTimeout(r, due - now));
  }
  await pub.publish([...slotEvents(LAST + 1n), ...slotEvents(LAST + 2n)]);
}

/** stream.Stream filters matching A's transactions and OWNER's accounts. */
export const rangeFilters = async (): Promise<Msg> => ({
  transactions: { a: { account_include: [await b58(A)] } },
  accounts: { o: { owner: [await b58(OWNER)] } },
});

/** The matching records of slots from..to: identity -> Kafka timestamp. */
export function expected(records: StoredRecord[], from: bigint, to: bigint): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    const e = r.event;
    if (e.kind === 'transactions' && e.event.slot >= from && e.event.slot <= to && e.event.accountKeys.some((k) => k.equals(A)))
      out.set(`tx:${e.event.signatures[0]!.toString('hex')}`, r.timestamp);
    if (e.kind === 'accounts' && e.event.slot >= from && e.event.slot <= to && e.event.owner.equals(OWNER))
      out.set(`acc:${e.event.pubkey.toString('hex')}`, r.timestamp);
  }
  return out;
}

export const idOf = (u: Msg): string =>
  u.update_oneof === 'transaction'
    ? `tx:${Buffer.from(u.transaction.transaction.signature).toString('hex')}`
    : `acc:${Buffer.from(u.account.account.pubkey).toString('hex')}`;

export const dataOf = (r: Recorder): Msg[] => r.updates.filter((u) => u.update_oneof === 'transaction' || u.update_oneof === 'account');

/** A paced replay of the whole range: what arrived, what was expected, and recorded vs taken time (ms). */
export interface PacedReplay {
  r: Recorder;
  want: Map<string, number>;
  got: string[];
  /** From the first delivered record's Kafka timestamp to the last's. */
  recorded: number;
  /** Between those two records' arrivals on the client. */
  taken: number;
  /** From the request's writing to the last record's arrival. */
  sinceRequest: number;
}

/** stream.Stream from FIRST to LAST at `pace`, until the stream ends (the deadline is against a hang). */
export async function pacedReplay(client: Msg, contents: StoredRecord[], pace: number): Promise<PacedReplay> {
  const want = expected(contents, FIRST, LAST);
  const r = subscribe(client);
  const filters = await rangeFilters();
  const sent = performance.now();
  r.send({ ...filters, from_slot: FIRST.toString(), to_slot: LAST.toString(), pace });
  await waitFor(() => r.ended || r.error !== undefined, { what: 'the paced stream to end', timeoutMs: 300_000 });
  const data = dataOf(r);
  const got = data.map(idOf);
  if (data.length === 0) return { r, want, got, recorded: 0, taken: 0, sinceRequest: 0 };
  const firstIdx = r.updates.indexOf(data[0]);
  const lastIdx = r.updates.indexOf(data[data.length - 1]);
  const recorded = want.get(idOf(data[data.length - 1]))! - want.get(idOf(data[0]))!;
  const taken = r.receivedAt[lastIdx]! - r.receivedAt[firstIdx]!;
  return { r, want, got, recorded, taken, sinceRequest: r.receivedAt[lastIdx]! - sent };
}
