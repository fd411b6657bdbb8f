// Conversions between Yellowstone's messages and the event model, both directions, in one place:
// the yellowstone source uses the *FromYellowstone side, geyser.Geyser the *ToYellowstone side.
export { accountFromYellowstone, accountToYellowstone } from './account.js';
export { blockFromConfirmedBlock, blockToConfirmedBlock, type BlockEvents } from './block.js';
export { entryFromYellowstone, entryToYellowstone } from './entry.js';
export { uiAmountString } from './meta.js';
export {
  blockMetaFromYellowstone,
  blockMetaToYellowstone,
  slotFromYellowstone,
  slotStatusFromYellowstone,
  slotStatusToYellowstone,
  slotToYellowstone,
} from './slot.js';
export { ConfirmedBlock, SubscribeUpdate, SubscribeUpdateCodecs, YellowstoneSlotStatus } from './storage.js';
export {
  invokesVoteProgram,
  transactionFromParts,
  transactionFromYellowstone,
  transactionToParts,
  transactionToYellowstone,
  YellowstoneConversionError,
} from './transaction.js';
export { TransactionErrorCodecError, transactionErrorFromJson, transactionErrorToJson } from './transaction-error.js';
