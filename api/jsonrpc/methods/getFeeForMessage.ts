// getFeeForMessage [message (base64 VersionedMessage), config?]: the fee the network would charge for the
// message (message-fee.ts), in a context at the commitment's head; null when its blockhash is not one the
// chain would accept a fee rate for: Agave looks it up in its blockhash queue (the 300 newest blockhashes),
// else in the durable-nonce account the message advances first. Here: a blockhash of a block on the chain
// up to the head at most 300 blocks below it (the blockhashes index), else a nonce account (state at the
// context slot) whose durable nonce is that blockhash, whose fee calculator gives the rate.
// Decoding errors are Agave's decode_and_deserialize / sanitize -32602 messages.
import { decodeBase58Exact } from '../../../schemas/decode-input.js';
import { SYSTEM_PROGRAM } from '../../../schemas/programs.js';
import { WireError } from '../../../schemas/wire.js';
import type { TransactionEvent } from '../../../schemas/codec.js';
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { accountKeysOf } from '../../solana-json/transactions.js';
import { readAccounts } from '../account-state.js';
import { contextSlot, defineMethod, withContext, type MethodContext } from '../method.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { base58 } from '../../../schemas/base58.js';
import { decodeMessage, LAMPORTS_PER_SIGNATURE, messageFee, sanitizeError } from './message-fee.js';
import { BLOCKHASH_SQL } from './isBlockhashValid.js';

const TYPE = 'solana_message::versioned::VersionedMessage';
/** Agave's golden limits (rpc.rs MAX_BASE64_SIZE, PACKET_DATA_SIZE). */
const MAX_BASE64_SIZE = 1644;
const PACKET_DATA_SIZE = 1232;
/** Agave's MAX_RECENT_BLOCKHASHES: the blockhash queue's length. */
export const MAX_RECENT_BLOCKHASHES = 300n;

export interface GetFeeForMessageParams extends ContextConfig {
  message: TransactionEvent;
}

export function parseGetFeeForMessage(params: unknown): GetFeeForMessageParams {
  const p = positional(params, 1, 2);
  const text = p[0];
  if (typeof text !== 'string') throw invalidParams(`message: expected a base64 string, got ${describeValue(text)}`);
  if (text.length > MAX_BASE64_SIZE) {
    throw invalidParam(`base64 encoded ${TYPE} too large: ${text.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`);
  }
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text))
    throw invalidParam('invalid base64 encoding: not standard base64 with padding');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > PACKET_DATA_SIZE)
    throw invalidParam(`decoded ${TYPE} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  let message: TransactionEvent;
  try {
    message = decodeMessage(bytes);
  } catch (err) {
    if (err instanceof WireError) throw invalidParam(`failed to deserialize ${TYPE}: ${err.message}`);
    throw err;
  }
  const bad = sanitizeError(message);
  if (bad !== undefined) throw invalidParam(`invalid transaction message: ${bad}`);
  return { message, ...parseContextConfig(parseConfig(p[1], 'config')) };
}

/** Pure: a nonce account's (Versions: u32 version, u32 state 1 = initialized, authority, durable nonce, fee
 * calculator) lamports per signature when its durable nonce is `blockhash`. */
export function nonceRate(data: Buffer, blockhash: Buffer): bigint | undefined {
  if (data.length < 80 || data.readUInt32LE(4) !== 1) return undefined;
  return data.subarray(40, 72).equals(blockhash) ? data.readBigUInt64LE(72) : undefined;
}

/** The lamports per signature the chain would charge this message at `slot`, or undefined (Agave: null). */
async function lamportsPerSignature(
  ctx: MethodContext,
  m: TransactionEvent,
  slot: bigint,
  height: bigint | undefined,
): Promise<bigint | undefined> {
  const blockhash = base58(m.recentBlockhash);
  const [row] = await queryRows<{ block_height: string }>(ctx.ch, BLOCKHASH_SQL, { db: ctx.db, blockhash, slot });
  if (row !== undefined && height !== undefined && height - u64(row.block_height) <= MAX_RECENT_BLOCKHASHES) return LAMPORTS_PER_SIGNATURE;
  // A durable-nonce message: its first instruction is the system program's AdvanceNonceAccount (4), whose
  // first account is the nonce account.
  const keys = accountKeysOf(m);
  const first = m.instructions[0];
  if (first === undefined || keys[first.programIdIndex] !== SYSTEM_PROGRAM || first.data.length < 4) return undefined;
  if (Buffer.from(first.data).readUInt32LE(0) !== 4 || first.accounts[0] === undefined) return undefined;
  const nonce = keys[first.accounts[0]];
  if (nonce === undefined || !decodeBase58Exact(nonce, 32).ok) return undefined;
  const account = (await readAccounts(ctx.ch, ctx.db, [nonce], slot)).get(nonce);
  if (account === undefined || account.owner !== SYSTEM_PROGRAM) return undefined;
  return nonceRate(Buffer.from(account.data, 'base64'), Buffer.from(m.recentBlockhash));
}

const UNAVAILABLE = 'Block information unavailable';

export const getFeeForMessage = defineMethod<GetFeeForMessageParams>({
  name: 'getFeeForMessage',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetFeeForMessage,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const rate = await lamportsPerSignature(ctx, p.message, slot, ctx.state.height[p.commitment]);
    return withContext(slot, ctx.apiVersion, rate === undefined ? null : u64Json(messageFee(p.message, rate)));
  },
});
