// Compiles instructions (with account metas) into Solana's message layout: the account key order
// (writable signers, readonly signers, writable non-signers, readonly non-signers; fee payer first),
// header counts, compiled instructions and, for v0, address table lookups for accounts found in a
// lookup table that are neither signers nor invoked programs.
import type { AddressTableLookup, CompiledInstruction } from '../../../schemas/codec.js';
import type { Acct } from './accounts.js';
import type { Step } from './trace.js';

export interface AccountMeta {
  acct: Acct;
  signer?: boolean;
  writable?: boolean;
}

export interface Ix {
  program: Acct;
  accounts: AccountMeta[];
  data: Buffer;
  /** Executes the instruction against the bank; throws IxError on a program error. Returns what it did
   * beyond its own state change (cross-program invocations, log lines), for the transaction's meta. */
  run?: () => Step[] | void;
}

export interface LookupTable {
  acct: Acct;
  /** Address -> index in the table. */
  index: Map<Acct, number>;
}

export interface CompiledMessage {
  versioned: boolean;
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
  staticKeys: Acct[];
  loadedWritable: Acct[];
  loadedReadonly: Acct[];
  instructions: CompiledInstruction[];
  lookups: AddressTableLookup[];
  /** Every writable account in message index order (static writable, then loaded writable). */
  writable: Acct[];
  signers: Acct[];
}

interface Flags {
  signer: boolean;
  writable: boolean;
  invoked: boolean;
  order: number;
}

export class CompileError extends Error {}

/** Every account the message names, with its merged flags, in first-mention order (the payer first). */
function accountFlags(payer: Acct, ixs: readonly Ix[]): Map<Acct, Flags> {
  const flags = new Map<Acct, Flags>();
  const note = (acct: Acct, signer: boolean, writable: boolean, invoked: boolean): void => {
    const f = flags.get(acct);
    if (f) {
      f.signer ||= signer;
      f.writable ||= writable;
      f.invoked ||= invoked;
    } else flags.set(acct, { signer, writable, invoked, order: flags.size });
  };
  note(payer, true, true, false);
  for (const ix of ixs) {
    for (const m of ix.accounts) note(m.acct, m.signer ?? false, m.writable ?? false, false);
    note(ix.program, false, false, true);
  }
  return flags;
}

/** The table's lookups of the loaded accounts (none when nothing is loaded). */
function lookupsOf(table: LookupTable | undefined, loadedW: [number, Acct][], loadedR: [number, Acct][]): AddressTableLookup[] {
  if (!table || loadedW.length + loadedR.length === 0) return [];
  return [
    {
      accountKey: table.acct.key,
      writableIndexes: Buffer.from(loadedW.map((e) => e[0])),
      readonlyIndexes: Buffer.from(loadedR.map((e) => e[0])),
    },
  ];
}

export function compileMessage(payer: Acct, ixs: readonly Ix[], opts: { versioned: boolean; table?: LookupTable }): CompiledMessage {
  const flags = accountFlags(payer, ixs);
  const table = opts.versioned ? opts.table : undefined;
  const groups: Acct[][] = [[], [], [], []];
  const loadedW: [number, Acct][] = [];
  const loadedR: [number, Acct][] = [];
  for (const [acct, f] of flags) {
    const ti = table && !f.signer && !f.invoked ? table.index.get(acct) : undefined;
    if (ti !== undefined) (f.writable ? loadedW : loadedR).push([ti, acct]);
    else groups[(f.signer ? 0 : 2) + (f.writable ? 0 : 1)]!.push(acct);
  }
  const staticKeys = groups.flat();
  if (staticKeys[0] !== payer) throw new CompileError('fee payer must be the first account');
  loadedW.sort((a, b) => a[0] - b[0]);
  loadedR.sort((a, b) => a[0] - b[0]);
  const all = [...staticKeys, ...loadedW.map((e) => e[1]), ...loadedR.map((e) => e[1])];
  if (all.length > 256) throw new CompileError(`too many accounts: ${all.length}`);
  const pos = new Map<Acct, number>();
  all.forEach((a, i) => pos.set(a, i));
  const instructions = ixs.map((ix) => ({
    programIdIndex: pos.get(ix.program)!,
    accounts: Buffer.from(ix.accounts.map((m) => pos.get(m.acct)!)),
    data: ix.data,
  }));
  const signers = [...groups[0]!, ...groups[1]!];
  return {
    versioned: opts.versioned,
    numRequiredSignatures: signers.length,
    numReadonlySignedAccounts: groups[1]!.length,
    numReadonlyUnsignedAccounts: groups[3]!.length,
    staticKeys,
    loadedWritable: loadedW.map((e) => e[1]),
    loadedReadonly: loadedR.map((e) => e[1]),
    instructions,
    lookups: lookupsOf(table, loadedW, loadedR),
    writable: [...groups[0]!, ...groups[2]!, ...loadedW.map((e) => e[1])],
    signers,
  };
}
