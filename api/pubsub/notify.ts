// Pure: the JSON of PubSub notifications, as Agave writes them (rpc/src/rpc_subscriptions.rs):
//   {"jsonrpc":"2.0","method":"<kind>Notification","params":{"result":<result>,"subscription":<id>}}
// `subscription` is the last member, so a notification is `prefix(method) + result + suffix(id)`: the
// result is built once per event and shape and shared by every subscriber (SharedEvent.encoded); only
// the few bytes of the suffix differ per subscription.
import { base58, base58Key } from '../../schemas/base58.js';
import { asBuffer } from '../../schemas/bytes.js';
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import type { TransactionScan } from '../../schemas/scan.js';
import { encodeAccountData } from '../solana-json/accounts.js';
import { toJson } from '../solana-json/json.js';
import { parseTokenProgramAccount } from '../solana-json/token.js';
import { isTokenProgram } from '../../schemas/programs.js';
import type { AccountView, SubscriptionKind } from './params.js';

export const NOTIFICATION_METHOD: Readonly<Record<SubscriptionKind, string>> = {
  account: 'accountNotification',
  program: 'programNotification',
  logs: 'logsNotification',
  signature: 'signatureNotification',
  slot: 'slotNotification',
  root: 'rootNotification',
  slotsUpdates: 'slotsUpdatesNotification',
  block: 'blockNotification',
  vote: 'voteNotification',
  transaction: 'transactionNotification',
};

/** Agave's UiAccount data for base58 over 128 bytes: a placeholder string, not an error (pubsub only). */
const MAX_BASE58_BYTES = 128;
const BASE58_TOO_LARGE = 'error: data too large for bs58 encoding';

export const notificationPrefix = (kind: SubscriptionKind): string =>
  `{"jsonrpc":"2.0","method":"${NOTIFICATION_METHOD[kind]}","params":{"result":`;

/**
 * The per-subscription end. `readAt` (benchmarks only, off by default): when the api read the record, as
 * an extra `readAt` member of `params` after `subscription`; Agave's clients ignore unknown members.
 */
export const notificationSuffix = (id: number, readAt?: number): string =>
  readAt === undefined ? `,"subscription":${id}}}` : `,"subscription":${id},"readAt":${readAt}}}`;

/**
 * The end of a snapshot notification (issue 23, `snapshot: true`): Yellowstone's is_startup as an extra `isStartup`
 * member of `params` after `subscription`, as `readAt` is; Agave's clients ignore unknown members.
 */
export const startupSuffix = (id: number): string => `,"subscription":${id},"isStartup":true}}`;

/** `{"context":{"slot":S},"value":V}` (RpcResponse without apiVersion, as Agave's notifications). */
export const withSlot = (slot: bigint, valueJson: string): string => `{"context":{"slot":${slot}},"value":${valueJson}}`;

/** The shape key of an account value: its encoding and slice (SharedEvent.encoded keys). */
export const viewKey = (v: AccountView): string =>
  v.dataSlice === undefined ? v.encoding : `${v.encoding}/${v.dataSlice.offset}:${v.dataSlice.length}`;

/**
 * UiAccount of an account write, in the subscription's encoding: `{lamports, data, owner, executable,
 * rentEpoch, space}`, u64s as exact digits. Written as text (no object, no u64 placeholders): one is built
 * per account write a subscription matched, all of a slot's at its end marker.
 */
export function uiAccountJson(e: AccountEvent, v: AccountView): string {
  const data = asBuffer(e.data);
  const owner = base58Key(asBuffer(e.owner)); // owners repeat (programs): cached
  return `{"lamports":${e.lamports},"data":${accountData(data, owner, v)},"owner":"${owner}","executable":${e.executable},"rentEpoch":${e.rentEpoch},"space":${data.length}}`;
}

/** The `data` member's JSON. */
function accountData(data: Buffer, owner: string, v: AccountView): string {
  if (v.encoding === 'base64' && v.dataSlice === undefined) return `["${data.toString('base64')}","base64"]`;
  if (v.encoding === 'binary' || v.encoding === 'base58') {
    const s = v.dataSlice;
    const bytes = s === undefined ? data : data.subarray(Math.min(s.offset, data.length), Math.min(s.offset + s.length, data.length));
    const text = bytes.length > MAX_BASE58_BYTES ? BASE58_TOO_LARGE : base58(bytes);
    return v.encoding === 'binary' ? `"${text}"` : `["${text}","base58"]`;
  }
  if (v.encoding === 'jsonParsed' && isTokenProgram(owner)) {
    // Mints and multisigs parse alone; token accounts need their mint's decimals, which a live event does
    // not carry: those fall back to base64 as Agave does for anything it cannot parse.
    const parsed = parseTokenProgramAccount(data, owner, undefined);
    if (parsed !== undefined) return toJson(parsed);
  }
  return toJson(encodeAccountData(data.toString('base64'), v.encoding, v.dataSlice));
}

/** programNotification's value: RpcKeyedAccount. */
export const keyedAccountJson = (e: AccountEvent, v: AccountView): string =>
  `{"pubkey":"${base58(e.pubkey)}","account":${uiAccountJson(e, v)}}`;

/** logsNotification's value: RpcLogsResponse (`err` is Agave's JSON error form already in the event model). */
export function logsJson(tx: TransactionEvent): string {
  const sig = tx.signatures[0];
  return `{"signature":"${sig === undefined ? '' : base58(sig)}","err":${errJson(tx.err)},"logs":${JSON.stringify(tx.logMessages)}}`;
}

/** TransactionEvent's `err` (15) and `log_messages` (24), schemas/events.proto, as their length-delimited
 * tag bytes: (15 << 3 | 2) and (24 << 3 | 2) as varints. */
const ERR_TAG = 0x7a;
const LOGS_TAG = [0xc2, 0x01] as const;

/**
 * logsNotification's value of a live transaction. Scanned ones (api/live/lazy-record.ts) are written from the
 * record's bytes: the signature, error and log lines are top-level fields, so the transaction and its meta
 * (balances, inner instructions) are not decoded for it. The same text as logsJson(event); a field not
 * written as a length-delimited one (a malformed record) leaves it to the decoder.
 */
export function transactionLogsJson(t: { readonly event: TransactionEvent; readonly scan?: TransactionScan }): string {
  const s = t.scan;
  if (s === undefined) return logsJson(t.event);
  const b = s.bytes;
  const f = s.fields;
  let err = 'null';
  const logs: string[] = [];
  for (let i = 0; i < f.length; i += 3) {
    const field = f[i];
    if (field !== 15 && field !== 24) continue;
    const start = f[i + 1]!;
    const tagged = field === 15 ? b[start - 1] === ERR_TAG : b[start - 2] === LOGS_TAG[0] && b[start - 1] === LOGS_TAG[1];
    if (!tagged) return logsJson(t.event);
    let p = start;
    while (b[p]! >= 0x80) p++; // the length's varint
    const text = b.toString('utf8', p + 1, f[i + 2]);
    if (field === 24) logs.push(text);
    else err = text === '' ? 'null' : text;
  }
  const sig = s.signatures[0];
  return `{"signature":"${sig === undefined ? '' : base58(sig)}","err":${err},"logs":${JSON.stringify(logs)}}`;
}

/** signatureNotification's value for a processed transaction: `{"err":…}`. */
export const signatureResultJson = (err: string | undefined | null): string => `{"err":${errJson(err)}}`;

/** The event model's `err` is Agave's JSON error form already: written verbatim. */
const errJson = (err: string | undefined | null): string => (err === undefined || err === null || err === '' ? 'null' : err);

/** slotNotification's result: SlotInfo. */
export const slotInfoJson = (slot: bigint, parent: bigint, root: bigint): string => `{"slot":${slot},"parent":${parent},"root":${root}}`;
