// The views computed straight from consumed events, independently of the projections (test code):
// what every view must hold once the projector caught up. Shapes match dumpViews (dump.ts).
import bs58 from 'bs58';
import { SlotStatus, type RecordEvent, type SlotEvent } from '../../../schemas/codec.js';

export interface ConsumedRecord {
  topic: string;
  partition: number;
  offset: bigint;
  event: RecordEvent;
}

export type ViewDump = Record<string, string[]>;

const enc = (b: Uint8Array): string => bs58.encode(b);
const nul = (v: unknown): string => (v === undefined || v === null ? 'null' : String(v));
const memoOf = (memos: string[]): string | null =>
  memos.length === 0 ? null : memos.map((m) => `[${new TextEncoder().encode(m).length}] ${m}`).join('; ');

/** Each commitment's head (highest slot at or past that status) from the slots' stored statuses. */
function headsOf(status: ReadonlyMap<bigint, number>): Record<string, bigint | undefined> {
  const heads: Record<string, bigint | undefined> = {};
  for (const [s, st] of status) {
    const levels: [string, boolean][] = [
      ['processed', st <= 2],
      ['confirmed', st === 1 || st === 2],
      ['finalized', st === 2],
    ];
    for (const [c, ok] of levels) if (ok && (heads[c] === undefined || s > heads[c])) heads[c] = s;
  }
  return heads;
}

/** Heads as dumpViews lists them: `commitment|slot`, sorted. */
const headRows = (heads: Record<string, bigint | undefined>): string[] =>
  Object.entries(heads)
    .filter(([, v]) => v !== undefined)
    .map(([c, v]) => `${c}|${v}`)
    .sort();

/** Folds a slot record into the slots' stored statuses, as the views rank them: a dead fork as 3 (no block on the
 * rooted chain); Yellowstone's progress statuses and gap records (5 and up) add no row. */
function foldStatus(status: Map<bigint, number>, s: SlotEvent): void {
  const stored = s.status === SlotStatus.SLOT_STATUS_DEAD ? 3 : s.status;
  if (stored <= 3) status.set(s.slot, Math.max(status.get(s.slot) ?? -1, stored));
}

/** expectedViews(records).heads alone, without building every other view (a long chain's views cost seconds). */
export function expectedHeads(records: readonly ConsumedRecord[]): string[] {
  const status = new Map<bigint, number>();
  for (const r of records) if (r.event.kind === 'slots') foldStatus(status, r.event.event);
  return headRows(headsOf(status));
}

export function expectedViews(records: readonly ConsumedRecord[], programs: readonly string[]): ViewDump {
  const out: ViewDump = {};
  const txs = new Set<string>();
  const sigs = new Set<string>();
  const blocks = new Set<string>();
  const status = new Map<bigint, number>();
  const epochs = new Set<string>();
  const offsets = new Map<string, { min: bigint; max: bigint }>();
  const writes: { pubkey: string; owner: string; slot: bigint; wv: bigint; lamports: bigint; data: string }[] = [];
  const blockList: { slot: bigint; time?: bigint; txs: number; votes: number }[] = [];
  for (const r of records) {
    const e = r.event;
    let slot: bigint;
    switch (e.kind) {
      case 'transactions': {
        const t = e.event;
        slot = t.slot;
        const sig = enc(t.signatures[0]!);
        const memo = memoOf(t.memos);
        txs.add([sig, t.slot, t.index, nul(t.err), nul(memo), nul(t.blockTime), t.isVote, t.fee].join('|'));
        for (const a of new Set([...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map(enc))) {
          sigs.add([a, t.slot, t.index, sig, nul(t.err), nul(memo), nul(t.blockTime)].join('|'));
        }
        break;
      }
      case 'slots': {
        const s = e.event;
        slot = s.slot;
        foldStatus(status, s);
        if (s.block) {
          const b = s.block;
          blocks.add(
            [
              s.slot,
              b.parentSlot,
              enc(b.blockhash),
              b.blockHeight,
              nul(b.blockTime),
              enc(b.leader),
              b.transactionCount,
              b.voteTransactionCount,
            ].join('|'),
          );
          blockList.push({ slot: s.slot, time: b.blockTime, txs: b.transactionCount, votes: b.voteTransactionCount });
        }
        break;
      }
      case 'accounts': {
        const a = e.event;
        slot = a.slot;
        writes.push({
          pubkey: enc(a.pubkey),
          owner: enc(a.owner),
          slot: a.slot,
          wv: a.writeVersion,
          lamports: a.lamports,
          data: a.data.toString('base64'),
        });
        break;
      }
      case 'entries':
      case 'parsed':
        slot = e.event.slot;
        break;
      case 'epochs': {
        const p = e.event;
        slot = p.firstSlot;
        epochs.add(
          [p.epoch, p.firstSlot, p.slotsPerEpoch, p.slotsPerLeader, p.identities.map(enc).join(','), p.schedule.join(',')].join('|'),
        );
        break;
      }
    }
    const k = `${r.topic}|${r.partition}|${slot}`;
    const o = offsets.get(k);
    if (!o) offsets.set(k, { min: r.offset, max: r.offset });
    else {
      if (r.offset < o.min) o.min = r.offset;
      if (r.offset > o.max) o.max = r.offset;
    }
  }
  out.transactions = [...txs].sort();
  out.signatures_by_address = [...sigs].sort();
  out.blocks = [...blocks].sort();
  out.slot_status = [...status].map(([s, st]) => `${s}|${st}`).sort();
  out.epochs = [...epochs].sort();
  out.slot_offsets = [...offsets].map(([k, v]) => `${k}|${v.min}|${v.max}`).sort();

  const heads = headsOf(status);
  out.heads = headRows(heads);

  for (const c of ['processed', 'confirmed', 'finalized']) {
    const h = heads[c];
    const latest = new Map<string, (typeof writes)[number]>();
    for (const w of writes) {
      if (h === undefined || w.slot > h) continue;
      const cur = latest.get(w.pubkey);
      if (!cur || w.slot > cur.slot || (w.slot === cur.slot && w.wv > cur.wv)) latest.set(w.pubkey, w);
    }
    const open = [...latest.values()].filter((w) => w.lamports > 0n);
    out[`accounts:${c}`] = open.map((w) => [w.owner, w.pubkey, w.lamports, w.data, w.slot].join('|')).sort();
    for (const p of programs) {
      out[`program:${p}:${c}`] = open
        .filter((w) => w.owner === p)
        .map((w) => w.pubkey)
        .sort();
    }
  }

  const windows = new Map<bigint, { max: bigint; min: bigint; txs: number; nonVote: number }>();
  for (const b of blockList) {
    if (b.time === undefined) continue;
    const w = (b.time / 60n) * 60n - (b.time < 0n && b.time % 60n !== 0n ? 60n : 0n);
    const cur = windows.get(w) ?? { max: b.slot, min: b.slot, txs: 0, nonVote: 0 };
    if (b.slot > cur.max) cur.max = b.slot;
    if (b.slot < cur.min) cur.min = b.slot;
    cur.txs += b.txs;
    cur.nonVote += b.txs - b.votes;
    windows.set(w, cur);
  }
  let prev: bigint | undefined;
  out.performance_samples = [...windows]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, v]) => {
      const n = v.max - (prev ?? v.min - 1n);
      prev = v.max;
      return [v.max, n, v.txs, v.nonVote].join('|');
    });
  return out;
}
