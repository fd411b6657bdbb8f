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
  ammGlobalConfigData,
  type AmmFees,
  type GlobalParams,
} from './layouts.js';
import {
  ammGlobalConfigAddress,
  ammGlobalVolumeAccumulatorAddress,
  ammUserVolumeAccumulatorAddress,
  associatedTokenAddress,
  feeConfigAddress,
  lastWithdrawAddress,
  mayhemGlobalParamsAddress,
  mayhemSolVaultAddress,
  pumpGlobalVolumeAccumulatorAddress,
  pumpUserVolumeAccumulatorAddress,
} from './pda.js';
import * as P from './programs.js';
import { rngFor, type Rng } from './rng.js';
import { validatorStakes } from './validators.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;
const GENESIS_USERS = 1000;
const SYSVAR_OWNER = P.pk('Sysvar1111111111111111111111111111111111111');
/** USDC's mainnet mint (the quote of USDC-quoted pump coins, pump-2026-10.md §4). */
const USDC_MINT = P.pk('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');

export interface Validator {
  identity: Acct;
  vote: Acct;
  stake: number;
}

export interface User {
  acct: Acct;
  /** Token accounts this user owns, by mint. */
  tokens: Map<Acct, Acct>;
  /** The user's PDAs in today's pump.fun / PumpSwap account lists, derived on first trade. */
  pump?: UserPumpAccounts;
}

/** Each derived on first use: a PDA search costs tens of microseconds, and most users need one or two. */
export class UserPumpAccounts {
  private volume_?: Acct;
  private volumeWsol_?: Acct;
  private ammVolume_?: Acct;
  private wsol_?: Acct;

  constructor(
    private readonly s: SimState,
    private readonly u: User,
  ) {}

  /** pump's user_volume_accumulator PDA. */
  get volume(): Acct {
    return (this.volume_ ??= this.s.world.at(pumpUserVolumeAccumulatorAddress(this.u.acct.key)));
  }

  /** Its wrapped SOL account (named by the v2 instructions). */
  get volumeWsol(): Acct {
    return (this.volumeWsol_ ??= this.s.world.at(associatedTokenAddress(this.volume.key, P.NATIVE_MINT)));
  }

  /** PumpSwap's user_volume_accumulator PDA. */
  get ammVolume(): Acct {
    return (this.ammVolume_ ??= this.s.world.at(ammUserVolumeAccumulatorAddress(this.u.acct.key)));
  }

  /** The user's wrapped SOL account. */
  get wsol(): Acct {
    return (this.wsol_ ??= this.s.ataOf(this.u, this.s.nativeMint));
  }
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
  /** pump's `creator-vault` PDA of the creator: where creator fees collect. */
  creatorVault: Acct;
  /** Slot at which real token reserves reached 0. */
  completedAt?: number;
  /** The PumpSwap pool it migrated to. */
  pool?: Pool;
  /** Some users who bought it (repeat buyers need no new token account). */
  holders: User[];
  /** A coin quoted in USDC or in another pump coin (pump-2026-10.md §4); absent: SOL. */
  quote?: CoinQuote;
}

/** A non-SOL quote: its mint, the curve's token account for it, and (pump-coin quote) the quote coin. */
export interface CoinQuote {
  mint: Acct;
  curveAta: Acct;
  /** The pump coin the curve is quoted in (depth 1), or undefined for USDC. */
  coin?: Coin;
}

/** A PumpSwap pool (a migrated coin's canonical pool, quoted in wrapped SOL). */
export interface Pool {
  coin: Coin;
  acct: Acct;
  bump: number;
  authority: Acct;
  lpMint: Acct;
  baseAta: Acct;
  quoteAta: Acct;
  /** PumpSwap's `creator_vault` PDA of the coin's creator and its wrapped SOL account (creator fees). */
  creatorVaultAuthority: Acct;
  creatorVaultAta: Acct;
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
  /** Completed curves waiting for pump's migrator. */
  readonly pendingMigrate: Coin[] = [];
  /** The most recent PumpSwap pools (the ones that trade). */
  readonly pools: Pool[] = [];
  /** Curves and pools holding fees that v3 / v2 trades kept, waiting for a sweep (October 2026; bounded). */
  readonly feeCurves: Coin[] = [];
  readonly feePools: Pool[] = [];
  /** Open curves quoted in USDC, and in another pump coin (traded with v3 / through multi-hop routes; bounded). */
  readonly usdcCoins: Coin[] = [];
  readonly coinQuotedCoins: Coin[] = [];
  exchange!: User;
  pumpAuthority!: User;
  feeRecipient!: Acct;
  pumpGlobal!: Acct;
  globalParams!: GlobalParams;
  lastWithdraw!: Acct;
  /** Today's pump accounts every trade names (fixed addresses or program-wide PDAs). */
  pumpFixed!: PumpFixed;
  amm!: AmmState;
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
      pumpAmm: prog(P.PUMP_AMM_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      pumpFee: prog(P.PUMP_FEE_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      mayhem: prog(P.PUMP_MAYHEM_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      router: prog(P.SIM_ROUTER_PROGRAM, P.BPF_LOADER_UPGRADEABLE),
      token2022: prog(P.TOKEN_2022_PROGRAM, P.BPF_LOADER_2),
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

  /** The user's pump PDAs and wrapped SOL account (each derived once: PDA search is the simulator's top cost). */
  pumpAccountsOf(u: User): UserPumpAccounts {
    return (u.pump ??= new UserPumpAccounts(this, u));
  }

  get nativeMint(): Acct {
    return this.pumpFixed.nativeMint;
  }

  /** USDC at its mainnet address: the genesis stable mint of 6 decimals. */
  get usdc(): Acct {
    return this.stableMints[0]!.mint;
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

/** Accounts of today's pump.fun account lists that every trade names. */
export interface PumpFixed {
  nativeMint: Acct;
  feeRecipientWsol: Acct;
  buybackFeeRecipient: Acct;
  buybackFeeRecipientWsol: Acct;
  globalVolumeAccumulator: Acct;
  feeConfig: Acct;
  mayhemGlobalParams: Acct;
  mayhemSolVault: Acct;
  /** Receives the pool migration fee (Global's withdraw_authority). */
  withdrawAuthority: Acct;
  routerFeeRecipient: Acct;
  /** pump's `__event_authority` PDA (signs its event self-CPIs). */
  eventAuthority: Acct;
}

/** PumpSwap: its global config, fees and protocol fee recipient. */
export interface AmmState {
  globalConfig: Acct;
  eventAuthority: Acct;
  fees: AmmFees;
  protocolFeeRecipient: Acct;
  protocolFeeRecipientWsol: Acct;
  globalVolumeAccumulator: Acct;
  feeConfig: Acct;
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
    // Today's fees on a young curve (record 23 of ../shared/data/mainnet/pump: 95 + 30 basis points).
    feeBasisPoints: 95n,
    creatorFeeBasisPoints: 30n,
    // What the migration leaves the withdraw authority (record 15: 15,000,001 lamports).
    poolMigrationFee: 15_000_001n,
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
  genesisPumpToday(s);
}

/** The wrapped SOL mint, today's fixed pump accounts, and PumpSwap's config and fee recipient. */
function genesisPumpToday(s: SimState): void {
  const nativeMint = s.world.at(P.NATIVE_MINT);
  nativeMint.lamports = P.rentExempt(MINT_LEN);
  nativeMint.owner = P.TOKEN_PROGRAM;
  nativeMint.data = mintData(null, 0n, 9);
  const wsolOf = (owner: Acct): Acct => {
    const a = s.world.at(associatedTokenAddress(owner.key, P.NATIVE_MINT));
    a.lamports = P.rentExempt(TOKEN_ACCOUNT_LEN);
    a.owner = P.TOKEN_PROGRAM;
    a.data = tokenAccountData(P.NATIVE_MINT, owner.key, 0n, a.lamports);
    return a;
  };
  const buybackFeeRecipient = s.keyed('pump-buyback-fee-recipient', 0, LAMPORTS_PER_SOL);
  const withdrawAuthority = s.keyed('pump-withdraw-authority', 0, LAMPORTS_PER_SOL);
  const routerFeeRecipient = s.keyed('router-fee-recipient', 0, LAMPORTS_PER_SOL);
  s.pumpFixed = {
    nativeMint,
    // Named by the v2 instructions for quote-mint curves; a SOL curve never moves wrapped SOL through them.
    feeRecipientWsol: s.world.at(associatedTokenAddress(s.feeRecipient.key, P.NATIVE_MINT)),
    buybackFeeRecipient,
    buybackFeeRecipientWsol: s.world.at(associatedTokenAddress(buybackFeeRecipient.key, P.NATIVE_MINT)),
    globalVolumeAccumulator: s.world.at(pumpGlobalVolumeAccumulatorAddress()),
    feeConfig: s.world.at(feeConfigAddress(P.PUMP_PROGRAM)),
    mayhemGlobalParams: s.world.at(mayhemGlobalParamsAddress()),
    mayhemSolVault: s.world.at(mayhemSolVaultAddress()),
    withdrawAuthority,
    routerFeeRecipient,
    eventAuthority: s.world.at(P.PUMP_EVENT_AUTHORITY),
  };
  const protocolFeeRecipient = s.keyed('pump-amm-protocol-fee-recipient', 0, LAMPORTS_PER_SOL);
  // PumpSwap's fees at launch (record 15: lp 20, protocol 5, coin creator 5 basis points).
  const fees = { lpFeeBasisPoints: 20n, protocolFeeBasisPoints: 5n, coinCreatorFeeBasisPoints: 5n };
  const globalConfig = s.world.at(ammGlobalConfigAddress());
  globalConfig.owner = P.PUMP_AMM_PROGRAM;
  globalConfig.data = ammGlobalConfigData(s.pumpAuthority.acct.key, fees, protocolFeeRecipient.key);
  globalConfig.lamports = P.rentExempt(globalConfig.data.length);
  const protocolFeeRecipientWsol = wsolOf(protocolFeeRecipient);
  s.amm = {
    globalConfig,
    eventAuthority: s.world.at(P.PUMP_AMM_EVENT_AUTHORITY),
    fees,
    protocolFeeRecipient,
    protocolFeeRecipientWsol,
    globalVolumeAccumulator: s.world.at(ammGlobalVolumeAccumulatorAddress()),
    feeConfig: s.world.at(feeConfigAddress(P.PUMP_AMM_PROGRAM)),
  };
  s.genesisOrder.push(
    nativeMint,
    buybackFeeRecipient,
    withdrawAuthority,
    routerFeeRecipient,
    protocolFeeRecipient,
    globalConfig,
    protocolFeeRecipientWsol,
  );
}

function genesisUsersAndTokens(s: SimState): void {
  s.exchange = { acct: s.keyed('exchange', 0, 10_000_000n * LAMPORTS_PER_SOL), tokens: new Map() };
  s.genesisOrder.push(s.exchange.acct);
  const mints = [6, 5].map((decimals, i) => {
    // The 6-decimal one is USDC at its mainnet address (USDC-quoted coins, pump-2026-10.md §4).
    const mint = i === 0 ? s.world.at(USDC_MINT) : s.keyed('stable-mint', i, 0n);
    mint.lamports = P.rentExempt(MINT_LEN);
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
  acct.data = lookupTableData(
    s.exchange.acct.key,
    entries.map((e) => e.key),
  );
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
