// What the validator records while it executes a transaction, for the simulator: program logs in
// Agave's form, inner instructions (CPIs) with their stack height, compute units, and token balances.
// Pure bookkeeping beside the bank: it reads accounts, never changes them, and draws no randomness,
// so the chain is the same whether meta is recorded or not.
import type { InnerInstructions, TokenBalance } from '../../../schemas/codec.js';
import type { Acct, World } from './accounts.js';
import { TOKEN_ACCOUNT_LEN } from './layouts.js';
import bs58 from 'bs58';
import {
  ATA_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  EVENT_IX_TAG,
  MEMO_PROGRAM,
  PUMP_AMM_IX,
  PUMP_AMM_PROGRAM,
  PUMP_IX,
  PUMP_PROGRAM,
  ROUTER_IX,
  SIM_ROUTER_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_PROGRAM,
  VOTE_PROGRAM,
} from './programs.js';

/**
 * A cross-program invocation an instruction made while it ran (what `run` reports), with what the invoked
 * program did in turn: its own log lines (`Program data: ...`) and deeper invocations, in order. A router's
 * pump.fun buy is one call (stack height 2) whose steps are its transfers and its event's self-CPI (height 3).
 */
export interface InnerCall {
  program: Acct;
  accounts: Acct[];
  data: Buffer;
  steps?: readonly Step[];
}

/** A log line the running program wrote between its invocations. */
export interface LogStep {
  log: string;
}

export type Step = InnerCall | LogStep;

const isLog = (s: Step): s is LogStep => (s as LogStep).log !== undefined;

/** Builtins log no "consumed" line (Agave's native programs); everything else is an sBPF program. */
const BUILTINS = [SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM, VOTE_PROGRAM];

/** Compute units per invocation, the program's own part (CPIs are added on top). Order of magnitude of
 * mainnet's figures; a transaction never runs out (costs are clipped to what its limit leaves). */
function unitsOf(program: Buffer, data: Buffer): number {
  if (program.equals(SYSTEM_PROGRAM)) return 150;
  if (program.equals(COMPUTE_BUDGET_PROGRAM)) return 150;
  if (program.equals(VOTE_PROGRAM)) return 2_100;
  if (program.equals(TOKEN_PROGRAM)) return data[0] === 12 ? 6_200 : 4_645;
  if (program.equals(ATA_PROGRAM)) return 4_500;
  if (program.equals(MEMO_PROGRAM)) return 2_000 + 20 * data.length;
  // Anchor's event CPI handler only checks the event authority's signature.
  if ((program.equals(PUMP_PROGRAM) || program.equals(PUMP_AMM_PROGRAM)) && isEventData(data)) return 2_164;
  if (program.equals(PUMP_PROGRAM)) return 24_000;
  if (program.equals(PUMP_AMM_PROGRAM)) return 30_000;
  if (program.equals(SIM_ROUTER_PROGRAM)) return 15_000;
  return 10_000;
}

const isBuiltin = (program: Buffer): boolean => BUILTINS.some((b) => b.equals(program));
const isEventData = (data: Buffer): boolean => data.length >= 8 && data.compare(EVENT_IX_TAG, 0, 8, 0, 8) === 0;

/** Agave's text for a failed instruction: `custom program error: 0x1772` or the error's description. */
function failureText(inner: string): string {
  const m = /^\{"Custom":(\d+)\}$/.exec(inner);
  if (m) return `custom program error: 0x${Number(m[1]).toString(16)}`;
  if (inner === '"InsufficientFunds"') return 'insufficient funds for instruction';
  return JSON.parse(inner) as string;
}

/** Program ids are few and logged on every instruction: encode each once (bs58 is slow). */
const idCache = new Map<string, string>();
function programId(key: Buffer): string {
  const k = key.toString('latin1');
  let id = idCache.get(k);
  if (id === undefined) idCache.set(k, (id = bs58.encode(key)));
  return id;
}

export class ExecTrace {
  readonly logs: string[] = [];
  readonly inner: InnerInstructions[] = [];
  consumed = 0;
  private index?: Map<string, number>;

  /** `keys`: every account of the transaction in index order (static keys, then loaded ones). */
  constructor(
    private readonly keys: readonly Buffer[],
    private readonly limit: number,
  ) {}

  /** Key -> index, built only for the few transactions that make CPIs. */
  private indexOf(key: Buffer): number | undefined {
    if (!this.index) {
      this.index = new Map();
      this.keys.forEach((k, i) => this.index!.set(k.toString('latin1'), i));
    }
    return this.index.get(key.toString('latin1'));
  }

  private spend(units: number): number {
    const take = Math.min(units, this.limit - this.consumed);
    this.consumed += take;
    return take;
  }

  /** Logs the start of top-level instruction `program`; returns the units left when it started. */
  begin(program: Buffer, data: Buffer): number {
    const id = programId(program);
    this.logs.push(`Program ${id} invoke [1]`);
    if (program.equals(MEMO_PROGRAM)) this.logs.push(`Program log: Memo (len ${data.length}): ${JSON.stringify(data.toString('utf8'))}`);
    else this.logName(program, data, false);
    return this.limit - this.consumed;
  }

  /** Anchor programs log the handler's name; SPL Token and ATA log theirs when invoked by another program. */
  private logName(program: Buffer, data: Buffer, inner: boolean): void {
    const name = handlerName(program, data, inner);
    if (name !== undefined) this.logs.push(name);
  }

  /** Records what top-level instruction `ix` did: its log lines and CPIs (each logged, charged and listed with
   * its stack height, deeper ones after the call that made them, as Agave lists them). */
  calls(ix: number, steps: readonly Step[]): void {
    if (steps.length === 0) return;
    const group: InnerInstructions = { index: ix, instructions: [] };
    this.steps(steps, 2, group);
    if (group.instructions.length > 0) this.inner.push(group);
  }

  private steps(steps: readonly Step[], height: number, group: InnerInstructions): void {
    for (const step of steps) {
      if (isLog(step)) this.logs.push(step.log);
      else this.invoke(step, height, group);
    }
  }

  private invoke(c: InnerCall, height: number, group: InnerInstructions): void {
    const id = programId(c.program.key);
    const left = this.limit - this.consumed;
    const before = this.consumed;
    this.logs.push(`Program ${id} invoke [${height}]`);
    this.logName(c.program.key, c.data, true);
    const programIdIndex = this.indexOf(c.program.key);
    const accounts = c.accounts.map((a) => this.indexOf(a.key));
    // A CPI can only name accounts the transaction loaded; anything else is a simulator bug.
    if (programIdIndex === undefined || accounts.some((a) => a === undefined)) {
      throw new Error(`simulator bug: inner instruction of ${id} names an account outside the transaction`);
    }
    group.instructions.push({ programIdIndex, accounts: Buffer.from(accounts as number[]), data: c.data, stackHeight: height });
    if (c.steps) this.steps(c.steps, height + 1, group);
    this.spend(unitsOf(c.program.key, c.data));
    if (!isBuiltin(c.program.key)) this.logs.push(`Program ${id} consumed ${this.consumed - before} of ${left} compute units`);
    this.logs.push(`Program ${id} success`);
  }

  /** Logs the end of a top-level instruction: consumed units (sBPF programs) and success or failure. */
  end(program: Buffer, data: Buffer, startedWith: number, usedBefore: number, failure?: string): void {
    const id = programId(program);
    this.spend(unitsOf(program, data));
    if (!isBuiltin(program)) this.logs.push(`Program ${id} consumed ${this.consumed - usedBefore} of ${startedWith} compute units`);
    this.logs.push(failure === undefined ? `Program ${id} success` : `Program ${id} failed: ${failureText(failure)}`);
  }
}

const PUMP_NAMES: [Buffer, string][] = [
  [PUMP_IX.buy, 'Buy'],
  [PUMP_IX.sell, 'Sell'],
  [PUMP_IX.buyExactSolIn, 'BuyExactSolIn'],
  [PUMP_IX.buyV2, 'BuyV2'],
  [PUMP_IX.buyExactQuoteInV2, 'BuyExactQuoteInV2'],
  [PUMP_IX.sellV2, 'SellV2'],
  [PUMP_IX.create, 'Create'],
  [PUMP_IX.createV2, 'CreateV2'],
  [PUMP_IX.migrate, 'Migrate'],
  [PUMP_IX.setParams, 'SetParams'],
  [PUMP_IX.initialize, 'Initialize'],
];
const PUMP_AMM_NAMES: [Buffer, string][] = [
  [PUMP_AMM_IX.buy, 'Buy'],
  [PUMP_AMM_IX.sell, 'Sell'],
  [PUMP_AMM_IX.createPool, 'CreatePool'],
];
const ROUTER_NAMES: [Buffer, string][] = [[ROUTER_IX.route, 'Route']];
const TOKEN_NAMES: Record<number, string> = { 3: 'Transfer', 12: 'TransferChecked', 9: 'CloseAccount', 17: 'SyncNative' };

const anchorName = (names: [Buffer, string][], data: Buffer): string | undefined => {
  if (data.length < 8) return undefined;
  for (const [disc, name] of names) if (data.compare(disc, 0, 8, 0, 8) === 0) return `Program log: Instruction: ${name}`;
  return undefined;
};

/** The name line a program logs when its handler starts (Anchor: by the 8-byte discriminator), if any. */
function handlerName(program: Buffer, data: Buffer, inner: boolean): string | undefined {
  if (program.equals(PUMP_PROGRAM)) return anchorName(PUMP_NAMES, data);
  if (program.equals(PUMP_AMM_PROGRAM)) return anchorName(PUMP_AMM_NAMES, data);
  if (program.equals(SIM_ROUTER_PROGRAM)) return anchorName(ROUTER_NAMES, data);
  if (!inner) return undefined;
  if (program.equals(TOKEN_PROGRAM)) return `Program log: Instruction: ${TOKEN_NAMES[data[0]!] ?? 'Unknown'}`;
  if (program.equals(ATA_PROGRAM)) return data[0] === 1 ? 'Program log: CreateIdempotent' : 'Program log: Create';
  return undefined;
}

/** Token balances of the transaction's SPL token accounts (Agave's pre/post token balances). */
export function tokenBalances(accounts: readonly Acct[], world: World | undefined): TokenBalance[] {
  const out: TokenBalance[] = [];
  accounts.forEach((a, accountIndex) => {
    if (a.lamports === 0n || !a.owner.equals(TOKEN_PROGRAM) || a.data.length !== TOKEN_ACCOUNT_LEN) return;
    const mint = a.data.subarray(0, 32);
    const mintAcct = world?.find(mint);
    out.push({
      accountIndex,
      mint: Buffer.from(mint),
      owner: Buffer.from(a.data.subarray(32, 64)),
      programId: TOKEN_PROGRAM,
      amount: a.data.readBigUInt64LE(64),
      decimals: mintAcct !== undefined && mintAcct.data.length > 44 ? mintAcct.data[44]! : 0,
    });
  });
  return out;
}
