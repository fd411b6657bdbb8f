// Instructions in the `jsonParsed` encoding, as Agave's transaction-status parser shapes them
// (parse_instruction.rs): `{program, programId, parsed: {type, info}, stackHeight}` for the programs parsed
// here (system, SPL Token and Token-2022, associated token account, memo), and otherwise Agave's own
// fallback, the partially decoded `{programId, accounts, data, stackHeight}`, which Agave also answers for
// any instruction its parser rejects. Pure.
import { base58 } from '../../schemas/base58.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { uiTokenAmount } from './token.js';
import { asBuffer } from '../../schemas/bytes.js';
import { ByteReader } from '../../schemas/byte-reader.js';

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

/** An instruction Agave's parser rejects (too few accounts, unknown tag): it then stays partially decoded, as
 * does one whose data ends early (the byte reader's ByteError). */
class Short extends Error {}

/** A base-58 address read from the data. */
const key = (r: ByteReader): string => base58(r.view(32, 'pubkey'));

/** Agave's check_num_accounts: fewer accounts than the instruction needs is a parse error. */
function need(accounts: readonly string[], n: number): void {
  if (accounts.length < n) throw new Short();
}

// Lamports, space and the like are u64 in Agave's parsed JSON numbers (serde_json's u64).
const num = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

/** One instruction of a program: its type and info, from the data after the tag and the accounts. */
type Handler = (r: ByteReader, a: readonly string[]) => [type: string, info: Info];

/** The system program's instructions by their u32 tag (Agave's parse_system). */
const SYSTEM: readonly Handler[] = [
  (r, a) => {
    need(a, 2);
    const lamports = r.u64(),
      space = r.u64(),
      owner = key(r);
    return ['createAccount', { source: a[0], newAccount: a[1], lamports: num(lamports), space: num(space), owner }];
  },
  (r, a) => (need(a, 1), ['assign', { account: a[0], owner: key(r) }]),
  (r, a) => (need(a, 2), ['transfer', { source: a[0], destination: a[1], lamports: num(r.u64()) }]),
  (r, a) => {
    need(a, 2);
    const base = key(r),
      seed = r.bincodeString('seed'),
      lamports = r.u64(),
      space = r.u64(),
      owner = key(r);
    return ['createAccountWithSeed', { source: a[0], newAccount: a[1], base, seed, lamports: num(lamports), space: num(space), owner }];
  },
  (_, a) => (need(a, 3), ['advanceNonce', { nonceAccount: a[0], recentBlockhashesSysvar: a[1], nonceAuthority: a[2] }]),
  (r, a) => {
    need(a, 5);
    const info = { nonceAccount: a[0], destination: a[1], recentBlockhashesSysvar: a[2], rentSysvar: a[3], nonceAuthority: a[4] };
    return ['withdrawFromNonce', { ...info, lamports: num(r.u64()) }];
  },
  (r, a) => {
    need(a, 3);
    return ['initializeNonce', { nonceAccount: a[0], recentBlockhashesSysvar: a[1], rentSysvar: a[2], nonceAuthority: key(r) }];
  },
  (r, a) => (need(a, 2), ['authorizeNonce', { nonceAccount: a[0], nonceAuthority: a[1], newAuthorized: key(r) }]),
  (r, a) => (need(a, 1), ['allocate', { account: a[0], space: num(r.u64()) }]),
  (r, a) => {
    need(a, 2);
    const base = key(r),
      seed = r.bincodeString('seed'),
      space = r.u64(),
      owner = key(r);
    return ['allocateWithSeed', { account: a[0], base, seed, space: num(space), owner }];
  },
  (r, a) => {
    need(a, 2);
    const base = key(r),
      seed = r.bincodeString('seed'),
      owner = key(r);
    return ['assignWithSeed', { account: a[0], base, seed, owner }];
  },
  (r, a) => {
    need(a, 3);
    const lamports = r.u64(),
      sourceSeed = r.bincodeString('seed'),
      sourceOwner = key(r);
    return ['transferWithSeed', { source: a[0], sourceBase: a[1], destination: a[2], lamports: num(lamports), sourceSeed, sourceOwner }];
  },
  (_, a) => (need(a, 1), ['upgradeNonce', { nonceAccount: a[0] }]),
];

function parseSystem(d: Buffer, a: readonly string[]): Parsed {
  const r = new ByteReader(d);
  const handler = SYSTEM[r.u32('instruction tag')];
  if (handler === undefined) throw new Short();
  const [type, info] = handler(r, a);
  return { program: 'system', parsed: { type, info } };
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

/** A token amount with its decimals (the `...Checked` instructions). */
const checked = (r: ByteReader): unknown => {
  const amount = r.u64(),
    decimals = r.u8();
  return uiTokenAmount(amount, decimals);
};

/** SPL Token's (and Token-2022's) instructions by their u8 tag, those parsed here (Agave's parse_token). */
const TOKEN: Readonly<Record<number, Handler>> = {
  1: (_, a) => (need(a, 4), ['initializeAccount', { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] }]),
  3: (r, a) => (need(a, 3), ['transfer', signers({ source: a[0], destination: a[1], amount: r.u64().toString() }, 'authority', a, 2)]),
  4: (r, a) => (need(a, 3), ['approve', signers({ source: a[0], delegate: a[1], amount: r.u64().toString() }, 'owner', a, 2)]),
  5: (_, a) => (need(a, 2), ['revoke', signers({ source: a[0] }, 'owner', a, 1)]),
  7: (r, a) => (need(a, 3), ['mintTo', signers({ mint: a[0], account: a[1], amount: r.u64().toString() }, 'mintAuthority', a, 2)]),
  8: (r, a) => (need(a, 3), ['burn', signers({ account: a[0], mint: a[1], amount: r.u64().toString() }, 'authority', a, 2)]),
  9: (_, a) => (need(a, 3), ['closeAccount', signers({ account: a[0], destination: a[1] }, 'owner', a, 2)]),
  12: (r, a) => {
    need(a, 4);
    return ['transferChecked', signers({ source: a[0], mint: a[1], destination: a[2], tokenAmount: checked(r) }, 'authority', a, 3)];
  },
  14: (r, a) => (need(a, 3), ['mintToChecked', signers({ mint: a[0], account: a[1], tokenAmount: checked(r) }, 'mintAuthority', a, 2)]),
  15: (r, a) => (need(a, 3), ['burnChecked', signers({ account: a[0], mint: a[1], tokenAmount: checked(r) }, 'authority', a, 2)]),
  16: (r, a) => (need(a, 3), ['initializeAccount2', { account: a[0], mint: a[1], rentSysvar: a[2], owner: key(r) }]),
  17: (_, a) => (need(a, 1), ['syncNative', { account: a[0] }]),
  18: (r, a) => (need(a, 2), ['initializeAccount3', { account: a[0], mint: a[1], owner: key(r) }]),
  22: (_, a) => (need(a, 1), ['initializeImmutableOwner', { account: a[0] }]),
};

function parseToken(d: Buffer, a: readonly string[], program: string): Parsed {
  const r = new ByteReader(d);
  const tag = r.u8('instruction tag');
  const handler = Object.hasOwn(TOKEN, tag) ? TOKEN[tag] : undefined;
  if (handler === undefined) throw new Short();
  const [type, info] = handler(r, a);
  return { program, parsed: { type, info } };
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
