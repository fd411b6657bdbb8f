// geyser.Geyser's bytes for one shared live update: each SubscribeUpdate is encoded WITHOUT `filters` once per
// variant (`SharedEvent.encoded`, keys `geyser/...`) and shared by every geyser stream; each stream puts its
// own `filters` prefix in front. Yellowstone's `filters` is field 1 like stream.proto's, so the host's prefix
// encoder (api/grpc/filters-prefix.ts) serves both (a concatenation of encoded fields is one valid message).
// Conversions from the event model are schemas/yellowstone/'s.
import type { SubscribeUpdate, SubscribeUpdateAccountInfo, SubscribeUpdateBlock } from '@triton-one/yellowstone-grpc';
import type { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import {
  accountToYellowstone,
  blockMetaToYellowstone,
  entryToYellowstone,
  slotToYellowstone,
  transactionToYellowstone,
} from '../../../schemas/yellowstone/index.js';
import { reframeYellowstoneTransaction } from '../../../schemas/yellowstone/reframe-transaction.js';
import { transactionErrorFromJson } from '../../../schemas/yellowstone/transaction-error.js';
import { dataSliceKey, keyId, type CompiledBlocksFilter, type DataSlice } from '../../filters/index.js';
import { transactionView } from '../../filters/match.js';
import type { AssembledBlock } from '../../live/block-assembler.js';
import type { SharedEvent } from '../../live/index.js';
import { SubscribeUpdateCodec } from './codecs.js';
import { yellowstoneSlice } from './slices.js';
import { asBuffer } from '../../../schemas/bytes.js';

type Body = Omit<Partial<SubscribeUpdate>, 'filters'>;

function encode(body: Body, createdAtMs: number): Buffer {
  const bytes = SubscribeUpdateCodec.encode({ filters: [], ...body, createdAt: new Date(createdAtMs) }).finish();
  return asBuffer(bytes);
}

export function encodePing(): Buffer {
  return encode({ ping: {} }, Date.now());
}

export function encodePong(id: number): Buffer {
  return encode({ pong: { id } }, Date.now());
}

function accountInfo(e: AccountEvent, slices: readonly DataSlice[]): SubscribeUpdateAccountInfo {
  const info = accountToYellowstone(e).account!;
  return slices.length === 0 ? info : { ...info, data: yellowstoneSlice(e.data, slices) };
}

/** A live transaction is re-framed from its record's bytes (no full decode); a replayed one is converted. */
export const transactionBody = (u: SharedEvent): Buffer =>
  u.encoded('geyser/transaction', () => {
    const live = u.live as Extract<SharedEvent['live'], { kind: 'transaction' }>;
    return live.scan
      ? reframeYellowstoneTransaction(live.scan, u.readAt)
      : encode({ transaction: transactionToYellowstone(live.event) }, u.readAt);
  });

export const transactionStatusBody = (u: SharedEvent, tx: TransactionEvent): Buffer =>
  u.encoded('geyser/transaction_status', () =>
    encode(
      {
        transactionStatus: {
          slot: tx.slot.toString(),
          signature: tx.signatures[0] ?? new Uint8Array(64),
          isVote: tx.isVote,
          index: String(tx.index),
          err: tx.err === undefined ? undefined : { err: transactionErrorFromJson(tx.err) },
        },
      },
      u.readAt,
    ),
  );

export const accountBody = (u: SharedEvent, acc: AccountEvent, slices: readonly DataSlice[], key: string): Buffer =>
  u.encoded(`geyser/account/${key}`, () => {
    const update = accountToYellowstone(acc);
    return encode({ account: { ...update, account: accountInfo(acc, slices) } }, u.readAt);
  });

/** undefined for statuses Yellowstone has not (skipped, gap). */
export const slotBody = (u: SharedEvent): Buffer | undefined =>
  u.encoded('geyser/slot', () => {
    if (u.live.kind !== 'slot') return undefined;
    const slot = slotToYellowstone(u.live.event);
    return slot === undefined ? undefined : encode({ slot }, u.readAt);
  });

export const blockMetaBody = (u: SharedEvent): Buffer =>
  u.encoded('geyser/block_meta', () => {
    const ev = u.live.kind === 'blockMeta' ? u.live.event : undefined;
    return encode({ blockMeta: blockMetaToYellowstone(ev!.slot, ev!.block!) }, u.readAt);
  });

export const entryBody = (u: SharedEvent): Buffer =>
  u.encoded('geyser/entry', () => encode({ entry: u.live.kind === 'entry' ? entryToYellowstone(u.live.event) : undefined }, u.readAt));

/** What a blocks filter makes of a block, as a cache key: filters with equal options share one encoding. */
export function blocksFilterKey(f: CompiledBlocksFilter, slices: readonly DataSlice[]): string {
  const keys = [...f.accountInclude].sort().map((k) => Buffer.from(k, 'latin1').toString('hex'));
  const cuckoo = f.accountIncludeCuckoo === undefined ? '' : `cuckoo${f.accountIncludeCuckoo.id}`;
  return `${+f.includeTransactions}${+f.includeAccounts}${+f.includeEntries}/${keys.join(',')}/${cuckoo}/${dataSliceKey(slices)}`;
}

/** Yellowstone's FilterBlocks: transactions touching account_include or its cuckoo set (all when neither is
 * given) unless switched off; accounts (with the data slices) and entries only when asked for. */
export const blockBody = (u: SharedEvent, b: AssembledBlock, f: CompiledBlocksFilter, slices: readonly DataSlice[], key: string): Buffer =>
  u.encoded(`geyser/block/${key}`, () => {
    const cuckoo = f.accountIncludeCuckoo;
    const any = f.accountInclude.size === 0 && cuckoo === undefined;
    const included = (k: string): boolean => f.accountInclude.has(k) || (cuckoo !== undefined && cuckoo.has(k));
    const meta = blockMetaToYellowstone(b.slot, b.marker.block!);
    const block: SubscribeUpdateBlock = {
      ...meta,
      transactions: f.includeTransactions
        ? b.transactions
            .filter((tx) => any || [...transactionView(tx).keys].some(included))
            .map((tx) => transactionToYellowstone(tx).transaction!)
        : [],
      updatedAccountCount: String(b.accounts.length),
      accounts: f.includeAccounts ? b.accounts.filter((a) => any || included(keyId(a.pubkey))).map((a) => accountInfo(a, slices)) : [],
      entries: f.includeEntries ? b.entries.map(entryToYellowstone) : [],
    };
    return encode({ block }, u.readAt);
  });
