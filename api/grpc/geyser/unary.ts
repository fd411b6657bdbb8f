// geyser.Geyser's unary calls, answered from the live layer's chain state (the same slot statuses the
// commitment gate uses; behaviour.md "`geyser.Geyser`") and the topics. Each handler returns the response or
// throws a GeyserCallError with the gRPC status to answer.
import { status } from '@grpc/grpc-js';
import type * as G from '@triton-one/yellowstone-grpc';
import bs58 from 'bs58';
import { describeValue } from '../../../platform/describe-value.js';
import { decodeBase58Exact } from '../../../schemas/decode-input.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import type { TopicNames } from '../../../schemas/topics.js';
import { Commitment, commitmentOfLevelNumber } from '../../../schemas/commitment.js';
import { versionString } from '../version.js';
import { BLOCKHASH_VALID_BLOCKS, type ChainState, type StreamViews } from '../../live/index.js';
import { firstAvailableSlot } from './replay-info.js';

export class GeyserCallError extends Error {
  constructor(
    readonly code: status,
    readonly details: string,
  ) {
    super(details);
  }
}

/** Yellowstone's CommitmentLevel number to its name (the proto edge). Unset is processed; an unknown number is the client's mistake. */
export function levelOf(commitment: number | undefined): Commitment {
  if (commitment === undefined) return Commitment.processed;
  const level = commitmentOfLevelNumber(commitment);
  if (level !== undefined) return level;
  throw new GeyserCallError(status.INVALID_ARGUMENT, `failed to create CommitmentLevel from ${commitment}`);
}

export interface UnaryDeps {
  chain: ChainState;
  kafka: Kafka;
  topics: TopicNames;
  /** The views, when the process has them (SubscribeReplayInfo's exact answer). */
  views: StreamViews | undefined;
}

function notYet(what: string, level: Commitment): GeyserCallError {
  return new GeyserCallError(status.UNAVAILABLE, `no ${what} at ${level} seen yet`);
}

export function geyserUnary(d: UnaryDeps) {
  const block = (commitment: number | undefined) => {
    const level = levelOf(commitment);
    const b = d.chain.block(level);
    if (!b) throw notYet('block', level);
    return b;
  };
  return {
    ping: (req: G.PingRequest): G.PongResponse => ({ count: req.count }),
    getVersion: (): G.GetVersionResponse => ({ version: versionString() }),
    getSlot: (req: G.GetSlotRequest): G.GetSlotResponse => {
      const level = levelOf(req.commitment);
      const slot = d.chain.slot(level);
      if (slot === undefined) throw notYet('slot', level);
      return { slot: slot.toString() };
    },
    getBlockHeight: (req: G.GetBlockHeightRequest): G.GetBlockHeightResponse => ({
      blockHeight: block(req.commitment).blockHeight.toString(),
    }),
    getLatestBlockhash: (req: G.GetLatestBlockhashRequest): G.GetLatestBlockhashResponse => {
      const b = block(req.commitment);
      // Valid while within the last 150 blocks (Agave's MAX_PROCESSING_AGE), as isBlockhashValid decides.
      return {
        slot: b.slot.toString(),
        blockhash: bs58.encode(b.blockhash),
        lastValidBlockHeight: (b.blockHeight + BLOCKHASH_VALID_BLOCKS).toString(),
      };
    },
    isBlockhashValid: (req: G.IsBlockhashValidRequest): G.IsBlockhashValidResponse => {
      const level = levelOf(req.commitment);
      const hash = decodeBase58Exact(req.blockhash ?? '', 32);
      if (!hash.ok)
        throw new GeyserCallError(
          status.INVALID_ARGUMENT,
          `invalid blockhash ${describeValue(req.blockhash ?? '', 64)}: not base58 of 32 bytes`,
        );
      const slot = d.chain.slot(level);
      if (slot === undefined) throw notYet('slot', level);
      return { slot: slot.toString(), valid: d.chain.isBlockhashValid(hash.bytes, level) };
    },
    subscribeReplayInfo: async (): Promise<G.SubscribeReplayInfoResponse> => {
      const first = await firstAvailableSlot(d.kafka, d.topics, d.views);
      return first === undefined ? {} : { firstAvailable: first.toString() };
    },
  };
}
