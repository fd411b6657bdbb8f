// Pure: the JSON of PubSub notifications, as Agave writes them (rpc/src/rpc_subscriptions.rs):
//   {"jsonrpc":"2.0","method":"<kind>Notification","params":{"result":<result>,"subscription":<id>}}
// `subscription` is the last member, so a notification is `prefix(method) + result + suffix(id)`: the
// result is built once per event and shape and shared by every subscriber (SharedEvent.encoded); only
// the few bytes of the suffix differ per subscription.
import bs58 from 'bs58';
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { encodeAccountData, uiAccount, type AccountRow } from '../jsonrpc/accounts.js';
import { RawJson, toJson } from '../jsonrpc/json.js';
import { parseTokenProgramAccount } from '../jsonrpc/token.js';
import { isTokenProgram } from '../../schemas/programs.js';
import type { AccountView, SubscriptionKind } from './params.js';

export const NOTIFICATION_METHOD: Readonly<Record<SubscriptionKind, string>> = {
  account: 'accountNotification',
  program: 'programNotification',
  logs: 'logsNotification',
  signature: 'signatureNotification',
  slot: 'slotNotification',
  root: 'rootNotification',
};

/** Agave's UiAccount data for base58 over 128 bytes: a placeholder string, not an error (pubsub only). */
const MAX_BASE58_BYTES = 128;
const BASE58_TOO_LARGE = 'error: data too large for bs58 encoding';

export const notificationPrefix = (kind: SubscriptionKind): string => `{"jsonrpc":"2.0","method":"${NOTIFICATION_METHOD[kind]}","params":{"result":`;

/**
 * The per-subscription end. `readAt` (benchmarks only, off by default): when the api read the record, as
 * an extra `readAt` member of `params` after `subscription`; Agave's clients ignore unknown members.
 */
export const notificationSuffix = (id: number, readAt?: number): string =>
  readAt === undefined ? `,"subscription":${id}}}` : `,"subscription":${id},"readAt":${readAt}}}`;

/** `{"context":{"slot":S},"value":V}` (RpcResponse without apiVersion, as Agave's notifications). */
export const withSlot = (slot: bigint, valueJson: string): string => `{"context":{"slot":${slot}},"value":${valueJson}}`;

/** The shape key of an account value: its encoding and slice (SharedEvent.encoded keys). */
export const viewKey = (v: AccountView): string => (v.dataSlice === undefined ? v.encoding : `${v.encoding}/${v.dataSlice.offset}:${v.dataSlice.length}`);

/** UiAccount of an account write, in the subscription's encoding. */
export function uiAccountJson(e: AccountEvent, v: AccountView): string {
  const data = Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength);
  const row: AccountRow = {
    pubkey: '',
    owner: bs58.encode(e.owner),
    lamports: e.lamports.toString(),
    executable: e.executable,
    rent_epoch: e.rentEpoch.toString(),
    space: data.length,
    data: '',
  };
  return toJson(uiAccount(row, accountData(data, row.owner, v)));
}

function accountData(data: Buffer, owner: string, v: AccountView): unknown {
  if (v.encoding === 'binary' || v.encoding === 'base58') {
    const s = v.dataSlice;
    const bytes = s === undefined ? data : data.subarray(Math.min(s.offset, data.length), Math.min(s.offset + s.length, data.length));
    const text = bytes.length > MAX_BASE58_BYTES ? BASE58_TOO_LARGE : bs58.encode(bytes);
    return v.encoding === 'binary' ? text : [text, 'base58'];
  }
  if (v.encoding === 'jsonParsed' && isTokenProgram(owner)) {
    // Mints and multisigs parse alone; token accounts need their mint's decimals, which a live event does
    // not carry: those fall back to base64 as Agave does for anything it cannot parse.
    const parsed = parseTokenProgramAccount(data, owner, undefined);
    if (parsed !== undefined) return parsed;
  }
  return encodeAccountData(data.toString('base64'), v.encoding, v.dataSlice);
}

/** programNotification's value: RpcKeyedAccount. */
export const keyedAccountJson = (e: AccountEvent, v: AccountView): string => `{"pubkey":"${bs58.encode(e.pubkey)}","account":${uiAccountJson(e, v)}}`;

/** logsNotification's value: RpcLogsResponse. */
export function logsJson(tx: TransactionEvent): string {
  const sig = tx.signatures[0];
  return toJson({
    signature: sig === undefined ? '' : bs58.encode(sig),
    err: errJson(tx.err),
    logs: tx.logMessages,
  });
}

/** signatureNotification's value for a processed transaction: `{"err":…}`. */
export const signatureResultJson = (err: string | undefined | null): string => toJson({ err: errJson(err) });

/** The event model's `err` is Agave's JSON error form already. */
const errJson = (err: string | undefined | null): RawJson | null => (err === undefined || err === null || err === '' ? null : new RawJson(err));

/** slotNotification's result: SlotInfo. */
export const slotInfoJson = (slot: bigint, parent: bigint, root: bigint): string => `{"slot":${slot},"parent":${parent},"root":${root}}`;
