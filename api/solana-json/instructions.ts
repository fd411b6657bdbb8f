// Instructions in the `jsonParsed` encoding, as Agave's transaction-status parser shapes them
// (parse_instruction.rs): `{program, programId, parsed: {type, info}, stackHeight}` for the programs parsed
// here (system, SPL Token and Token-2022, associated token account, memo), and otherwise Agave's own
// fallback, the partially decoded `{programId, accounts, data, stackHeight}`, which Agave also answers for
// any instruction its parser rejects. Pure.
import { base58 } from '../../schemas/base58.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { uiTokenAmount } from './token.js';
import { asBuffer } from '../../schemas/bytes.js';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const MEMO_PROGRAMS: ReadonlySet<string> = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

type Info = Record<string, unknown>;
interface Parsed {
  program: string;
  parsed: unknown;
}

class Short extends Error {}

/** Little-endian reader that throws Short past the end (the instruction then stays partially decoded). */
class Reader {
  private at = 0;
  constructor(private readonly d: Buffer) {}
  u8(): number {
    if (this.at + 1 > this.d.length) throw new Short();
    return this.d[this.at++]!;
  }
  u32(): number {
    if (this.at + 4 > this.d.length) throw new Short();
    const v = this.d.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  u64(): bigint {
    if (this.at + 8 > this.d.length) throw new Short();
    const v = this.d.readBigUInt64LE(this.at);
    this.at += 8;
    return v;
  }
  key(): string {
    if (this.at + 32 > this.d.length) throw new Short();
    const v = base58(this.d.subarray(this.at, this.at + 32));
    this.at += 32;
    return v;
  }
  /** bincode String: u64 length, UTF-8 bytes. */
  string(): string {
    const n = Number(this.u64());
    if (this.at + n > this.d.length) throw new Short();
    const v = this.d.subarray(this.at, this.at + n).toString('utf8');
    this.at += n;
    return v;
  }
}

/** Agave's check_num_accounts: fewer accounts than the instruction needs is a parse error. */
function need(accounts: readonly string[], n: number): void {
  if (accounts.length < n) throw new Short();
}

// Lamports, space and the like are u64 in Agave's parsed JSON numbers (serde_json's u64).
const num = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

function parseSystem(d: Buffer, a: readonly string[]): Parsed {
  const r = new Reader(d);
  const tag = r.u32();
  const out = (type: string, info: Info): Parsed => ({ program: 'system', parsed: { type, info } });
  switch (tag) {
    case 0: {
      need(a, 2);
      const lamports = r.u64(),
        space = r.u64(),
        owner = r.key();
      return out('createAccount', { source: a[0], newAccount: a[1], lamports: num(lamports), space: num(space), owner });
    }
    case 1:
      need(a, 1);
      return out('assign', { account: a[0], owner: r.key() });
    case 2:
      need(a, 2);
      return out('transfer', { source: a[0], destination: a[1], lamports: num(r.u64()) });
    case 3: {
      need(a, 2);
      const base = r.key(),
        seed = r.string(),
        lamports = r.u64(),
        space = r.u64(),
        owner = r.key();
      return out('createAccountWithSeed', {
        source: a[0],
        newAccount: a[1],
        base,
        seed,
        lamports: num(lamports),
        space: num(space),
        owner,
      });
    }
    case 4:
      need(a, 3);
      return out('advanceNonce', { nonceAccount: a[0], recentBlockhashesSysvar: a[1], nonceAuthority: a[2] });
    case 5:
      need(a, 5);
      return out('withdrawFromNonce', {
        nonceAccount: a[0],
        destination: a[1],
        recentBlockhashesSysvar: a[2],
        rentSysvar: a[3],
        nonceAuthority: a[4],
        lamports: num(r.u64()),
      });
    case 6:
      need(a, 3);
      return out('initializeNonce', { nonceAccount: a[0], recentBlockhashesSysvar: a[1], rentSysvar: a[2], nonceAuthority: r.key() });
    case 7:
      need(a, 2);
      return out('authorizeNonce', { nonceAccount: a[0], nonceAuthority: a[1], newAuthorized: r.key() });
    case 8:
      need(a, 1);
      return out('allocate', { account: a[0], space: num(r.u64()) });
    case 9: {
      need(a, 2);
      const base = r.key(),
        seed = r.string(),
        space = r.u64(),
        owner = r.key();
      return out('allocateWithSeed', { account: a[0], base, seed, space: num(space), owner });
    }
    case 10: {
      need(a, 2);
      const base = r.key(),
        seed = r.string(),
        owner = r.key();
      return out('assignWithSeed', { account: a[0], base, seed, owner });
    }
    case 11: {
      need(a, 3);
      const lamports = r.u64(),
        sourceSeed = r.string(),
        sourceOwner = r.key();
      return out('transferWithSeed', {
        source: a[0],
        sourceBase: a[1],
        destination: a[2],
        lamports: num(lamports),
        sourceSeed,
        sourceOwner,
      });
    }
    case 12:
      need(a, 1);
      return out('upgradeNonce', { nonceAccount: a[0] });
    default:
      throw new Short();
  }
}

/** An authority that may be a multisig: Agave's parse_signers (`<name>` or `multisig<Name>` plus `signers`). */
function signers(info: Info, name: string, a: readonly string[], at: number): Info {
  if (a.length > at + 1) {
    info[`multisig${name[0]!.toUpperCase()}${name.slice(1)}`] = a[at];
    info.signers = a.slice(at + 1);
  } else {
    info[name] = a[at];
  }
  return info;
}

function parseToken(d: Buffer, a: readonly string[], program: string): Parsed {
  const r = new Reader(d);
  const tag = r.u8();
  const out = (type: string, info: Info): Parsed => ({ program, parsed: { type, info } });
  switch (tag) {
    case 1:
      need(a, 4);
      return out('initializeAccount', { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] });
    case 3: {
      need(a, 3);
      return out('transfer', signers({ source: a[0], destination: a[1], amount: r.u64().toString() }, 'authority', a, 2));
    }
    case 4:
      need(a, 3);
      return out('approve', signers({ source: a[0], delegate: a[1], amount: r.u64().toString() }, 'owner', a, 2));
    case 5:
      need(a, 2);
      return out('revoke', signers({ source: a[0] }, 'owner', a, 1));
    case 7:
      need(a, 3);
      return out('mintTo', signers({ mint: a[0], account: a[1], amount: r.u64().toString() }, 'mintAuthority', a, 2));
    case 8:
      need(a, 3);
      return out('burn', signers({ account: a[0], mint: a[1], amount: r.u64().toString() }, 'authority', a, 2));
    case 9:
      need(a, 3);
      return out('closeAccount', signers({ account: a[0], destination: a[1] }, 'owner', a, 2));
    case 12: {
      need(a, 4);
      const amount = r.u64(),
        decimals = r.u8();
      return out(
        'transferChecked',
        signers({ source: a[0], mint: a[1], destination: a[2], tokenAmount: uiTokenAmount(amount, decimals) }, 'authority', a, 3),
      );
    }
    case 14: {
      need(a, 3);
      const amount = r.u64(),
        decimals = r.u8();
      return out(
        'mintToChecked',
        signers({ mint: a[0], account: a[1], tokenAmount: uiTokenAmount(amount, decimals) }, 'mintAuthority', a, 2),
      );
    }
    case 15: {
      need(a, 3);
      const amount = r.u64(),
        decimals = r.u8();
      return out('burnChecked', signers({ account: a[0], mint: a[1], tokenAmount: uiTokenAmount(amount, decimals) }, 'authority', a, 2));
    }
    case 16:
      need(a, 3);
      return out('initializeAccount2', { account: a[0], mint: a[1], rentSysvar: a[2], owner: r.key() });
    case 17:
      need(a, 1);
      return out('syncNative', { account: a[0] });
    case 18:
      need(a, 2);
      return out('initializeAccount3', { account: a[0], mint: a[1], owner: r.key() });
    case 22:
      need(a, 1);
      return out('initializeImmutableOwner', { account: a[0] });
    default:
      throw new Short();
  }
}

function parseAssociatedTokenAccount(d: Buffer, a: readonly string[]): Parsed {
  const tag = d.length === 0 ? 0 : d[0]!;
  const out = (type: string, info: Info): Parsed => ({ program: 'spl-associated-token-account', parsed: { type, info } });
  if (d.length > 1) throw new Short();
  if (tag === 0 || tag === 1) {
    need(a, 6);
    return out(tag === 0 ? 'create' : 'createIdempotent', {
      source: a[0],
      account: a[1],
      wallet: a[2],
      mint: a[3],
      systemProgram: a[4],
      tokenProgram: a[5],
    });
  }
  if (tag === 2) {
    need(a, 7);
    return out('recoverNested', {
      nestedSource: a[0],
      nestedMint: a[1],
      destination: a[2],
      nestedOwner: a[3],
      ownerMint: a[4],
      wallet: a[5],
      tokenProgram: a[6],
    });
  }
  throw new Short();
}

/** UTF-8 text, or a parse error where the bytes are not valid UTF-8 (Agave's parse_memo). */
function parseMemo(d: Buffer): Parsed {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(d);
  return { program: 'spl-memo', parsed: text };
}

/**
 * One instruction (`accounts` are indexes into `keys`) in Agave's jsonParsed form. A program not parsed
 * here, an index outside the keys, or data the program's parser rejects: the partially decoded form.
 */
export function parseInstruction(
  programIdIndex: number,
  accountIndexes: Uint8Array,
  data: Uint8Array,
  keys: readonly string[],
  stackHeight: number | null,
): unknown {
  const programId = keys[programIdIndex] ?? '';
  const accounts = Array.from(accountIndexes, (i) => keys[i] ?? '');
  const d = asBuffer(data);
  let parsed: Parsed | undefined;
  if (keys[programIdIndex] !== undefined && accounts.every((k) => k !== '')) {
    try {
      if (programId === SYSTEM_PROGRAM) parsed = parseSystem(d, accounts);
      else if (programId === TOKEN_PROGRAM) parsed = parseToken(d, accounts, 'spl-token');
      else if (programId === TOKEN_2022_PROGRAM) parsed = parseToken(d, accounts, 'spl-token-2022');
      else if (programId === ATA_PROGRAM) parsed = parseAssociatedTokenAccount(d, accounts);
      else if (MEMO_PROGRAMS.has(programId)) parsed = parseMemo(d);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed !== undefined) return { program: parsed.program, programId, parsed: parsed.parsed, stackHeight };
  return { programId, accounts, data: base58(d), stackHeight };
}
