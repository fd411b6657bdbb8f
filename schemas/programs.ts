// Well-known program ids and account layouts that more than one role reads (the projector indexes
// token accounts, JSON-RPC decodes them). Values are Solana's, base58.

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
// The other programs and sysvars the simulator's chain uses, written once here (a misspelt copy in the
// simulator once left the real token program owning nothing there: issue 18, item 6).
export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
export const BPF_LOADER_UPGRADEABLE = 'BPFLoaderUpgradeab1e11111111111111111111111';
export const BPF_LOADER_2 = 'BPFLoader2111111111111111111111111111111111';
export const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
export const METADATA_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
export const SYSVAR_RENT = 'SysvarRent111111111111111111111111111111111';
export const SYSVAR_CLOCK = 'SysvarC1ock11111111111111111111111111111111';
export const SYSVAR_SLOT_HASHES = 'SysvarS1otHashes111111111111111111111111111';
/** Wrapped SOL: a mint of the Token program whose decimals (9) are known without reading it. */
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
export const NATIVE_MINT_DECIMALS = 9;

export const isTokenProgram = (owner: string): boolean => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

/** SPL token account layout (Token and the base of Token-2022). */
export const TOKEN_ACCOUNT_LEN = 165;
export const TOKEN_MINT_LEN = 82;
export const TOKEN_MULTISIG_LEN = 355;
/** Token-2022: the account-type byte after the base state (1 mint, 2 account), then TLV extensions. */
export const ACCOUNT_TYPE_OFFSET = 165;
export const ACCOUNT_TYPE_MINT = 1;
export const ACCOUNT_TYPE_ACCOUNT = 2;
const STATE_OFFSET = 108;

/**
 * Whether `data` is an initialized token account, as the token programs decide it: exactly 165 bytes, or
 * longer (Token-2022 extensions) with the account-type byte saying "account"; its state byte not 0.
 */
export function isTokenAccountData(data: Uint8Array): boolean {
  if (data.length < TOKEN_ACCOUNT_LEN) return false;
  if (data.length > TOKEN_ACCOUNT_LEN && (data.length === TOKEN_MULTISIG_LEN || data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_ACCOUNT))
    return false;
  return data[STATE_OFFSET] !== 0;
}
