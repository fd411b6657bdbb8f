// Agave's TokenAccountState filter (also Yellowstone's `token_account_state`): the data is an initialized
// token account of SPL Token or Token-2022. Layout facts (SPL Token's Account):
// 165 bytes, its `state` byte at offset 108 (0 = uninitialized); Token-2022 accounts with extensions are
// longer and carry their account type (2 = account) right after those 165 bytes. A Token-2022 multisig is
// 355 bytes, a length no extended account may have, so that length is never an account.
const ACCOUNT_LEN = 165;
const STATE_OFFSET = 108;
const MULTISIG_LEN = 355;
const ACCOUNT_TYPE_ACCOUNT = 2;

export function isTokenAccountData(data: Uint8Array): boolean {
  if (data.length < ACCOUNT_LEN || data[STATE_OFFSET] === 0) return false;
  if (data.length === ACCOUNT_LEN) return true;
  return data.length !== MULTISIG_LEN && data[ACCOUNT_LEN] === ACCOUNT_TYPE_ACCOUNT;
}
