// Instruction builders for the native and SPL programs, each with the state change it makes when
// executed (`run`), failing with the program's own error code the way Agave reports it.
import type { Acct } from './accounts.js';
import type { Ix } from './compile.js';
import { isNativeTokenAccount, setTokenAmount, tokenAccountData, tokenAmount, TOKEN_ACCOUNT_LEN } from './layouts.js';
import { NATIVE_MINT, rentExempt, SYSTEM_PROGRAM, TOKEN_PROGRAM } from './programs.js';

/**
 * A program error inside one instruction; `inner` is Agave's JSON for it, e.g. `{"Custom":1}`.
 * Deliberately not an Error: failures are routine here and capturing stack traces was a top cost.
 */
export class IxError {
  constructor(readonly inner: string) {}
}

export const CUSTOM = (code: number): IxError => new IxError(`{"Custom":${code}}`);

/** Lamports move between accounts; the system program's ResultWithNegativeLamports is Custom(1). */
export function debit(from: Acct, amount: bigint): void {
  if (from.lamports < amount) throw CUSTOM(1);
  from.lamports -= amount;
}

export interface Programs {
  system: Acct;
  token: Acct;
  ata: Acct;
  memo: Acct;
  computeBudget: Acct;
  vote: Acct;
  pump: Acct;
  pumpAmm: Acct;
  pumpFee: Acct;
  mayhem: Acct;
  router: Acct;
  token2022: Acct;
  metadata: Acct;
  rent: Acct;
  clock: Acct;
  slotHashes: Acct;
}

export function setComputeUnitLimit(p: Programs, units: number): Ix {
  const data = Buffer.alloc(5);
  data[0] = 2;
  data.writeUInt32LE(units, 1);
  return { program: p.computeBudget, accounts: [], data };
}

export function setComputeUnitPrice(p: Programs, microLamports: bigint): Ix {
  const data = Buffer.alloc(9);
  data[0] = 3;
  data.writeBigUInt64LE(microLamports, 1);
  return { program: p.computeBudget, accounts: [], data };
}

/** System program Transfer's data: u32 variant 2, u64 lamports. */
export function systemTransferData(lamports: bigint): Buffer {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0);
  data.writeBigUInt64LE(lamports, 4);
  return data;
}

/** SPL Token Transfer's data: 3, u64 amount. */
export function tokenTransferData(amount: bigint): Buffer {
  const data = Buffer.alloc(9);
  data[0] = 3;
  data.writeBigUInt64LE(amount, 1);
  return data;
}

export function systemTransfer(p: Programs, from: Acct, to: Acct, lamports: bigint): Ix {
  const data = systemTransferData(lamports);
  return {
    program: p.system,
    accounts: [
      { acct: from, signer: true, writable: true },
      { acct: to, writable: true },
    ],
    data,
    run: () => {
      debit(from, lamports);
      to.lamports += lamports;
    },
  };
}

/** Creates a token account with rent paid by `payer` (what ATA and pump.fun do through CPIs). A wrapped SOL
 * account (the native mint) keeps its rent as the native reserve: its token amount is the lamports above it. */
export function createTokenAccount(payer: Acct, account: Acct, mint: Acct, owner: Acct): void {
  const rent = rentExempt(TOKEN_ACCOUNT_LEN);
  debit(payer, rent);
  account.lamports += rent;
  account.owner = TOKEN_PROGRAM;
  const native = mint.key.equals(NATIVE_MINT);
  account.data = tokenAccountData(mint.key, owner.key, native ? account.lamports - rent : 0n, native ? rent : undefined);
}

/** Associated Token Account program, CreateIdempotent (data [1]): a no-op when the account exists. */
export function createAtaIdempotent(p: Programs, payer: Acct, ata: Acct, owner: Acct, mint: Acct): Ix {
  return {
    program: p.ata,
    accounts: [
      { acct: payer, signer: true, writable: true },
      { acct: ata, writable: true },
      { acct: owner },
      { acct: mint },
      { acct: p.system },
      { acct: p.token },
    ],
    data: Buffer.of(1),
    run: () => {
      if (!ata.exists) createTokenAccount(payer, ata, mint, owner);
    },
  };
}

/** Moves tokens between two token accounts; SPL Token's InsufficientFunds is Custom(1). Wrapped SOL moves
 * its lamports with the amount, as the token program does for native accounts. */
export function moveTokens(from: Acct, to: Acct, amount: bigint): void {
  const have = tokenAmount(from.data);
  if (have < amount) throw CUSTOM(1);
  setTokenAmount(from.data, have - amount);
  setTokenAmount(to.data, tokenAmount(to.data) + amount);
  if (isNativeTokenAccount(from.data)) {
    from.lamports -= amount;
    to.lamports += amount;
  }
}

/** SPL Token SyncNative (17): a wrapped SOL account's amount becomes its lamports above the rent reserve. */
export function syncNativeData(): Buffer {
  return Buffer.of(17);
}

export function syncNative(acct: Acct): void {
  setTokenAmount(acct.data, acct.lamports - acct.data.readBigUInt64LE(113));
}

export function syncNativeIx(p: Programs, account: Acct): Ix {
  return { program: p.token, accounts: [{ acct: account, writable: true }], data: syncNativeData(), run: () => syncNative(account) };
}

/** SPL Token CloseAccount (9): every lamport to `dest`; only wrapped SOL may close with a balance. */
export function closeTokenAccountIx(p: Programs, account: Acct, dest: Acct, owner: Acct): Ix {
  return {
    program: p.token,
    accounts: [
      { acct: account, writable: true },
      { acct: dest, writable: true },
      { acct: owner, signer: true },
    ],
    data: Buffer.of(9),
    run: () => {
      if (!account.exists) throw CUSTOM(0xd); // UninitializedState
      if (tokenAmount(account.data) !== 0n && !isNativeTokenAccount(account.data)) throw CUSTOM(0xb); // NonNativeHasBalance
      dest.lamports += account.lamports;
      account.lamports = 0n;
      account.owner = SYSTEM_PROGRAM;
      account.data = EMPTY;
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** SPL Token Transfer (3) or TransferChecked (12, with the mint and decimals). */
export function tokenTransfer(
  p: Programs,
  src: Acct,
  dst: Acct,
  owner: Acct,
  amount: bigint,
  checked?: { mint: Acct; decimals: number },
): Ix {
  const data = Buffer.alloc(checked ? 10 : 9);
  data[0] = checked ? 12 : 3;
  data.writeBigUInt64LE(amount, 1);
  if (checked) data[9] = checked.decimals;
  const accounts = checked
    ? [{ acct: src, writable: true }, { acct: checked.mint }, { acct: dst, writable: true }, { acct: owner, signer: true }]
    : [
        { acct: src, writable: true },
        { acct: dst, writable: true },
        { acct: owner, signer: true },
      ];
  return { program: p.token, accounts, data, run: () => moveTokens(src, dst, amount) };
}

/** Memo v2: data is the UTF-8 text; listed signers must sign. */
export function memo(p: Programs, text: string, signer: Acct): Ix {
  return { program: p.memo, accounts: [{ acct: signer, signer: true }], data: Buffer.from(text, 'utf8') };
}
