// The chain of the read-method integration tests, as events (what the ingest publishes): slots 100..140
// with skipped slots and a lost fork, heads at three commitments, transactions (one failing) in every
// block, and accounts a wallet holds: SOL that changes between commitments, SPL Token and Token-2022
// mints and token accounts (one closed, one handed to the wallet late, wrapped SOL, one whose mint does
// not exist), a big account and lamports past 2^53. `projectInto` stores it through the projector's own
// projections, for tests that need no broker.
import bs58 from 'bs58';
import type { ClickHouseClient } from '@clickhouse/client';
import { AccountEvent, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { NATIVE_MINT, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { project } from '../../../projector/projections/index.js';
import { VIEW_COLUMNS, VIEW_TABLES, emptyRows, appendRows } from '../../../projector/projections/rows.js';
import { tabSeparatedRows } from '../../../projector/tsv.js';
import { insertTabSeparated } from '../../../platform/clickhouse.js';
import { b58, keyOf, slotStatus, tx } from '../projector/events.js';
import type { SlotBatch } from '../projector/chain.js';
import { setHeads } from './store.js';

export const FIRST = 100;
export const LAST = 140;
export const SKIPPED = [105, 111];
/** Produced, then its fork lost: a block row and a skipped status. */
export const FORKED = 125;
export const HEADS = { finalized: 120, confirmed: 130, processed: 140 } as const;
export const NO_TIME_SLOT = 115;
export const blockTimeOf = (slot: number): number => 1_700_000_000 + Math.floor(slot * 0.4);

export const WALLET = b58('wallet-1');
export const WALLET_2 = b58('wallet-2');
export const PROGRAM = b58('some-program');
export const MINT_1 = b58('mint-1'); // Token, 6 decimals
export const MINT_2 = b58('mint-2'); // Token-2022, 2 decimals, with an extension
export const MINT_MISSING = b58('mint-missing');
export const ACC = {
  wallet: WALLET,
  ta1: b58('ta-1'), // Token, MINT_1, 1.5 then (processed only) 2.5
  ta2: b58('ta-2'), // Token-2022, MINT_2, 0.42, extensions
  ta3: b58('ta-3'), // Token, MINT_1, closed at 127 (gone at confirmed)
  ta4: b58('ta-4'), // Token, MINT_1, wallet 2's until 133 (then wallet 1's, processed only)
  ta5: b58('ta-5'), // wrapped SOL
  ta6: b58('ta-6'), // Token, a mint that does not exist
  big: b58('big-account'), // 300 bytes, lamports past 2^53
};
export const BIG_LAMPORTS = 2n ** 60n + 3n;

/** Signatures: `sigOf(slot, i)`; i = 1 fails. */
export const sigOf = (slot: number, i: number): string => b58(`sig-${slot}-${i}`, 64);
export const TX_ERR = '{"InstructionError":[0,{"Custom":6001}]}';

const key = (label: string): Buffer => keyOf(label);
const raw = (base58: string): Buffer => Buffer.from(bs58.decode(base58));

export function tokenAccountData(mint: string, owner: string, amount: bigint, o: { native?: bigint; extensions?: Buffer } = {}): Buffer {
  const d = Buffer.alloc(165);
  raw(mint).copy(d, 0);
  raw(owner).copy(d, 32);
  d.writeBigUInt64LE(amount, 64);
  d[108] = 1;
  if (o.native !== undefined) {
    d.writeUInt32LE(1, 109);
    d.writeBigUInt64LE(o.native, 113);
  }
  if (o.extensions === undefined) return d;
  return Buffer.concat([d, Buffer.from([2]), o.extensions]);
}

export function mintData(decimals: number, supply: bigint, extensions?: Buffer): Buffer {
  const d = Buffer.alloc(82);
  d.writeUInt32LE(1, 0);
  key('mint-authority').copy(d, 4);
  d.writeBigUInt64LE(supply, 36);
  d[44] = decimals;
  d[45] = 1;
  if (extensions === undefined) return d;
  return Buffer.concat([d, Buffer.alloc(83), Buffer.from([1]), extensions]);
}

const tlv = (type: number, value: Buffer): Buffer => {
  const h = Buffer.alloc(4);
  h.writeUInt16LE(type, 0);
  h.writeUInt16LE(value.length, 2);
  return Buffer.concat([h, value]);
};
const u64le = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};

let writeVersion = 0;
function write(pubkey: string, owner: string, slot: number, lamports: bigint, data: Buffer = Buffer.alloc(0)): ChainEvent {
  return {
    kind: 'accounts',
    event: AccountEvent.fromPartial({
      pubkey: raw(pubkey),
      owner: raw(owner),
      slot: BigInt(slot),
      writeVersion: BigInt(++writeVersion),
      lamports,
      data,
      rentEpoch: 18446744073709551615n,
      executable: false,
    }),
  };
}

const SYSTEM = '11111111111111111111111111111111';
const RENT = 2_039_280n;

/** Account writes per slot. */
function writesAt(slot: number): ChainEvent[] {
  switch (slot) {
    case 100:
      return [
        write(MINT_1, TOKEN_PROGRAM, slot, 1_461_600n, mintData(6, 1_000_000_000n)),
        write(MINT_2, TOKEN_2022_PROGRAM, slot, 1_461_600n, mintData(2, 5000n, tlv(3, key('close-authority')))),
        write(WALLET, SYSTEM, slot, 5_000_000_000n),
      ];
    case 102:
      return [write(ACC.ta1, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_1, WALLET, 1_500_000n))];
    case 103:
      return [
        write(
          ACC.ta2,
          TOKEN_2022_PROGRAM,
          slot,
          RENT,
          tokenAccountData(MINT_2, WALLET, 42n, {
            extensions: Buffer.concat([tlv(7, Buffer.alloc(0)), tlv(2, u64le(3n))]),
          }),
        ),
      ];
    case 104:
      return [write(ACC.ta3, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_1, WALLET, 7n))];
    case 106:
      return [write(ACC.ta4, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_1, WALLET_2, 9n))];
    case 107:
      return [write(ACC.ta5, TOKEN_PROGRAM, slot, RENT + 1_000_000n, tokenAccountData(NATIVE_MINT, WALLET, 1_000_000n, { native: RENT }))];
    case 108:
      return [
        write(ACC.ta6, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_MISSING, WALLET, 1n)),
        write(ACC.big, PROGRAM, slot, BIG_LAMPORTS, Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256))),
      ];
    case 127:
      return [write(ACC.ta3, TOKEN_PROGRAM, slot, 0n)];
    case 128:
      return [write(WALLET, SYSTEM, slot, 4_000_000_000n)];
    case 133:
      return [write(ACC.ta4, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_1, WALLET, 9n))];
    case 135:
      return [write(ACC.ta1, TOKEN_PROGRAM, slot, RENT, tokenAccountData(MINT_1, WALLET, 2_500_000n))];
    case 138:
      return [write(WALLET, SYSTEM, slot, 3_000_000_000n)];
    default:
      return [];
  }
}

/** Block heights count produced blocks from 90 at slot 100 (the forked block took a height too). */
export function heightOf(slot: number): number {
  let h = 89;
  for (let s = FIRST; s <= slot; s++) if (!SKIPPED.includes(s)) h++;
  return h;
}

/** The chain, one batch per slot; within a slot its transactions and writes come before its block record. */
export function buildChain(): SlotBatch[] {
  writeVersion = 0;
  const batches: SlotBatch[] = [];
  for (let slot = FIRST; slot <= LAST; slot++) {
    const events: ChainEvent[] = [];
    if (SKIPPED.includes(slot)) {
      events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_SKIPPED) });
    } else {
      for (let i = 0; i < 2; i++) {
        events.push({
          kind: 'transactions',
          event: tx({
            slot,
            index: i,
            sig: `sig-${slot}-${i}`,
            keys: ['wallet-1', 'some-program'],
            err: i === 1 ? TX_ERR : undefined,
            blockTime: slot === NO_TIME_SLOT ? undefined : blockTimeOf(slot),
          }),
        });
      }
      events.push(...writesAt(slot));
      events.push({
        kind: 'slots',
        event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, {
          parent: slot - 1,
          height: heightOf(slot),
          time: slot === NO_TIME_SLOT ? undefined : blockTimeOf(slot),
          txs: 2,
        }),
      });
      if (slot === FORKED + 1) events.push({ kind: 'slots', event: slotStatus(FORKED, SlotStatus.SLOT_STATUS_SKIPPED) });
    }
    for (const [head, status] of [
      [HEADS.confirmed, SlotStatus.SLOT_STATUS_CONFIRMED],
      [HEADS.finalized, SlotStatus.SLOT_STATUS_FINALIZED],
    ] as const) {
      // Commitments trail the tip and stop at their heads, so each commitment answers differently.
      const s = slot - (LAST - head);
      if (s >= FIRST && !SKIPPED.includes(s) && s !== FORKED) events.push({ kind: 'slots', event: slotStatus(s, status) });
    }
    batches.push({ slot: BigInt(slot), events });
  }
  return batches;
}

/** Stores the chain as the projector would (its projections, its columns, its TabSeparated bodies: records are
 * bytes), with the heads it would reach. */
export async function projectInto(
  ch: ClickHouseClient,
  db: string,
  batches: readonly SlotBatch[],
  heads: Partial<Record<'processed' | 'confirmed' | 'finalized', number>> = HEADS,
): Promise<void> {
  const rows = emptyRows();
  for (const b of batches) {
    for (const e of b.events) {
      const p = project(e);
      if (!p.ok) throw new Error(p.reason);
      appendRows(rows, p.rows);
    }
  }
  for (const t of VIEW_TABLES) {
    if (rows[t].length === 0) continue;
    await insertTabSeparated(ch, { table: `${db}.${t}`, columns: VIEW_COLUMNS[t], body: tabSeparatedRows(t, rows[t] as never[]) });
  }
  await setHeads(ch, db, heads);
}
