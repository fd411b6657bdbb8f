// The transaction-meta part of TransactionEvent (fields 19-30 of events.proto) as one type, so sources
// that build the message part and the meta part separately (wire bytes, file lines, Yellowstone) can
// join them, and sources without meta can say "none recorded" in one place.
import type { TransactionEvent } from './gen/events.js';

export const TRANSACTION_META_FIELDS = [
  'preBalances',
  'postBalances',
  'preTokenBalances',
  'postTokenBalances',
  'innerInstructions',
  'logMessages',
  'computeUnitsConsumed',
  'returnData',
  'innerInstructionsNone',
  'logMessagesNone',
  'rewards',
  'costUnits',
] as const satisfies readonly (keyof TransactionEvent)[];

export type TransactionMeta = Pick<TransactionEvent, (typeof TRANSACTION_META_FIELDS)[number]>;

/** Meta of a transaction whose source recorded none: empty lists, no values, and the `none` flags set
 * (Agave's None), so a relay does not turn "not recorded" into "recorded empty". */
export function noTransactionMeta(): TransactionMeta {
  return {
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    innerInstructions: [],
    logMessages: [],
    computeUnitsConsumed: undefined,
    returnData: undefined,
    innerInstructionsNone: true,
    logMessagesNone: true,
    rewards: [],
    costUnits: undefined,
  };
}
