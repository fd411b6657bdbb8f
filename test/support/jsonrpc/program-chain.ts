// The chain of the provider-method tests (getProgramAccountsV2, getTokenAccountsByOwnerV2): a program with 1,200
// accounts written over slots 1..50 (two data sizes, rewrites, some closed to the system program, some reassigned
// to another program), a wallet with SPL Token and Token-2022 accounts (some closed, some of another wallet),
// every slot processed, confirmed and finalized at once. `extraSlots` adds writes after it (new accounts,
// rewrites, closures), for walks the chain moves under. `stateAt` folds the events independently of the views:
// the newest write of each pubkey at or below a slot, for the expected answers.
import bs58 from 'bs58';
import { AccountEvent, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { b58, keyOf, slotStatus } from '../projector/events.js';
import type { SlotBatch } from '../projector/chain.js';
import { mintData, tokenAccountData } from './chain.js';

export const PROGRAM = b58('gpa-program');
export const OTHER_PROGRAM = b58('gpa-other');
export const SYSTEM = '11111111111111111111111111111111';
export const WALLET = b58('gpa-wallet');
export const OTHER_WALLET = b58('gpa-wallet-2');
export const MINT = b58('gpa-mint'); // Token
export const MINT_22 = b58('gpa-mint-22'); // Token-2022
export const ACCOUNTS = 1200;
export const LAST = 50;

let writeVersion = 0;

/** A write of the account whose key is derived from `name` (events.ts keyOf), owned by the base-58 `owner`. */
function write(name: string, owner: string, slot: number, lamports: number, data: Buffer = Buffer.alloc(0)): ChainEvent {
  return {
    kind: 'accounts',
    event: AccountEvent.fromPartial({
      pubkey: keyOf(name),
      owner: Buffer.from(bs58.decode(owner)),
      slot: BigInt(slot),
      writeVersion: BigInt(++writeVersion),
      lamports: BigInt(lamports),
      data,
      rentEpoch: 18446744073709551615n,
      executable: false,
    }),
  };
}

export const programAccountName = (i: number): string => `pa-${i}`;
export const tokenAccountName = (i: number): string => `gta-${i}`;
export const pubkeyOf = (name: string): string => b58(name);

function programData(i: number, version: number): Buffer {
  const d = Buffer.alloc(i % 3 === 0 ? 16 : 8);
  d.writeUInt32LE(i, 0);
  d.writeUInt32LE(version, 4);
  return d;
}

function writesAt(slot: number): ChainEvent[] {
  const out: ChainEvent[] = [];
  if (slot === 1) {
    out.push(write('gpa-mint', TOKEN_PROGRAM, slot, 1_461_600, mintData(6, 1_000_000n)));
    out.push(write('gpa-mint-22', TOKEN_2022_PROGRAM, slot, 1_461_600, mintData(2, 5_000n)));
  }
  for (let i = 0; i < ACCOUNTS; i++) {
    if (slot === 1 + (i % 30)) out.push(write(programAccountName(i), PROGRAM, slot, 1_000_000 + i, programData(i, 0)));
    if (i % 7 === 0 && slot === 35 + (i % 5)) out.push(write(programAccountName(i), PROGRAM, slot, 2_000_000 + i, programData(i, 1)));
    if (i % 50 === 1 && slot === 45) out.push(write(programAccountName(i), SYSTEM, slot, 0)); // closed
    if (i % 50 === 2 && slot === 46) out.push(write(programAccountName(i), OTHER_PROGRAM, slot, 1_000_000 + i, programData(i, 2))); // reassigned
  }
  for (let i = 0; i < 160; i++) {
    const program = i < 130 ? TOKEN_PROGRAM : TOKEN_2022_PROGRAM;
    const mint = i < 130 ? MINT : MINT_22;
    const wallet = i % 17 === 5 ? OTHER_WALLET : WALLET;
    if (slot === 2 + (i % 40))
      out.push(write(tokenAccountName(i), program, slot, 2_039_280, tokenAccountData(mint, wallet, BigInt(i * 1000))));
    if (i % 30 === 0 && slot === 44) out.push(write(tokenAccountName(i), SYSTEM, slot, 0)); // closed
  }
  return out;
}

function slotEvents(slot: number, writes: ChainEvent[]): SlotBatch {
  const events: ChainEvent[] = [...writes];
  events.push({
    kind: 'slots',
    event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, { parent: slot - 1, height: slot, time: 1_700_000_000 + slot }),
  });
  events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_CONFIRMED) });
  events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_FINALIZED) });
  return { slot: BigInt(slot), events };
}

/** Slots 1..LAST. */
export function buildProgramChain(): SlotBatch[] {
  writeVersion = 0;
  const out: SlotBatch[] = [];
  for (let slot = 1; slot <= LAST; slot++) out.push(slotEvents(slot, writesAt(slot)));
  return out;
}

/**
 * Slot `slot` (after LAST): `fresh` new accounts under the program, a rewrite of every 11th account, and the
 * closure of every 97th (the accounts a walk may or may not see; every other account is there throughout).
 */
export function extraSlot(slot: number, fresh: number): { batch: SlotBatch; touched: Set<string> } {
  const writes: ChainEvent[] = [];
  const touched = new Set<string>();
  for (let j = 0; j < fresh; j++) {
    const name = `pa-new-${slot}-${j}`;
    writes.push(write(name, PROGRAM, slot, 3_000_000 + j, programData(j, 9)));
    touched.add(pubkeyOf(name));
  }
  for (let i = 0; i < ACCOUNTS; i += 11) writes.push(write(programAccountName(i), PROGRAM, slot, 4_000_000 + i, programData(i, slot)));
  for (let i = 3; i < ACCOUNTS; i += 97) {
    writes.push(write(programAccountName(i), SYSTEM, slot, 0));
    touched.add(pubkeyOf(programAccountName(i)));
  }
  return { batch: slotEvents(slot, writes), touched };
}

/** The owner of a write as a base-58 key. */
const ownerOf = (e: AccountEvent): string => bs58.encode(e.owner);

export interface AccountState {
  pubkey: string;
  owner: string;
  lamports: bigint;
  data: Buffer;
  slot: number;
}

/** The newest write of every pubkey at or below `slot`, folded from the events (independent of the views). */
export function stateAt(batches: readonly SlotBatch[], slot: number): Map<string, AccountState> {
  const state = new Map<string, AccountState & { wv: bigint }>();
  for (const b of batches) {
    for (const e of b.events) {
      if (e.kind !== 'accounts' || Number(e.event.slot) > slot) continue;
      const pubkey = bs58.encode(e.event.pubkey);
      const prev = state.get(pubkey);
      const s = Number(e.event.slot);
      if (prev !== undefined && (prev.slot > s || (prev.slot === s && prev.wv > e.event.writeVersion))) continue;
      state.set(pubkey, {
        pubkey,
        owner: ownerOf(e.event),
        lamports: e.event.lamports,
        data: e.event.data,
        slot: s,
        wv: e.event.writeVersion,
      });
    }
  }
  return state;
}

/** The open accounts of `owner` in a state, in pubkey byte order. */
export function openAccountsOf(state: ReadonlyMap<string, AccountState>, owner: string): AccountState[] {
  // Each pubkey decoded once, not at every comparison (a sort of ~1,150 accounts decoded ~25,000 times).
  return [...state.values()]
    .filter((a) => a.owner === owner && a.lamports > 0n)
    .map((a) => ({ a, bytes: Buffer.from(bs58.decode(a.pubkey)) }))
    .sort((x, y) => Buffer.compare(x.bytes, y.bytes))
    .map((x) => x.a);
}
