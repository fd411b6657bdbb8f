// The relay test's comparisons, under behaviour.md's equality ("Equality in tests": per partition, the
// sequences of (key, value) equal; epoch records by their schedules), with the one named exception: A's
// SKIPPED records. Yellowstone has no skipped status (behaviour.md "Slot statuses": geyser.Geyser does not
// send it), so nothing B reads from A's geyser.Geyser says a slot was skipped; B can only not have it. And the
// place of confirmations and finalizations in their partitions (`lateStatusesAsSets`, below).
import type { Kafka } from '../../../platform/kafka/index.js';
import { decodeRecord, SlotStatus } from '../../../schemas/codec.js';
import { readU64Key, type TopicKind, type TopicNames } from '../../../schemas/topics.js';
import type { ReadRecord } from '../kafka/read-topics.js';
import { readKinds, recordsDifference, type RecordsByKind } from '../kafka/same-records.js';

export const RELAYED_KINDS = ['slots', 'transactions', 'accounts', 'entries', 'epochs'] as const satisfies readonly TopicKind[];
type Relayed = (typeof RELAYED_KINDS)[number];

export async function readRelayed(kafka: Kafka, topics: TopicNames, kinds: readonly Relayed[] = RELAYED_KINDS): Promise<RecordsByKind> {
  return readKinds(kafka, topics, kinds);
}

/** The slot a record belongs to (its key for slots and entries, the event's slot otherwise). */
export function slotOfRecord(kind: Relayed, r: ReadRecord): bigint {
  if (kind === 'slots' || kind === 'entries') return readU64Key(r.key);
  const d = decodeRecord(kind, r.value);
  if (!d.ok) throw new Error(`${kind} record at offset ${r.offset}: ${d.reason}`);
  if (d.value.kind === 'epochs') return d.value.event.firstSlot;
  return d.value.event.slot;
}

export function slotStatusOf(r: ReadRecord): SlotStatus {
  const d = decodeRecord('slots', r.value);
  if (!d.ok || d.value.kind !== 'slots') throw new Error(`slot record at offset ${r.offset} undecodable`);
  return d.value.event.status;
}

/** Keeps, per partition and in order, the records `keep` accepts. */
export function filterRecords(c: RecordsByKind, keep: (kind: Relayed, r: ReadRecord) => boolean): RecordsByKind {
  return Object.fromEntries(Object.entries(c).map(([kind, parts]) => [kind, parts.map((p) => p.filter((r) => keep(kind as Relayed, r)))]));
}

/**
 * The second named exception: where in its partition a confirmation or finalization sits. Those are statuses of a
 * slot already out, and B, which sees no batch boundaries on the wire, publishes one with the next slot that goes
 * out after it arrives; A's geyser.Geyser hands them over as its reader reads their partition, which under load
 * trails the others (issue 32: a probe saw slot 14's confirmation, in A's batch of slot 16, arrive after slot 30's
 * processed status). So per partition they compare as a set, after every other record, which keeps its order.
 */
export function lateStatusesAsSets(c: RecordsByKind): RecordsByKind {
  if (!c.slots) return c;
  const late = (r: ReadRecord): boolean => {
    const st = slotStatusOf(r);
    return st === SlotStatus.SLOT_STATUS_CONFIRMED || st === SlotStatus.SLOT_STATUS_FINALIZED;
  };
  const order = (a: ReadRecord, b: ReadRecord): number => Buffer.compare(a.key, b.key) || Buffer.compare(a.value, b.value);
  return { ...c, slots: c.slots.map((p) => [...p.filter((r) => !late(r)), ...p.filter(late).sort(order)]) };
}

/** A's records as B can hold them: without SKIPPED records (the named exception above). */
export const withoutSkipped = (c: RecordsByKind): RecordsByKind =>
  filterRecords(c, (kind, r) => kind !== 'slots' || slotStatusOf(r) !== SlotStatus.SLOT_STATUS_SKIPPED);

/** A record decoded for a failure message. */
function show(kind: string, r: ReadRecord | undefined): string {
  if (!r) return 'none';
  const d = decodeRecord(kind as Relayed, r.value);
  if (!d.ok) return `undecodable (${d.reason})`;
  const e = d.value;
  if (e.kind === 'slots')
    return `slot ${e.event.slot} ${SlotStatus[e.event.status]}${e.event.end ? ' (end marker)' : ''}${e.event.gap ? ` gap ${e.event.gap.firstSlot}-${e.event.gap.lastSlot}` : ''}`;
  if (e.kind === 'epochs') return `epoch ${e.event.epoch}`;
  return `${e.kind} of slot ${e.event.slot}`;
}

/** Where B's records differ from A's under the equality above, with both records decoded; undefined when equal. */
export function relayDifference(b: RecordsByKind, a: RecordsByKind): string | undefined {
  const diff = recordsDifference(b, a);
  if (diff === undefined) return undefined;
  const m = /^(\w+)\[(\d+)\].*?index (\d+)/.exec(diff);
  if (!m) return diff;
  const [kind, p, i] = [m[1]!, Number(m[2]), Number(m[3])];
  const around = (c: RecordsByKind) => {
    const part = c[kind as Relayed]?.[p] ?? [];
    return part
      .slice(Math.max(0, i - 2), i + 3)
      .map((r) => show(kind, r))
      .join(' | ');
  };
  return `${diff}\n  B around it: ${around(b)}\n  A around it: ${around(a)}${fieldDifference(kind, b[kind as Relayed]?.[p]?.[i], a[kind as Relayed]?.[p]?.[i])}`;
}

const json = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'bigint'
      ? x.toString()
      : x instanceof Uint8Array
        ? Buffer.from(x).toString('hex')
        : x && typeof x === 'object' && (x as { type?: string }).type === 'Buffer'
          ? 'buffer'
          : x,
  );

/** The fields (one level into nested messages) where two records of one key differ, for a failure message. */
function fieldDifference(kind: string, b: ReadRecord | undefined, a: ReadRecord | undefined): string {
  if (!a || !b || !a.key.equals(b.key)) return '';
  const db = decodeRecord(kind as Relayed, b.value);
  const da = decodeRecord(kind as Relayed, a.value);
  if (!db.ok || !da.ok) return '';
  const out: string[] = [];
  const walk = (x: Record<string, unknown>, y: Record<string, unknown>, path: string, depth: number): void => {
    for (const k of new Set([...Object.keys(x ?? {}), ...Object.keys(y ?? {})])) {
      const xv = x?.[k];
      const yv = y?.[k];
      if (json(xv) === json(yv)) continue;
      if (depth < 2 && xv && yv && typeof xv === 'object' && typeof yv === 'object' && !Buffer.isBuffer(xv) && !Array.isArray(xv))
        walk(xv as Record<string, unknown>, yv as Record<string, unknown>, `${path}${k}.`, depth + 1);
      else out.push(`${path}${k}: B ${json(xv)?.slice(0, 300)} / A ${json(yv)?.slice(0, 300)}`);
    }
  };
  walk(db.value.event as unknown as Record<string, unknown>, da.value.event as unknown as Record<string, unknown>, '', 0);
  return out.length === 0 ? '' : `\n  fields: ${out.join('\n          ')}`;
}

/** A record's identity for `recordsAlsoIn`: its key and value (an epoch record by its key alone: B builds its epoch
 * records from a JSON-RPC node, so their bytes are B's, compared by schedule in `relayDifference`). */
const identity = (kind: string, r: ReadRecord): string =>
  kind === 'epochs' ? `epochs:${r.key.toString('hex')}` : `${kind}:${r.key.toString('hex')}:${r.value.toString('hex')}`;

/** The records of `c` that `ref` holds too (any partition of the same kind), per partition in order: B's topics cut
 * down to what A had at some moment, for comparing with A's records of that moment while B has gone on. */
export function recordsAlsoIn(c: RecordsByKind, ref: RecordsByKind): RecordsByKind {
  const known = new Set<string>();
  for (const [kind, parts] of Object.entries(ref)) for (const p of parts) for (const r of p) known.add(identity(kind, r));
  return filterRecords(c, (kind, r) => known.has(identity(kind, r)));
}

/** `want`'s records that `c` does not hold, decoded (at most `max`), for messages. */
export function missingRecords(c: RecordsByKind, want: RecordsByKind, max = 20): string[] {
  const have = new Set<string>();
  for (const [kind, parts] of Object.entries(c)) for (const p of parts) for (const r of p) have.add(identity(kind, r));
  const out: string[] = [];
  for (const [kind, parts] of Object.entries(want))
    for (const p of parts) for (const r of p) if (!have.has(identity(kind, r)) && out.length < max) out.push(show(kind, r));
  return out;
}
