// The chain of the as-of-slot test (api/jsonrpc/as-of.int.test.ts) and its independent reconstruction.
// Slots FIRST..LAST, one block each: `hot` written in most slots (twice in some, the later write version
// winning), accounts created late, closed and reopened, moved to another program and back, a mint and token
// accounts of a wallet whose amounts change, one closed and one handed to another wallet. `foldWrites` is the
// test's own reading of the accounts topic: the state of a pubkey at slot S is its write with the greatest
// (slot, write version) at or below S, none when that write has 0 lamports. It knows nothing of the views.
import bs58 from 'bs58';
import { AccountEvent, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { b58, slotStatus } from '../projector/events.js';
import type { SlotBatch } from '../projector/chain.js';
import { mintData, tokenAccountData } from './chain.js';

export const FIRST = 10;
export const LAST = 40;
export const PROGRAM = b58('as-of-program');
export const OTHER_PROGRAM = b58('as-of-other-program');
export const WALLET = b58('as-of-wallet');
export const WALLET_2 = b58('as-of-wallet-2');
export const MINT = b58('as-of-mint');
export const MINT_DECIMALS = 6;
/** Accounts of PROGRAM (some for a while only). */
export const ACC = {
  hot: b58('as-of-hot'),
  other: b58('as-of-other'),
  closer: b58('as-of-closer'),
  late: b58('as-of-late'),
  mover: b58('as-of-mover'),
};
/** Token accounts of MINT (wallet WALLET unless said). */
export const TOKEN_ACC = {
  ta1: b58('as-of-ta-1'), // amount changes every other slot
  ta2: b58('as-of-ta-2'), // created at 14, closed at 27
  ta3: b58('as-of-ta-3'), // handed to WALLET_2 at 26
};
export const ALL_ACCOUNTS = [...Object.values(ACC), ...Object.values(TOKEN_ACC), MINT];

type Write = { pubkey: string; owner: string; lamports: bigint; data: Buffer };

const program = (pubkey: string, slot: number, lamports: number, tag = ''): Write => ({
  pubkey,
  owner: PROGRAM,
  lamports: BigInt(lamports),
  data: lamports === 0 ? Buffer.alloc(0) : Buffer.from(`${pubkey.slice(0, 6)}@${slot}${tag}`),
});
const closed = (pubkey: string, owner: string): Write => ({ pubkey, owner, lamports: 0n, data: Buffer.alloc(0) });
const token = (pubkey: string, wallet: string, amount: bigint): Write => ({
  pubkey,
  owner: TOKEN_PROGRAM,
  lamports: 2_039_280n,
  data: tokenAccountData(MINT, wallet, amount),
});

/** The writes of one slot, in write order. */
function writesOf(slot: number): Write[] {
  const w: Write[] = [];
  if (slot % 4 !== 3) w.push(program(ACC.hot, slot, 1000 + slot * 7));
  if (slot % 5 === 0) w.push(program(ACC.hot, slot, 5000 + slot * 11, '-second')); // same slot, later version
  if ([10, 17, 29].includes(slot)) w.push(program(ACC.other, slot, 300 + slot));
  if (slot === 12 || slot === 21) w.push(program(ACC.closer, slot, 2000 + slot));
  if (slot === 16 || slot === 33) w.push(closed(ACC.closer, PROGRAM));
  if (slot === 30) w.push(program(ACC.late, slot, 777));
  if (slot === 10 || slot === 35) w.push(program(ACC.mover, slot, 4000 + slot));
  if (slot === 22) w.push({ ...program(ACC.mover, slot, 4022), owner: OTHER_PROGRAM });
  if (slot === 10 || slot === 24)
    w.push({ pubkey: MINT, owner: TOKEN_PROGRAM, lamports: 1_461_600n, data: mintData(MINT_DECIMALS, BigInt(slot) * 1000n) });
  if (slot >= 11 && slot % 2 === 1) w.push(token(TOKEN_ACC.ta1, WALLET, BigInt(slot) * 1_250_000n));
  if (slot === 14 || slot === 20) w.push(token(TOKEN_ACC.ta2, WALLET, BigInt(slot)));
  if (slot === 27) w.push(closed(TOKEN_ACC.ta2, TOKEN_PROGRAM));
  if (slot === 13) w.push(token(TOKEN_ACC.ta3, WALLET, 42n));
  if (slot === 26) w.push(token(TOKEN_ACC.ta3, WALLET_2, 42n));
  return w;
}

let writeVersion = 0;
let height = 0;

/** Produced slots from..to (parent = slot - 1), at processed, with their account writes. */
export function slots(from: number, to: number): SlotBatch[] {
  const out: SlotBatch[] = [];
  for (let slot = from; slot <= to; slot++) {
    const events: ChainEvent[] = [
      { kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, { parent: slot - 1, height: ++height }) },
      ...writesOf(slot).map((w): ChainEvent => ({
        kind: 'accounts',
        event: AccountEvent.fromPartial({
          pubkey: Buffer.from(bs58.decode(w.pubkey)),
          owner: Buffer.from(bs58.decode(w.owner)),
          slot: BigInt(slot),
          writeVersion: BigInt(++writeVersion),
          lamports: w.lamports,
          data: w.data,
          rentEpoch: 18446744073709551615n,
          executable: false,
        }),
      })),
    ];
    out.push({ slot: BigInt(slot), events });
  }
  return out;
}

/** One slot's status record on its own (confirmed or finalized). */
export const statusOf = (slot: number, status: SlotStatus): SlotBatch => ({
  slot: BigInt(slot),
  events: [{ kind: 'slots', event: slotStatus(slot, status) }],
});

/** An account as the fold sees it. */
export interface FoldedAccount {
  owner: string;
  lamports: bigint;
  data: Buffer;
}

/** The state of every account at any slot, from the account events as read back from Kafka. */
export class FoldedWrites {
  private readonly byKey = new Map<string, AccountEvent[]>();

  constructor(events: Iterable<AccountEvent>) {
    for (const e of events) {
      const k = bs58.encode(e.pubkey);
      const list = this.byKey.get(k) ?? [];
      list.push(e);
      this.byKey.set(k, list);
    }
    for (const list of this.byKey.values()) {
      list.sort((a, b) => (a.slot !== b.slot ? (a.slot < b.slot ? -1 : 1) : a.writeVersion < b.writeVersion ? -1 : 1));
    }
  }

  /** Pubkeys with at least one write. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** The account at `slot`, undefined when it has no write yet or its newest write closed it. */
  at(pubkey: string, slot: number): FoldedAccount | undefined {
    let last: AccountEvent | undefined;
    for (const e of this.byKey.get(pubkey) ?? []) if (e.slot <= BigInt(slot)) last = e;
    if (last === undefined || last.lamports === 0n) return undefined;
    return { owner: bs58.encode(last.owner), lamports: last.lamports, data: Buffer.from(last.data) };
  }

  /** Accounts owned by `owner` at `slot`, sorted by pubkey bytes (Agave's getProgramAccounts order here). */
  ownedBy(owner: string, slot: number): string[] {
    return this.keys()
      .filter((k) => this.at(k, slot)?.owner === owner)
      .sort((a, b) => Buffer.compare(Buffer.from(bs58.decode(a)), Buffer.from(bs58.decode(b))));
  }

  /** Token accounts of `mint` held by `wallet` at `slot` (bytes 0..32 the mint, 32..64 the wallet, initialized). */
  tokenAccounts(wallet: string, mint: string, slot: number): string[] {
    return this.ownedBy(TOKEN_PROGRAM, slot).filter((k) => {
      const d = this.at(k, slot)!.data;
      return d.length === 165 && d[108] !== 0 && bs58.encode(d.subarray(0, 32)) === mint && bs58.encode(d.subarray(32, 64)) === wallet;
    });
  }
}
