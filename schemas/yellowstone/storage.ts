// Yellowstone's message codecs, from the published @triton-one/yellowstone-grpc package (never copied).
// The package's entry point is its gRPC client and loads a native module; the generated codecs (geyser
// and solana-storage, the latter outside the export map) are plain modules in the same package, so they
// are loaded from the package folder found through the entry point Node resolves. Types come from the
// package's declarations.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Geyser from '@triton-one/yellowstone-grpc';
import type { SubscribeUpdateBlockMeta, SubscribeUpdateTransactionInfo } from '@triton-one/yellowstone-grpc';

export type {
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

export interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

const require = createRequire(import.meta.url);
// .../dist/cjs/index.js -> .../dist/cjs/grpc/*.js (the CommonJS build of the generated codecs).
const grpcDir = path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc');
/** The package's geyser codecs, loaded once for every user here (conversion, the api's geyser.Geyser, the
 * yellowstone source's client). */
export const geyserCodecs = require(path.join(grpcDir, 'geyser.js')) as {
  SlotStatus: typeof Geyser.SlotStatus;
  SubscribeUpdate: MessageCodec<Geyser.SubscribeUpdate>;
  SubscribeUpdateAccount: MessageCodec<Geyser.SubscribeUpdateAccount>;
  SubscribeUpdateSlot: MessageCodec<Geyser.SubscribeUpdateSlot>;
  SubscribeUpdateTransaction: MessageCodec<Geyser.SubscribeUpdateTransaction>;
  SubscribeUpdateBlockMeta: MessageCodec<Geyser.SubscribeUpdateBlockMeta>;
  SubscribeUpdateEntry: MessageCodec<Geyser.SubscribeUpdateEntry>;
  SubscribeRequest: MessageCodec<Geyser.SubscribeRequest>;
  // SubscribeRequest's map entries (`{ key, value }`; value undefined when the entry has none).
  SubscribeRequest_AccountsEntry: MessageCodec<Geyser.SubscribeRequest_AccountsEntry>;
  SubscribeRequest_SlotsEntry: MessageCodec<Geyser.SubscribeRequest_SlotsEntry>;
  SubscribeRequest_TransactionsEntry: MessageCodec<Geyser.SubscribeRequest_TransactionsEntry>;
  SubscribeRequest_TransactionsStatusEntry: MessageCodec<Geyser.SubscribeRequest_TransactionsStatusEntry>;
  SubscribeRequest_BlocksEntry: MessageCodec<Geyser.SubscribeRequest_BlocksEntry>;
  SubscribeRequest_BlocksMetaEntry: MessageCodec<Geyser.SubscribeRequest_BlocksMetaEntry>;
  SubscribeRequest_EntryEntry: MessageCodec<Geyser.SubscribeRequest_EntryEntry>;
  SubscribeReplayInfoRequest: MessageCodec<Geyser.SubscribeReplayInfoRequest>;
  SubscribeReplayInfoResponse: MessageCodec<Geyser.SubscribeReplayInfoResponse>;
  PingRequest: MessageCodec<Geyser.PingRequest>;
  PongResponse: MessageCodec<Geyser.PongResponse>;
  GetLatestBlockhashRequest: MessageCodec<Geyser.GetLatestBlockhashRequest>;
  GetLatestBlockhashResponse: MessageCodec<Geyser.GetLatestBlockhashResponse>;
  GetBlockHeightRequest: MessageCodec<Geyser.GetBlockHeightRequest>;
  GetBlockHeightResponse: MessageCodec<Geyser.GetBlockHeightResponse>;
  GetSlotRequest: MessageCodec<Geyser.GetSlotRequest>;
  GetSlotResponse: MessageCodec<Geyser.GetSlotResponse>;
  GetVersionRequest: MessageCodec<Geyser.GetVersionRequest>;
  GetVersionResponse: MessageCodec<Geyser.GetVersionResponse>;
  IsBlockhashValidRequest: MessageCodec<Geyser.IsBlockhashValidRequest>;
  IsBlockhashValidResponse: MessageCodec<Geyser.IsBlockhashValidResponse>;
};
const geyser = geyserCodecs;
const storage = require(path.join(grpcDir, 'solana-storage.js')) as {
  ConfirmedBlock: MessageCodec<ConfirmedBlock>;
  TransactionStatusMeta: MessageCodec<TransactionStatusMeta>;
};

export const YellowstoneSlotStatus = geyser.SlotStatus;
export type YellowstoneSlotStatus = Geyser.SlotStatus;
export type SubscribeUpdate = Geyser.SubscribeUpdate;
/** Protobuf codecs of Yellowstone's messages (encode/decode/fromPartial), named after the messages. */
export const SubscribeUpdate = geyser.SubscribeUpdate;
export const SubscribeUpdateCodecs = {
  account: geyser.SubscribeUpdateAccount,
  slot: geyser.SubscribeUpdateSlot,
  transaction: geyser.SubscribeUpdateTransaction,
  blockMeta: geyser.SubscribeUpdateBlockMeta,
  entry: geyser.SubscribeUpdateEntry,
} as const;
export const ConfirmedBlock: MessageCodec<ConfirmedBlock> = storage.ConfirmedBlock;
export const TransactionStatusMetaCodec: MessageCodec<TransactionStatusMeta> = storage.TransactionStatusMeta;
