// Executes planned transactions into one block: compile, charge the fee, run the instructions with
// rollback on failure, sign, and record the transaction plus one account write per writable account
// (only the fee payer when it failed). Fees: 5,000 lamports per signature plus the priority fee;
// half the signature fees are burned, the rest goes to the leader at the end of the block.
import { createHash } from 'node:crypto';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import { encodeMessage } from '../../../schemas/wire.js';
import type { Acct, World } from './accounts.js';
import { compileMessage, type Ix, type LookupTable } from './compile.js';
import { IxError } from './instructions.js';
import type { ProcessedMessages } from './processed.js';
import { signMessage } from './keys.js';
import { ExecTrace, tokenBalances } from './trace.js';
import { COMPUTE_BUDGET_PROGRAM, LAMPORTS_PER_SIGNATURE, MEMO_PROGRAM } from './programs.js';

export interface TxPlan {
  payer: Acct;
  ixs: Ix[];
  /** v0 message; with `table`, accounts found in it are loaded through a lookup. */
  versioned?: boolean;
  table?: LookupTable;
  isVote?: boolean;
  /** No instruction can fail (no rollback snapshot needed). */
  infallible?: boolean;
}

/** How signatures are made: real ed25519, seeded random bytes (fast mode), or none (fast-forward). */
export type SignMode = 'ed25519' | 'fast' | 'skip';

const DEFAULT_UNITS_PER_IX = 200_000;
const MAX_UNITS = 1_400_000;

/** The compute unit limit: the compute-budget instruction's, else 200,000 per other instruction (max 1.4M). */
export function computeLimit(ixs: readonly Ix[]): number {
  let limit: number | undefined;
  let other = 0;
  for (const ix of ixs) {
    if (!ix.program.key.equals(COMPUTE_BUDGET_PROGRAM)) other++;
    else if (ix.data[0] === 2) limit = ix.data.readUInt32LE(1);
  }
  return Math.min(limit ?? DEFAULT_UNITS_PER_IX * other, MAX_UNITS);
}

/** 5,000 per signature plus ceil(unit price (micro-lamports) x unit limit / 1e6). */
export function transactionFee(numSignatures: number, ixs: readonly Ix[]): bigint {
  let limit: number | undefined;
  let price = 0n;
  let other = 0;
  for (const ix of ixs) {
    if (!ix.program.key.equals(COMPUTE_BUDGET_PROGRAM)) {
      other++;
      continue;
    }
    if (ix.data[0] === 2) limit = ix.data.readUInt32LE(1);
    else if (ix.data[0] === 3) price = ix.data.readBigUInt64LE(1);
  }
  const units = BigInt(Math.min(limit ?? DEFAULT_UNITS_PER_IX * other, MAX_UNITS));
  return BigInt(numSignatures) * LAMPORTS_PER_SIGNATURE + (price * units + 999_999n) / 1_000_000n;
}

export const burnedPart = (numSignatures: number): bigint => (BigInt(numSignatures) * LAMPORTS_PER_SIGNATURE) / 2n;

interface Snapshot {
  acct: Acct;
  lamports: bigint;
  owner: Buffer;
  data: Buffer;
}

export class BlockBuilder {
  readonly txs: TransactionEvent[] = [];
  readonly writes: AccountEvent[] = [];
  collected = 0n;
  burned = 0n;
  votes = 0;

  constructor(
    private readonly seed: number,
    readonly slot: bigint,
    readonly blockTime: bigint,
    private readonly recentBlockhash: Buffer,
    private readonly sign: SignMode,
    private readonly nextWriteVersion: () => bigint,
    /** The bank, to read mint decimals for token balances. */
    private readonly world?: World,
    /** The chain's status cache: a message already processed is refused, as Agave does. */
    private readonly processed?: ProcessedMessages,
  ) {}

  /** Whether transactions get their meta (logs, inner instructions); fast-forward records none. */
  get recording(): boolean {
    return this.sign !== 'skip';
  }

  /** Executes and records the transaction; undefined when the runtime refuses it as already processed
   * (the same message, so the same signature, under a still valid blockhash): nothing lands, nothing is paid. */
  submit(plan: TxPlan): TransactionEvent | undefined {
    const versioned = plan.versioned ?? plan.table !== undefined;
    const msg = compileMessage(plan.payer, plan.ixs, { versioned, table: plan.table });
    if (this.processed && !this.processed.admit(msg, this.recentBlockhash)) return undefined;
    const fee = transactionFee(msg.numRequiredSignatures, plan.ixs);
    if (plan.payer.lamports < fee) throw new Error('simulator bug: fee payer cannot pay the fee');
    // Meta is recorded for every materialized transaction; fast-forward skips it (nothing is published).
    const all = this.sign === 'skip' ? undefined : [...msg.staticKeys, ...msg.loadedWritable, ...msg.loadedReadonly];
    const preBalances = all?.map((a) => a.lamports) ?? [];
    const preTokenBalances = all ? tokenBalances(all, this.world) : [];
    plan.payer.lamports -= fee;
    const burn = burnedPart(msg.numRequiredSignatures);
    this.burned += burn;
    this.collected += fee - burn;
    const trace = all
      ? new ExecTrace(
          all.map((a) => a.key),
          computeLimit(plan.ixs),
        )
      : undefined;
    const err = plan.infallible ? this.runInfallible(plan.ixs, trace) : this.execute(plan.ixs, msg.writable, trace);
    const index = this.txs.length;
    const tx: TransactionEvent = {
      slot: this.slot,
      index,
      signatures: [],
      versioned: msg.versioned,
      numRequiredSignatures: msg.numRequiredSignatures,
      numReadonlySignedAccounts: msg.numReadonlySignedAccounts,
      numReadonlyUnsignedAccounts: msg.numReadonlyUnsignedAccounts,
      accountKeys: msg.staticKeys.map((a) => a.key),
      recentBlockhash: this.recentBlockhash,
      instructions: msg.instructions,
      addressTableLookups: msg.lookups,
      loadedWritable: msg.loadedWritable.map((a) => a.key),
      loadedReadonly: msg.loadedReadonly.map((a) => a.key),
      isVote: plan.isVote ?? false,
      err,
      fee,
      memos: plan.ixs.filter((ix) => ix.program.key.equals(MEMO_PROGRAM)).map((ix) => ix.data.toString('utf8')),
      blockTime: this.blockTime,
      preBalances,
      postBalances: all?.map((a) => a.lamports) ?? [],
      preTokenBalances,
      postTokenBalances: all ? tokenBalances(all, this.world) : [],
      innerInstructions: trace?.inner ?? [],
      logMessages: trace?.logs ?? [],
      computeUnitsConsumed: trace ? BigInt(trace.consumed) : undefined,
      returnData: undefined,
      innerInstructionsNone: false,
      logMessagesNone: false,
      rewards: [],
      costUnits: undefined,
    };
    tx.signatures = this.signatures(tx, msg.signers);
    if (tx.isVote) this.votes++;
    this.txs.push(tx);
    for (const a of err === undefined ? msg.writable : [plan.payer]) this.write(a, tx.signatures[0]);
    return tx;
  }

  /** Votes cannot fail here, so they skip the rollback snapshots (they are 2/3 of all transactions). */
  private runInfallible(ixs: readonly Ix[], trace: ExecTrace | undefined): undefined {
    for (let i = 0; i < ixs.length; i++) {
      const ix = ixs[i]!;
      if (!trace) {
        ix.run?.();
        continue;
      }
      const left = trace.begin(ix.program.key, ix.data);
      const used = trace.consumed;
      trace.calls(i, ix.run?.() ?? []);
      trace.end(ix.program.key, ix.data, left, used);
    }
    return undefined;
  }

  /** Runs the instructions; on the first failure restores every writable account (the fee stays paid). */
  private execute(ixs: readonly Ix[], writable: readonly Acct[], trace: ExecTrace | undefined): string | undefined {
    const snapshots: Snapshot[] = writable.map((acct) => ({
      acct,
      lamports: acct.lamports,
      owner: acct.owner,
      data: Buffer.from(acct.data),
    }));
    for (let i = 0; i < ixs.length; i++) {
      const ix = ixs[i]!;
      const left = trace?.begin(ix.program.key, ix.data) ?? 0;
      const used = trace?.consumed ?? 0;
      try {
        const calls = ix.run?.();
        trace?.calls(i, calls ?? []);
        trace?.end(ix.program.key, ix.data, left, used);
      } catch (e) {
        if (!(e instanceof IxError)) throw e;
        trace?.end(ix.program.key, ix.data, left, used, e.inner);
        for (const s of snapshots) {
          s.acct.lamports = s.lamports;
          s.acct.owner = s.owner;
          s.acct.data = s.data;
        }
        return `{"InstructionError":[${i},${e.inner}]}`;
      }
    }
    return undefined;
  }

  private signatures(tx: TransactionEvent, signers: readonly Acct[]): Buffer[] {
    if (this.sign === 'ed25519') {
      const message = encodeMessage(tx);
      return signers.map((s) => {
        if (!s.privateKey) throw new Error('simulator bug: signer without a key');
        return signMessage(message, s.privateKey);
      });
    }
    if (this.sign === 'fast') {
      // Unsigned: 64 seeded bytes per signer, a pure function of (seed, slot, index, signer).
      return signers.map((_, k) =>
        createHash('sha512').update(`slotstream-sim/${this.seed}/fastsig/${this.slot}/${tx.index}/${k}`).digest(),
      );
    }
    return signers.map(() => ZERO_SIG);
  }

  /** Records the account's current state as a write caused by `signature` (absent: not a transaction). */
  write(a: Acct, signature?: Buffer): void {
    const wv = this.nextWriteVersion();
    if (this.sign === 'skip') return; // fast-forward: only the write version counter must advance
    this.writes.push(accountWrite(a, wv, this.slot, signature, false));
  }
}

/** The account's current state as a write (its data copied): a transaction's, or the genesis' (`isStartup`). */
export function accountWrite(a: Acct, writeVersion: bigint, slot: bigint, signature: Buffer | undefined, isStartup: boolean): AccountEvent {
  return {
    pubkey: a.key,
    lamports: a.lamports,
    owner: a.owner,
    executable: a.executable,
    rentEpoch: a.rentEpoch,
    data: Buffer.from(a.data),
    writeVersion,
    slot,
    txnSignature: signature,
    isStartup,
  };
}

const ZERO_SIG = Buffer.alloc(64);
