// SPL Token and Token-2022 account data decoded into the `jsonParsed` shape of Agave's account decoder
// (program "spl-token" / "spl-token-2022", `parsed: {info, type}`, `space`), and token amounts in its
// UiTokenAmount form. Pure: bytes in, JSON values out; undefined where Agave's decoder would fail (the
// caller then falls back to base64 or leaves the account out, as Agave does).
import bs58 from 'bs58';
import {
  ACCOUNT_TYPE_ACCOUNT,
  ACCOUNT_TYPE_MINT,
  ACCOUNT_TYPE_OFFSET,
  TOKEN_2022_PROGRAM,
  TOKEN_ACCOUNT_LEN,
  TOKEN_MINT_LEN,
  TOKEN_MULTISIG_LEN,
} from '../../schemas/programs.js';
import { u64Json } from './json.js';
import { asBuffer } from '../../schemas/bytes.js';

export interface UiTokenAmount {
  uiAmount: number | null;
  decimals: number;
  amount: string;
  uiAmountString: string;
}

/** Agave's token_amount_to_ui_amount: the float and the exact decimal string (trailing zeros trimmed). */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString();
  let uiAmountString = digits;
  if (decimals > 0) {
    const padded = digits.padStart(decimals + 1, '0');
    uiAmountString = `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`.replace(/0+$/, '').replace(/\.$/, '');
  }
  // Agave divides by 10^decimals computed as a 64-bit integer: from 20 decimals on it overflows, and uiAmount is null.
  const uiAmount = decimals < 20 ? Number(amount) / 10 ** decimals : null;
  return { uiAmount, decimals, amount: digits, uiAmountString };
}

/**
 * A transaction meta token balance's UiTokenAmount as Agave answers it: the meta is read back from its
 * storage protobuf, whose `From<generated::TokenBalance>` (storage-proto/src/convert.rs) keeps `ui_amount`
 * only when its absolute value exceeds f64::EPSILON, so a zero (or vanishing) balance has `uiAmount: null`.
 * Accounts (getTokenAccountBalance, jsonParsed) are not read from storage and keep `uiTokenAmount`'s rule.
 */
export function storedUiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const ui = uiTokenAmount(amount, decimals);
  return ui.uiAmount !== null && Math.abs(ui.uiAmount) > Number.EPSILON ? ui : { ...ui, uiAmount: null };
}

const key = (d: Uint8Array, at: number): string => bs58.encode(d.subarray(at, at + 32));
const u64At = (d: Uint8Array, at: number): bigint => asBuffer(d).readBigUInt64LE(at);
const u32At = (d: Uint8Array, at: number): number => asBuffer(d).readUInt32LE(at);

/** COption<Pubkey> (u32 tag, then the key): undefined for None, null when the tag is invalid. */
function optionKey(d: Uint8Array, at: number): string | undefined | null {
  const tag = u32At(d, at);
  return tag === 0 ? undefined : tag === 1 ? key(d, at + 4) : null;
}

/** OptionalNonZeroPubkey of Token-2022 extensions: all zeros means none. */
const nonZeroKey = (d: Uint8Array, at: number): string | null => (d.subarray(at, at + 32).every((b) => b === 0) ? null : key(d, at));

const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | undefined;
  state: (typeof ACCOUNT_STATES)[number];
  /** Rent-exempt reserve of a native (wrapped SOL) account. */
  isNative: bigint | undefined;
  delegatedAmount: bigint;
  closeAuthority: string | undefined;
  tlv: Tlv[] | undefined;
}

interface Tlv {
  type: number;
  value: Uint8Array;
}

/**
 * The extension list after the account-type byte. Token-2022 stops at a zero type (padding); an unknown
 * type or a length past the end makes the whole list unreadable, and Agave then shows no extensions.
 */
function readTlv(d: Uint8Array): Tlv[] | undefined {
  const out: Tlv[] = [];
  let at = ACCOUNT_TYPE_OFFSET + 1;
  while (at + 4 <= d.length) {
    const type = d[at]! | (d[at + 1]! << 8);
    if (type === 0) break;
    const len = d[at + 2]! | (d[at + 3]! << 8);
    if (type > MAX_EXTENSION_TYPE || at + 4 + len > d.length) return undefined;
    out.push({ type, value: d.subarray(at + 4, at + 4 + len) });
    at += 4 + len;
  }
  return out;
}
const MAX_EXTENSION_TYPE = 27; // PausableAccount, the newest type this decoder knows

/** The base state and extensions of a token account, or undefined when the token programs would refuse it. */
export function unpackTokenAccount(d: Uint8Array): TokenAccountState | undefined {
  if (d.length < TOKEN_ACCOUNT_LEN) return undefined;
  let tlv: Tlv[] | undefined = [];
  if (d.length > TOKEN_ACCOUNT_LEN) {
    if (d.length === TOKEN_MULTISIG_LEN || d[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_ACCOUNT) return undefined;
    tlv = readTlv(d);
  }
  const delegate = optionKey(d, 72);
  const stateByte = d[108]!;
  const nativeTag = u32At(d, 109);
  const closeAuthority = optionKey(d, 129);
  if (delegate === null || closeAuthority === null || nativeTag > 1 || stateByte === 0 || stateByte > 2) return undefined;
  return {
    mint: key(d, 0),
    owner: key(d, 32),
    amount: u64At(d, 64),
    delegate,
    state: ACCOUNT_STATES[stateByte]!,
    isNative: nativeTag === 1 ? u64At(d, 113) : undefined,
    delegatedAmount: u64At(d, 121),
    closeAuthority,
    tlv,
  };
}

export interface MintState {
  mintAuthority: string | undefined;
  supply: bigint;
  decimals: number;
  freezeAuthority: string | undefined;
  tlv: Tlv[] | undefined;
}

/** A mint: exactly 82 bytes, or Token-2022's zero padding to 165, the type byte "mint" and extensions. */
export function unpackMint(d: Uint8Array): MintState | undefined {
  if (d.length < TOKEN_MINT_LEN) return undefined;
  let tlv: Tlv[] | undefined = [];
  if (d.length > TOKEN_MINT_LEN) {
    if (d.length <= ACCOUNT_TYPE_OFFSET || d.length === TOKEN_MULTISIG_LEN || d[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_MINT)
      return undefined;
    if (!d.subarray(TOKEN_MINT_LEN, ACCOUNT_TYPE_OFFSET).every((b) => b === 0)) return undefined;
    tlv = readTlv(d);
  }
  const mintAuthority = optionKey(d, 0);
  const freezeAuthority = optionKey(d, 46);
  if (mintAuthority === null || freezeAuthority === null || d[45] !== 1) return undefined;
  return { mintAuthority, supply: u64At(d, 36), decimals: d[44]!, freezeAuthority, tlv };
}

/** Decimals of a mint account's data (the wrapped-SOL mint is known without it). */
export const mintDecimals = (d: Uint8Array): number | undefined => unpackMint(d)?.decimals;

type UiExtension = { extension: string; state?: unknown };

const bool = (v: Uint8Array, at = 0): boolean => v[at] === 1;
const i16At = (v: Uint8Array, at: number): number => asBuffer(v).readInt16LE(at);
const i64At = (v: Uint8Array, at: number): number => Number(asBuffer(v).readBigInt64LE(at));
const transferFee = (v: Uint8Array, at: number) => ({
  epoch: u64Json(u64At(v, at)),
  maximumFee: u64Json(u64At(v, at + 8)),
  transferFeeBasisPoints: v[at + 16]! | (v[at + 17]! << 8),
});

// Extensions this decoder shapes, by type number, with the byte length each needs and the side (account or
// mint) it belongs to; Agave shows an extension of the other side, or a short one, as unparseable.
const EXTENSIONS: Readonly<Record<number, { name: string; side: 'account' | 'mint'; len: number; state?: (v: Uint8Array) => unknown }>> = {
  1: {
    name: 'transferFeeConfig',
    side: 'mint',
    len: 108,
    state: (v) => ({
      transferFeeConfigAuthority: nonZeroKey(v, 0),
      withdrawWithheldAuthority: nonZeroKey(v, 32),
      withheldAmount: u64Json(u64At(v, 64)),
      olderTransferFee: transferFee(v, 72),
      newerTransferFee: transferFee(v, 90),
    }),
  },
  2: { name: 'transferFeeAmount', side: 'account', len: 8, state: (v) => ({ withheldAmount: u64Json(u64At(v, 0)) }) },
  3: { name: 'mintCloseAuthority', side: 'mint', len: 32, state: (v) => ({ closeAuthority: nonZeroKey(v, 0) }) },
  6: { name: 'defaultAccountState', side: 'mint', len: 1, state: (v) => ({ accountState: ACCOUNT_STATES[v[0]!] ?? 'uninitialized' }) },
  7: { name: 'immutableOwner', side: 'account', len: 0 },
  8: { name: 'memoTransfer', side: 'account', len: 1, state: (v) => ({ requireIncomingTransferMemos: bool(v) }) },
  9: { name: 'nonTransferable', side: 'mint', len: 0 },
  10: {
    name: 'interestBearingConfig',
    side: 'mint',
    len: 52,
    state: (v) => ({
      rateAuthority: nonZeroKey(v, 0),
      initializationTimestamp: i64At(v, 32),
      preUpdateAverageRate: i16At(v, 40),
      lastUpdateTimestamp: i64At(v, 42),
      currentRate: i16At(v, 50),
    }),
  },
  11: { name: 'cpiGuard', side: 'account', len: 1, state: (v) => ({ lockCpi: bool(v) }) },
  12: { name: 'permanentDelegate', side: 'mint', len: 32, state: (v) => ({ delegate: nonZeroKey(v, 0) }) },
  13: { name: 'nonTransferableAccount', side: 'account', len: 0 },
  14: { name: 'transferHook', side: 'mint', len: 64, state: (v) => ({ authority: nonZeroKey(v, 0), programId: nonZeroKey(v, 32) }) },
  15: { name: 'transferHookAccount', side: 'account', len: 1, state: (v) => ({ transferring: bool(v) }) },
  18: {
    name: 'metadataPointer',
    side: 'mint',
    len: 64,
    state: (v) => ({ authority: nonZeroKey(v, 0), metadataAddress: nonZeroKey(v, 32) }),
  },
  20: { name: 'groupPointer', side: 'mint', len: 64, state: (v) => ({ authority: nonZeroKey(v, 0), groupAddress: nonZeroKey(v, 32) }) },
  22: {
    name: 'groupMemberPointer',
    side: 'mint',
    len: 64,
    state: (v) => ({ authority: nonZeroKey(v, 0), memberAddress: nonZeroKey(v, 32) }),
  },
  19: { name: 'tokenMetadata', side: 'mint', len: 64, state: tokenMetadata },
  21: {
    name: 'tokenGroup',
    side: 'mint',
    len: 80,
    state: (v) => ({
      updateAuthority: nonZeroKey(v, 0),
      mint: key(v, 32),
      size: u64Json(u64At(v, 64)),
      maxSize: u64Json(u64At(v, 72)),
    }),
  },
  23: {
    name: 'tokenGroupMember',
    side: 'mint',
    len: 72,
    state: (v) => ({ mint: key(v, 0), group: key(v, 32), memberNumber: u64Json(u64At(v, 64)) }),
  },
  26: { name: 'pausableConfig', side: 'mint', len: 33, state: (v) => ({ authority: nonZeroKey(v, 0), paused: bool(v, 32) }) },
  27: { name: 'pausableAccount', side: 'account', len: 0 },
};

/**
 * The token-metadata extension (borsh: update authority, mint, name, symbol, uri as u32-length UTF-8 strings,
 * then u32-counted key/value pairs); undefined, shown as unparseable, when it does not decode.
 */
function tokenMetadata(v: Uint8Array): unknown {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let at = 64;
  const u32 = (): number => {
    if (at + 4 > v.length) throw new RangeError('metadata ends early');
    const n = u32At(v, at);
    at += 4;
    return n;
  };
  const str = (): string => {
    const n = u32();
    if (at + n > v.length) throw new RangeError('metadata ends early');
    const s = utf8.decode(v.subarray(at, at + n));
    at += n;
    return s;
  };
  try {
    const out = {
      updateAuthority: nonZeroKey(v, 0),
      mint: key(v, 32),
      name: str(),
      symbol: str(),
      uri: str(),
      additionalMetadata: [] as [string, string][],
    };
    for (let n = u32(); n > 0; n--) out.additionalMetadata.push([str(), str()]);
    return out;
  } catch {
    return undefined;
  }
}

function uiExtensions(tlv: Tlv[] | undefined, side: 'account' | 'mint'): UiExtension[] {
  return (tlv ?? []).map(({ type, value }) => {
    const x = EXTENSIONS[type];
    if (x === undefined || x.side !== side || value.length < x.len) return { extension: 'unparseableExtension' };
    if (x.state === undefined) return { extension: x.name };
    const state = x.state(value);
    return state === undefined ? { extension: 'unparseableExtension' } : { extension: x.name, state };
  });
}

const programName = (program: string): string => (program === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token');

/**
 * Agave's `jsonParsed` for data owned by a token program: a token account (needs its mint's decimals),
 * a mint or a multisig. Undefined when Agave's parser fails (including a token account whose mint is unknown).
 */
export function parseTokenProgramAccount(data: Uint8Array, program: string, decimals: number | undefined): unknown {
  const wrap = (type: string, info: unknown) => ({ program: programName(program), parsed: { info, type }, space: data.length });
  const acc = unpackTokenAccount(data);
  if (acc !== undefined) {
    if (decimals === undefined) return undefined;
    const info: Record<string, unknown> = { mint: acc.mint, owner: acc.owner, tokenAmount: uiTokenAmount(acc.amount, decimals) };
    if (acc.delegate !== undefined) info.delegate = acc.delegate;
    info.state = acc.state;
    info.isNative = acc.isNative !== undefined;
    if (acc.isNative !== undefined) info.rentExemptReserve = uiTokenAmount(acc.isNative, decimals);
    if (acc.delegate !== undefined) info.delegatedAmount = uiTokenAmount(acc.delegatedAmount, decimals);
    if (acc.closeAuthority !== undefined) info.closeAuthority = acc.closeAuthority;
    const extensions = uiExtensions(acc.tlv, 'account');
    if (extensions.length > 0) info.extensions = extensions;
    return wrap('account', info);
  }
  const mint = unpackMint(data);
  if (mint !== undefined) {
    const info: Record<string, unknown> = {
      mintAuthority: mint.mintAuthority ?? null,
      supply: mint.supply.toString(),
      decimals: mint.decimals,
      isInitialized: true,
      freezeAuthority: mint.freezeAuthority ?? null,
    };
    const extensions = uiExtensions(mint.tlv, 'mint');
    if (extensions.length > 0) info.extensions = extensions;
    return wrap('mint', info);
  }
  if (data.length === TOKEN_MULTISIG_LEN && data[2] === 1) {
    const signers: string[] = [];
    for (let i = 0; i < 11; i++) {
      const at = 3 + i * 32;
      if (!data.subarray(at, at + 32).every((b) => b === 0)) signers.push(key(data, at));
    }
    return wrap('multisig', { numRequiredSigners: data[0], numValidSigners: data[1], isInitialized: true, signers });
  }
  return undefined;
}
