// Yellowstone's message codecs, from the published @triton-one/yellowstone-grpc package (never copied).
// Its entry point exports the geyser messages; the solana-storage codecs (ConfirmedBlock, which the
// geyser messages embed) ship in the same package but outside its export map, so they are loaded from
// the package's own folder, found through the entry point Node resolves.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SubscribeUpdateBlockMeta, SubscribeUpdateTransactionInfo } from '@triton-one/yellowstone-grpc';

export {
  SlotStatus as YellowstoneSlotStatus,
  SubscribeUpdate,
  SubscribeUpdateAccount,
  SubscribeUpdateAccountInfo,
  SubscribeUpdateBlockMeta,
  SubscribeUpdateEntry,
  SubscribeUpdateSlot,
  SubscribeUpdateTransaction,
  SubscribeUpdateTransactionInfo,
} from '@triton-one/yellowstone-grpc';

export type Transaction = NonNullable<SubscribeUpdateTransactionInfo['transaction']>;
export type Message = NonNullable<Transaction['message']>;
export type TransactionStatusMeta = NonNullable<SubscribeUpdateTransactionInfo['meta']>;
export type Rewards = NonNullable<SubscribeUpdateBlockMeta['rewards']>;
export type Reward = Rewards['rewards'][number];
export type TokenBalance = TransactionStatusMeta['preTokenBalances'][number];
export type UnixTimestamp = NonNullable<SubscribeUpdateBlockMeta['blockTime']>;
export type BlockHeight = NonNullable<SubscribeUpdateBlockMeta['blockHeight']>;

/** solana.storage.ConfirmedBlock (what Agave's Bigtable archive and Yellowstone's fixtures hold). */
export interface ConfirmedBlock {
  previousBlockhash: string;
  blockhash: string;
  parentSlot: string;
  transactions: { transaction: Transaction | undefined; meta: TransactionStatusMeta | undefined }[];
  rewards: Reward[];
  blockTime: UnixTimestamp | undefined;
  blockHeight: BlockHeight | undefined;
  numPartitions: { numPartitions: string } | undefined;
}

interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

const require = createRequire(import.meta.url);
// .../dist/cjs/index.js -> .../dist/cjs/grpc/solana-storage.js (the CommonJS build of the same codecs).
const storage = require(path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc', 'solana-storage.js')) as {
  ConfirmedBlock: MessageCodec<ConfirmedBlock>;
};

export const ConfirmedBlock: MessageCodec<ConfirmedBlock> = storage.ConfirmedBlock;
