// Agave's TokenAccountState filter (also Yellowstone's `token_account_state`): the data is an initialized
// token account of SPL Token or Token-2022. One rule for every role: schemas/programs.ts (the projector's
// wallet index and getTokenAccountsByOwner use the same check).
export { isTokenAccountData } from '../../schemas/programs.js';
