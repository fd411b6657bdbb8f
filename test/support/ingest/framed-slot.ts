// Test helpers for slot framing: a synthetic slot's events, and a check that every end marker's counts
// equal the records of its slot on the partitions (spec/behaviour.md, "Slot framing").
import { createHash, randomBytes } from 'node:crypto';
import { decodeRecord, SlotEvent, SlotStatus, TransactionEvent, type ChainEvent } from '../../../schemas/codec.js';
import { ParsedTransactionEvent } from '../../../schemas/gen/events.js';
import type { FramedRecord, SlotFramer } from '../../../ingest/publish/framer.js';
import { ownSlotOf } from '../../../ingest/publish/identity.js';
import type { TopicKind, TopicNames } from '../../../schemas/topics.js';
import type { TopicContents } from '../kafka/read-topics.js';

const bytes = (seed: string, n = 32): Buffer => createHash('sha512').update(seed).digest().subarray(0, n);

/** A produced slot: `txs` transactions, an account write per transaction, two entries, and its
 * PROCESSED record first (as a source hands it; the framer moves it last). */
export function syntheticSlot(slot: bigint, txs: number): ChainEvent[] {
  const events: ChainEvent[] = [
    {
      kind: 'slots',
      event: {
        slot,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: {
          parentSlot: slot - 1n,
          blockhash: bytes(`bh${slot}`),
          blockHeight: slot,
          blockTime: 1n,
          leader: bytes('leader'),
          transactionCount: txs,
          voteTransactionCount: 0,
          previousBlockhash: bytes(`bh${slot - 1n}`),
          rewards: [],
        },
      },
    },
    { kind: 'slots', event: { slot: slot - 1n, status: SlotStatus.SLOT_STATUS_CONFIRMED, block: undefined } },
  ];
  for (let i = 0; i < txs; i++) {
    events.push({
      kind: 'transactions',
      event: TransactionEvent.fromPartial({
        slot,
        index: i,
        signatures: [bytes(`sig${slot}.${i}`, 64)],
        accountKeys: [bytes(`payer${i}`)],
        fee: 5000n,
      }),
    });
  }
  for (let i = 0; i < txs; i++) {
    events.push({
      kind: 'accounts',
      event: {
        pubkey: bytes(`acct${i % 7}`),
        lamports: BigInt(i),
        owner: bytes('owner'),
        executable: false,
        rentEpoch: 0n,
        data: Buffer.alloc(0),
        writeVersion: slot * 1000n + BigInt(i),
        slot,
        isStartup: false,
      },
    });
  }
  for (let i = 0n; i < 2n; i++) {
    events.push({
      kind: 'entries',
      event: {
        slot,
        index: i,
        numHashes: 12n,
        hash: bytes(`entry${slot}.${i}`),
        executedTransactionCount: 0n,
        startingTransactionIndex: 0n,
      },
    });
  }
  return events;
}

/**
 * A slot's records as the ingest publishes them: its data, then its end marker (the processed record with
 * block meta and the counts of the records before it), every topic with one partition.
 */
export function framedSlot(slot: bigint, data: ChainEvent[]): ChainEvent[] {
  const counts = new Map<string, number>();
  for (const e of data) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const marker = SlotEvent.fromPartial({
    slot,
    status: SlotStatus.SLOT_STATUS_PROCESSED,
    block: {
      parentSlot: slot - 1n,
      blockhash: randomBytes(32),
      blockHeight: slot,
      blockTime: 1_700_000_000n,
      leader: randomBytes(32),
      transactionCount: counts.get('transactions') ?? 0,
      previousBlockhash: randomBytes(32),
      executedTransactionCount: BigInt(counts.get('transactions') ?? 0),
    },
    end: { counts: [...counts].map(([kind, count]) => ({ kind, partition: 0, count })) },
  });
  return [...data, { kind: 'slots', event: marker }];
}

/** The slot a record of these kinds belongs to (gap and epoch records belong to none). */
function ownSlot(kind: TopicKind, value: Buffer): bigint | undefined {
  if (kind === 'parsed') return ParsedTransactionEvent.decode(value).slot;
  const d = decodeRecord(kind, value);
  if (!d.ok) throw new Error(d.reason);
  const e = d.value;
  if (e.kind === 'epochs') return undefined;
  if (e.kind === 'slots') return e.event.gap === undefined ? e.event.slot : undefined;
  return e.event.slot;
}

type FramedKind = Exclude<TopicKind, 'deadletter' | 'epochs'>;
/** Every topic an end marker counts records of. */
export const FRAMED_KINDS: readonly FramedKind[] = ['transactions', 'accounts', 'slots', 'entries', 'parsed'];

export interface MarkerCheck {
  markers: number;
  /** Slots whose marker's counts differ from the partitions, with what differs. */
  wrong: string[];
  /** Records of a slot found after its marker on the same partition (status changes excepted). */
  late: string[];
}

/** For every end marker in the slots topic: the records of its slot before the marker, counted per
 * partition of each topic, equal its counts; no transaction, account write or entry of it comes later. */
export function checkMarkers(contents: TopicContents, topics: TopicNames, kinds: readonly FramedKind[] = FRAMED_KINDS): MarkerCheck {
  // slot -> kind:partition -> [count, offsets of the records]
  const seen = new Map<bigint, Map<string, bigint[]>>();
  for (const kind of kinds) {
    (contents.get(topics[kind]) ?? []).forEach((records, partition) => {
      for (const r of records) {
        const slot = ownSlot(kind, r.value);
        if (slot === undefined) continue;
        const d = kind === 'slots' ? decodeRecord(kind, r.value) : undefined;
        if (d?.ok && d.value.kind === 'slots' && d.value.event.end !== undefined) continue;
        let m = seen.get(slot);
        if (!m) seen.set(slot, (m = new Map()));
        const k = `${kind}:${partition}`;
        m.set(k, [...(m.get(k) ?? []), r.offset]);
      }
    });
  }
  const check: MarkerCheck = { markers: 0, wrong: [], late: [] };
  (contents.get(topics.slots) ?? []).forEach((records, partition) => {
    for (const r of records) {
      const d = decodeRecord('slots', r.value);
      if (!d.ok || d.value.kind !== 'slots' || d.value.event.end === undefined) continue;
      check.markers++;
      const slot = d.value.event.slot;
      const want = new Map(d.value.event.end.counts.map((c) => [`${c.kind}:${c.partition}`, c.count]));
      const got = seen.get(slot) ?? new Map<string, bigint[]>();
      for (const [k, offsets] of got) {
        // Status changes of the slot after its marker (confirmed, finalized, dead) are not its records.
        const before = k === `slots:${partition}` ? offsets.filter((o) => o < r.offset) : offsets;
        if (k === `slots:${partition}` && before.length < offsets.length) {
          const after = (contents.get(topics.slots)![partition] ?? []).filter(
            (x) => x.offset > r.offset && ownSlot('slots', x.value) === slot,
          );
          for (const x of after) {
            const e = decodeRecord('slots', x.value);
            const st = e.ok && e.value.kind === 'slots' ? e.value.event.status : -1;
            if (![SlotStatus.SLOT_STATUS_CONFIRMED, SlotStatus.SLOT_STATUS_FINALIZED, SlotStatus.SLOT_STATUS_DEAD].includes(st))
              check.late.push(`slot ${slot}: status ${st} after its marker`);
          }
        }
        if ((want.get(k) ?? 0) !== before.length)
          check.wrong.push(`slot ${slot} ${k}: marker says ${want.get(k) ?? 0}, partition holds ${before.length}`);
      }
      for (const [k, n] of want) if (!got.has(k)) check.wrong.push(`slot ${slot} ${k}: marker says ${n}, partition holds 0`);
    }
  });
  return check;
}

/** Events as the ingest frames them: each run of one slot's events handed to `framer` as that slot's only batch (its
 * parsed records, and its end marker when the run holds its PROCESSED record, follow its data). */
export function frameSlotRuns(framer: SlotFramer, events: readonly ChainEvent[]): FramedRecord[] {
  const out: FramedRecord[] = [];
  for (let i = 0; i < events.length;) {
    const slot = ownSlotOf(events[i]!);
    let j = i + 1;
    while (j < events.length && ownSlotOf(events[j]!) === slot) j++;
    out.push(...framer.frame({ slot: slot ?? 0n, events: events.slice(i, j), partial: false }));
    i = j;
  }
  return out;
}
