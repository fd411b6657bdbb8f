// getBlock: one block with its transactions (full, signatures, accounts or none), rewards and meta, in
// Agave's encodings. Agave's rules: at or below the finalized head a produced block answers, a slot older
// than the oldest block held is -32001 (cleaned up), one without a block -32007 (skipped); above it, with
// commitment confirmed, a block up to the confirmed head answers; anything else is -32004 (not available).
// Processed is refused. Slots marked skipped (a lost fork) have no block here.
import bs58 from 'bs58';
import { BlockMeta, TransactionEvent } from '../../../schemas/codec.js';
import { base58Key } from '../../../schemas/base58.js';
import { base58Signature, type HeadBlock } from '../../head/head-cache.js';
import { HEAD_MISS, type HeadContext } from '../head.js';
import { blockCleanedUp, blockNotAvailable, slotSkipped } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { optionalBool, parseContextConfig, parseU64, positional, type Commitment } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import {
  decodeBody,
  parseEncodingConfig,
  parseMaxSupportedVersion,
  parseTransactionEncoding,
  type TransactionEncoding,
} from '../../solana-json/transactions.js';
import { parseTransactionDetails, uiConfirmedBlock, type BlockHeader, type TransactionDetails } from '../../solana-json/block.js';

export type { TransactionDetails };

export interface GetBlockParams {
  slot: bigint;
  encoding: TransactionEncoding;
  transactionDetails: TransactionDetails;
  rewards: boolean;
  commitment: Commitment;
  maxSupportedVersion: number | undefined;
}

export function parseGetBlock(params: unknown): GetBlockParams {
  const p = positional(params, 1, 2);
  const slot = parseU64(p[0], 'slot');
  const config = parseEncodingConfig(p[1]);
  return {
    slot,
    encoding: parseTransactionEncoding(config.encoding),
    transactionDetails: parseTransactionDetails(config.transactionDetails),
    rewards: optionalBool(config, 'rewards') ?? true,
    commitment: parseContextConfig(config, true).commitment,
    maxSupportedVersion: parseMaxSupportedVersion(config.maxSupportedTransactionVersion),
  };
}

// The block row unless its slot was later marked skipped, with its details (LEFT JOIN: '' when absent).
export const BLOCK_SQL = `
SELECT b.parent_slot AS parent_slot, b.blockhash AS blockhash, b.block_height AS block_height, b.block_time AS block_time,
       d.previous_blockhash AS previous_blockhash, d.rewards AS rewards, d.num_partitions AS num_partitions, d.slot = b.slot AS has_details,
       (SELECT any(blockhash) FROM {db:Identifier}.blocks WHERE slot IN (SELECT parent_slot FROM {db:Identifier}.blocks WHERE slot = {slot:UInt64})) AS parent_blockhash
FROM (SELECT * FROM {db:Identifier}.blocks WHERE slot = {slot:UInt64}
        AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE slot = {slot:UInt64} AND status = 3)
      LIMIT 1) AS b
LEFT JOIN (SELECT * FROM {db:Identifier}.block_details WHERE slot = {slot:UInt64} LIMIT 1) AS d ON d.slot = b.slot`;

/** The slot's transactions in block order (LIMIT 1 BY drops rows re-delivered before a merge). */
export const BODIES_SQL = `
SELECT base64Encode(record) AS body FROM {db:Identifier}.transaction_records WHERE slot = {slot:UInt64} ORDER BY position LIMIT 1 BY position`;
export const SIGNATURES_SQL = `
SELECT signature FROM {db:Identifier}.transaction_records WHERE slot = {slot:UInt64} ORDER BY position LIMIT 1 BY position`;

interface BlockRow {
  parent_slot: string;
  blockhash: string;
  block_height: string;
  block_time: string | null;
  previous_blockhash: string;
  rewards: string;
  num_partitions: string | null;
  parent_blockhash: string | null;
  /** false: the block was projected before 003_transaction_bodies.sql existed (no details, no bodies) */
  has_details: boolean | number;
}

const UNAVAILABLE = 'Block information unavailable';

export const getBlock = defineMethod<GetBlockParams>({
  name: 'getBlock',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlock,
  run: async (ctx, p) => {
    const { finalized, confirmed } = ctx.state.head;
    const inFinalized = finalized !== undefined && p.slot <= finalized;
    const inConfirmed = p.commitment === 'confirmed' && confirmed !== undefined && p.slot <= confirmed;
    if (!inFinalized && !inConfirmed) throw blockNotAvailable(p.slot);
    const args = { db: ctx.db, slot: p.slot };
    const details = p.transactionDetails;
    const [blocks, txRows] = await Promise.all([
      queryRows<BlockRow>(ctx.ch, BLOCK_SQL, args),
      details === 'none'
        ? Promise.resolve([])
        : queryRows<{ body?: string; signature?: string }>(ctx.ch, details === 'signatures' ? SIGNATURES_SQL : BODIES_SQL, args),
    ]);
    const b = blocks[0];
    if (b === undefined) {
      if (!inFinalized) throw blockNotAvailable(p.slot);
      const oldest = ctx.state.oldestBlock;
      if (oldest !== undefined && p.slot < oldest) throw blockCleanedUp(p.slot, oldest);
      throw slotSkipped(p.slot);
    }
    // Stored before the transaction views existed: its transactions are not here (until `projector rebuild`).
    if (!b.has_details) throw blockNotAvailable(p.slot);
    return shapeBlock(p, b, txRows);
  },
  fromHead: (h, p) => blockFromHead(h, p),
});

/**
 * getBlock from the head cache, by the rules of `run` on its heads. Only a slot at or above the cache's floor
 * (every transaction of it the views could hold is held) is answered, and a produced block only once complete.
 */
function blockFromHead(h: HeadContext, p: GetBlockParams): unknown {
  const { finalized, confirmed } = h.state.head;
  if (finalized === undefined) return HEAD_MISS;
  const inFinalized = p.slot <= finalized;
  const inConfirmed = p.commitment === 'confirmed' && confirmed !== undefined && p.slot <= confirmed;
  if (!inFinalized && !inConfirmed) throw blockNotAvailable(p.slot);
  const floor = h.cache.floor;
  if (floor === undefined || p.slot < floor) return HEAD_MISS;
  const b = h.cache.block(p.slot);
  if (b === undefined || b.dead) {
    if (!inFinalized) throw blockNotAvailable(p.slot);
    // Skipped, unless older than every block there is (cleaned up, -32001): only the views know their oldest.
    if (!(p.slot > (h.cache.oldestBlock()?.slot ?? p.slot))) return HEAD_MISS;
    throw slotSkipped(p.slot);
  }
  const txs = h.cache.transactions(p.slot);
  if (txs === undefined) return HEAD_MISS;
  const header = headHeader(h, b, p.rewards);
  if (header === undefined) return HEAD_MISS;
  return uiConfirmedBlock(
    { encoding: p.encoding, transactionDetails: p.transactionDetails, rewards: p.rewards, maxSupportedVersion: p.maxSupportedVersion },
    header,
    () => txs.map((t) => TransactionEvent.decode(t.bytes)),
    () => txs.map(base58Signature),
  );
}

/** Pure: the header the views' rows make of a held block (blocks, block_details, the parent's blockhash). */
function headHeader(h: HeadContext, b: HeadBlock, rewards: boolean): BlockHeader | undefined {
  const m = b.meta;
  let previousBlockhash = m.previousBlockhash.length === 32 ? base58Key(m.previousBlockhash) : '';
  if (previousBlockhash === '') {
    // The views take the parent's block row, if any: below the held metas that cannot be told.
    if (h.cache.metaFloor === undefined || m.parentSlot < h.cache.metaFloor) return undefined;
    const parent = h.cache.block(m.parentSlot);
    previousBlockhash = parent === undefined ? '' : bs58.encode(parent.meta.blockhash);
  }
  return {
    slot: b.slot,
    parentSlot: m.parentSlot,
    blockhash: bs58.encode(m.blockhash),
    previousBlockhash,
    blockHeight: m.blockHeight,
    blockTime: m.blockTime === undefined ? null : m.blockTime,
    rewards: rewards ? m.rewards : [],
    numPartitions: m.numPartitions,
  };
}

/** Pure: the stored block in Agave's UiConfirmedBlock (api/solana-json/block.ts, shared with blockSubscribe). */
export function shapeBlock(
  p: Omit<GetBlockParams, 'slot' | 'commitment'> & { slot: bigint },
  b: BlockRow,
  txRows: readonly { body?: string; signature?: string }[],
): unknown {
  const header: BlockHeader = {
    slot: p.slot,
    parentSlot: u64(b.parent_slot),
    blockhash: b.blockhash,
    previousBlockhash:
      b.previous_blockhash !== '' && b.previous_blockhash !== undefined ? b.previous_blockhash : (b.parent_blockhash ?? ''),
    blockHeight: u64(b.block_height),
    blockTime: b.block_time === null ? null : u64(b.block_time),
    rewards: p.rewards && b.rewards ? BlockMeta.decode(Buffer.from(b.rewards, 'base64')).rewards : [],
    numPartitions: b.num_partitions === null || b.num_partitions === undefined ? undefined : u64(b.num_partitions),
  };
  return uiConfirmedBlock(
    { encoding: p.encoding, transactionDetails: p.transactionDetails, rewards: p.rewards, maxSupportedVersion: p.maxSupportedVersion },
    header,
    () => txRows.map((r) => decodeBody(r.body!)),
    () => txRows.map((r) => r.signature!),
  );
}
