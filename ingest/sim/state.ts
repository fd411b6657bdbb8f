// The simulated chain's bank and actors: programs, validators, users, an exchange hot wallet (the
// source of SOL for users who run low), SPL mints, pump.fun's global state and coins, and one
// address lookup table. `createGenesis` builds the starting state; everything is derived from the seed.
import { Acct, World } from './accounts.js';
import type { LookupTable } from './compile.js';
import type { Programs } from './instructions.js';
import { deriveKeypair } from './keys.js';
import {
  lastWithdrawData,
  LAST_WITHDRAW_LEN,
  lookupTableData,
  mintData,
  MINT_LEN,
  pumpGlobalData,
  PUMP_GLOBAL_LEN,
  tokenAccountData,
  TOKEN_ACCOUNT_LEN,
  voteStateData,
  VOTE_STATE_LEN,
  type GlobalParams,
} from './layouts.js';
import { associatedTokenAddress, lastWithdrawAddress } from './pda.js';
import * as P from './programs.js';
import { rngFor, type Rng } from './rng.js';
import { validatorStakes } from './validators.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;
const GENESIS_USERS = 1000;
const SYSVAR_OWNER = P.pk('Sysvar1111111111111111111111111111111111111');

export interface Validator {
  identity: Acct;
  vote: Acct;
  stake: number;
}

export interface User {
  acct: Acct;
  /** Token accounts this user owns, by mint. */
  tokens: Map<Acct, Acct>;
}

export interface StableMint {
  mint: Acct;
  decimals: number;
}

export interface Coin {
  mint: Acct;
  curve: Acct;
  curveAta: Acct;
  creator: User;
  /** Slot at which real token reserves reached 0. */
  completedAt?: number;
  withdrawn: boolean;
  /** Some users who bought it (repeat buyers need no new token account). */
  holders: User[];
}

export interface Position {
  user: User;
  coin: Coin;
  ata: Acct;
}

export class SimState {
  readonly world = new World();
  readonly programs: Programs;
  readonly validators: Validator[] = [];
  readonly users: User[] = [];
  readonly stableMints: StableMint[] = [];
  readonly coins: Coin[] = [];
  /** Coins whose curve has not completed, oldest first. */
  readonly openCoins: Coin[] = [];
  /** The most recently completed coins. */
  readonly completedCoins: Coin[] = [];
  readonly positions: Position[] = [];
  /** Token accounts already in `positions`. */
  readonly positionAtas = new Set<Acct>();
  readonly pendingWithdraw: Coin[] = [];
  exchange!: User;
  pumpAuthority!: User;
  feeRecipient!: Acct;
  pumpGlobal!: Acct;
  globalParams!: GlobalParams;
  lastWithdraw!: Acct;
  table!: LookupTable;
  /** Accounts in the order genesis created them (the startup snapshot). */
  readonly genesisOrder: Acct[] = [];
  mintCounter = 0;
  voteCursor = 0;

  constructor(
    readonly seed: number,
    readonly rng: Rng,
  ) {
    const prog = (key: Buffer, owner: Buffer): Acct => {
      const a = this.world.at(key);
      a.lamports = 1_141_440n;
      a.owner = owner;
      a.executable = true;
      this.genesisOrder.push(a);
      return a;
    };
    this.programs = {
      system: prog(P.SYSTEM_PROGRAM, P.NATIVE_LOADER),
      vote: prog(P.VOTE_PROGRAM, P.NATIVE_LOADER),
      computeBudget: prog(P.COMPUTE_BUDGET_PROGRAM, P.NATIVE_LOADER),
      token: prog(P.TOKEN_PROGRAM, P.BPF_LOADER_2),
      ata: prog(P.ATA_PROGRAM, P.BPF_LOADER_2),
      memo: prog(P.MEMO_PROGRAM, P.BPF_LOADER_2),
      pump: prog(P.PUMP_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      metadata: prog(P.METADATA_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      rent: this.sysvar(P.SYSVAR_RENT, 17),
      clock: this.sysvar(P.SYSVAR_CLOCK, 40),
      slotHashes: this.sysvar(P.SYSVAR_SLOT_HASHES, 8),
    };
    prog(P.LOOKUP_TABLE_PROGRAM, P.NATIVE_LOADER);
  }

  private sysvar(key: Buffer, len: number): Acct {
    const a = this.world.at(key);
    a.lamports = P.rentExempt(len);
    a.owner = SYSVAR_OWNER;
    a.data = Buffer.alloc(len);
    this.genesisOrder.push(a);
    return a;
  }

  /** A keyed account for (role, index), created in the bank with `lamports`. */
  keyed(role: string, index: number, lamports: bigint): Acct {
    const kp = deriveKeypair(this.seed, role, index);
    const a = this.world.at(kp.publicKey);
    a.privateKey = kp.privateKey;
    a.lamports = lamports;
    return a;
  }

  /** A new user (its system account does not exist until someone funds it). */
  newUser(): User {
    const u: User = { acct: this.keyed('user', this.users.length, 0n), tokens: new Map() };
    this.users.push(u);
    return u;
  }

  /** The user's associated token account for `mint` (an empty Acct until created). */
  ataOf(user: User, mint: Acct): Acct {
    let ata = user.tokens.get(mint);
    if (!ata) {
      ata = this.world.at(associatedTokenAddress(user.acct.key, mint.key));
      user.tokens.set(mint, ata);
    }
    return ata;
  }

  /** SOL a user can spend while keeping a rent-exempt balance and fees for a few transactions. */
  spendable(u: User): bigint {
    const floor = 10_000_000n;
    return u.acct.lamports > floor ? u.acct.lamports - floor : 0n;
  }
}

function genesisValidators(s: SimState, count: number): void {
  const stakes = validatorStakes(s.seed, count);
  stakes.forEach((stake, i) => {
    const identity = s.keyed('identity', i, 1000n * LAMPORTS_PER_SOL);
    const vote = s.world.at(deriveKeypair(s.seed, 'vote', i).publicKey);
    vote.lamports = P.rentExempt(VOTE_STATE_LEN) + LAMPORTS_PER_SOL;
    vote.owner = P.VOTE_PROGRAM;
    vote.data = voteStateData(identity.key, identity.key, 5 + (i % 6));
    s.genesisOrder.push(identity, vote);
    s.validators.push({ identity, vote, stake });
  });
}

function genesisPump(s: SimState): void {
  s.pumpAuthority = { acct: s.keyed('pump-authority', 0, 50n * LAMPORTS_PER_SOL), tokens: new Map() };
  s.feeRecipient = s.keyed('pump-fee-recipient', 0, LAMPORTS_PER_SOL);
  s.globalParams = {
    authority: s.pumpAuthority.acct.key,
    feeRecipient: s.feeRecipient.key,
    initialVirtualTokenReserves: 1_073_000_000_000_000n,
    initialVirtualSolReserves: 30_000_000_000n,
    initialRealTokenReserves: 793_100_000_000_000n,
    tokenTotalSupply: 1_000_000_000_000_000n,
    feeBasisPoints: 100n,
  };
  // The fixed mainnet Global address holds the state (no keypair needed: it is only ever read/written).
  s.pumpGlobal = s.world.at(P.PUMP_GLOBAL);
  s.pumpGlobal.lamports = P.rentExempt(PUMP_GLOBAL_LEN);
  s.pumpGlobal.owner = P.PUMP_PROGRAM;
  s.pumpGlobal.data = pumpGlobalData(s.globalParams);
  s.lastWithdraw = s.world.at(lastWithdrawAddress());
  s.lastWithdraw.lamports = P.rentExempt(LAST_WITHDRAW_LEN);
  s.lastWithdraw.owner = P.PUMP_PROGRAM;
  s.lastWithdraw.data = lastWithdrawData(0n);
  s.genesisOrder.push(s.pumpAuthority.acct, s.feeRecipient, s.pumpGlobal, s.lastWithdraw);
}

function genesisUsersAndTokens(s: SimState): void {
  s.exchange = { acct: s.keyed('exchange', 0, 10_000_000n * LAMPORTS_PER_SOL), tokens: new Map() };
  s.genesisOrder.push(s.exchange.acct);
  const mints = [6, 5].map((decimals, i) => {
    const mint = s.keyed('stable-mint', i, P.rentExempt(MINT_LEN));
    mint.owner = P.TOKEN_PROGRAM;
    return { mint, decimals };
  });
  s.stableMints.push(...mints);
  const supply = mints.map(() => 0n);
  const tokenAccounts: Acct[] = [];
  for (let i = 0; i < GENESIS_USERS; i++) {
    const u = s.newUser();
    u.acct.lamports = BigInt(s.rng.range(1, 200)) * LAMPORTS_PER_SOL + BigInt(s.rng.int(1_000_000_000));
    s.genesisOrder.push(u.acct);
    mints.forEach((m, mi) => {
      if (!s.rng.chance(0.6)) return;
      const ata = s.ataOf(u, m.mint);
      const amount = BigInt(s.rng.range(1, 50_000)) * 10n ** BigInt(m.decimals);
      ata.lamports = P.rentExempt(TOKEN_ACCOUNT_LEN);
      ata.owner = P.TOKEN_PROGRAM;
      ata.data = tokenAccountData(m.mint.key, u.acct.key, amount);
      supply[mi]! += amount;
      tokenAccounts.push(ata);
    });
  }
  mints.forEach((m, i) => {
    m.mint.data = mintData(s.exchange.acct.key, supply[i]!, m.decimals);
    s.genesisOrder.push(m.mint);
  });
  s.genesisOrder.push(...tokenAccounts);
}

function genesisLookupTable(s: SimState): void {
  const entries = [
    s.pumpGlobal,
    s.feeRecipient,
    s.world.at(P.PUMP_EVENT_AUTHORITY),
    s.world.at(P.PUMP_MINT_AUTHORITY),
    s.programs.system,
    s.programs.token,
    s.programs.ata,
    s.programs.rent,
    s.programs.metadata,
    ...s.stableMints.map((m) => m.mint),
  ];
  const acct = s.keyed('lookup-table', 0, 0n);
  acct.privateKey = undefined; // a table address is derived, never a signer
  acct.owner = P.LOOKUP_TABLE_PROGRAM;
  acct.data = lookupTableData(s.exchange.acct.key, entries.map((e) => e.key));
  acct.lamports = P.rentExempt(acct.data.length);
  s.table = { acct, index: new Map(entries.map((e, i) => [e, i])) };
  s.genesisOrder.push(acct);
}

export function createGenesis(seed: number, validators: number): SimState {
  const s = new SimState(seed, rngFor(seed, 'chain'));
  genesisValidators(s, validators);
  genesisPump(s);
  genesisUsersAndTokens(s);
  genesisLookupTable(s);
  return s;
}
