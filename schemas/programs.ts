// Well-known program ids and account layouts that more than one role reads (the projector indexes
// token accounts, JSON-RPC decodes them). Values are Solana's, base58.

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
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
  if (data.length > TOKEN_ACCOUNT_LEN && (data.length === TOKEN_MULTISIG_LEN || data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_ACCOUNT)) return false;
  return data[STATE_OFFSET] !== 0;
}
