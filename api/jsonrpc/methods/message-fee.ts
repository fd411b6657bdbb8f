// Pure: Agave's fee for a message (solana-fee calculate_fee with its compute-budget limits), and the reading
// of a message's bytes as getFeeForMessage receives them (a serialized VersionedMessage, no signatures).
//
// fee = lamports_per_signature x (signatures + the signatures its ed25519 / secp256k1 / secp256r1 precompile
//       instructions verify: their data's first byte)
//     + ceil(compute-unit price (micro-lamports) x compute-unit limit / 1,000,000)
// The limit is SetComputeUnitLimit's, else 200,000 per instruction other than the compute-budget program's,
// at most 1,400,000: Agave's rule before the feature reserve_minimal_cus_for_builtin_instructions (which
// reserves 3,000 units for builtin instructions instead) and the simulator's. A v1 message (SIMD-0385) states
// its priority fee in lamports in its config instead.
import { COMPUTE_BUDGET_PROGRAM } from '../../../schemas/programs.js';
import type { TransactionEvent } from '../../../schemas/codec.js';
import { ByteError, ByteReader } from '../../../schemas/byte-reader.js';
import { ByteWriter } from '../../../schemas/byte-writer.js';
import { decodeTransactionWire, V1_PREFIX } from '../../../schemas/wire.js';
import { accountKeysOf } from '../../solana-json/transactions.js';

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const PRECOMPILES: ReadonlySet<string> = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

const u32At = (d: Uint8Array, at: number): bigint => BigInt(Buffer.from(d.buffer, d.byteOffset, d.length).readUInt32LE(at));
const u64At = (d: Uint8Array, at: number): bigint => Buffer.from(d.buffer, d.byteOffset, d.length).readBigUInt64LE(at);

export function messageFee(e: TransactionEvent, lamportsPerSignature: bigint): bigint {
  const keys = accountKeysOf(e);
  let signatures = BigInt(e.numRequiredSignatures);
  let limit: bigint | undefined;
  let price = 0n;
  let others = 0n;
  for (const ix of e.instructions) {
    const program = keys[ix.programIdIndex];
    if (program !== undefined && PRECOMPILES.has(program)) signatures += BigInt(ix.data[0] ?? 0);
    if (program !== COMPUTE_BUDGET_PROGRAM) {
      others++;
      continue;
    }
    if (ix.data[0] === 2 && ix.data.length >= 5) limit = u32At(ix.data, 1);
    else if (ix.data[0] === 3 && ix.data.length >= 9) price = u64At(ix.data, 1);
  }
  const signatureFee = lamportsPerSignature * signatures;
  if (e.version === 1) return signatureFee + (e.transactionConfig?.priorityFee ?? 0n);
  const units = limit ?? DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT * others;
  const capped = units < MAX_COMPUTE_UNIT_LIMIT ? units : MAX_COMPUTE_UNIT_LIMIT;
  return signatureFee + (price * capped + 999_999n) / 1_000_000n;
}

/**
 * A serialized message (legacy, v0 or v1) as a TransactionEvent: the wire codec reads transactions, so the
 * message gets zeroed signatures of the count its header requires (before it, or after it for v1). Throws
 * WireError naming what is wrong.
 */
export function decodeMessage(message: Uint8Array): TransactionEvent {
  const v1 = message[0] === V1_PREFIX;
  const versioned = !v1 && message[0] !== undefined && (message[0] & 0x80) !== 0;
  const n = message[v1 || versioned ? 1 : 0] ?? 0;
  const signatures = Buffer.alloc(64 * n);
  const count = new ByteWriter(3).shortU16(n).done();
  const wire = v1 ? Buffer.concat([message, signatures]) : Buffer.concat([count, signatures, message]);
  // A v0 message's lookups load addresses the fee does not depend on: placeholders of the counts it names (Agave
  // resolves them from the tables; the transaction wire decoder wants them as a transaction's meta gives them).
  const [writable, readonly] = versioned ? lookupCounts(message) : [0, 0];
  const zeros = (n: number) => Array.from({ length: n }, () => Buffer.alloc(32));
  return decodeTransactionWire(wire, { slot: 0n, index: 0, loadedWritable: zeros(writable), loadedReadonly: zeros(readonly), fee: 0n });
}

/** How many writable and readonly addresses a v0 message's lookups load; [0, 0] when it ends early (the decoder says why). */
function lookupCounts(message: Uint8Array): [number, number] {
  try {
    const r = new ByteReader(message);
    r.u8('version');
    r.need(3, 'message header');
    r.need(32 * r.shortU16('account key count'), 'account keys');
    r.need(32, 'recent blockhash');
    const nix = r.shortU16('instruction count');
    for (let i = 0; i < nix; i++) {
      r.u8('program id index');
      r.need(r.shortU16('instruction accounts'), 'instruction accounts');
      r.need(r.shortU16('instruction data'), 'instruction data');
    }
    let writable = 0;
    let readonly = 0;
    const nl = r.shortU16('lookup count');
    for (let i = 0; i < nl; i++) {
      r.need(32, 'lookup table address');
      const w = r.shortU16('lookup writable indexes');
      r.need(w, 'lookup writable indexes');
      const ro = r.shortU16('lookup readonly indexes');
      r.need(ro, 'lookup readonly indexes');
      writable += w;
      readonly += ro;
    }
    return [writable, readonly];
  } catch (err) {
    if (err instanceof ByteError) return [0, 0];
    throw err;
  }
}

/** Agave's sanitize of instruction indexes: programs among the static keys and not the fee payer, accounts in range. */
export function sanitizeError(e: TransactionEvent): string | undefined {
  const statics = e.accountKeys.length;
  const all = statics + e.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  if (e.numRequiredSignatures === 0) return 'index out of bounds';
  for (const ix of e.instructions) {
    if (ix.programIdIndex === 0 || ix.programIdIndex >= statics) return 'index out of bounds';
    for (const a of ix.accounts) if (a >= all) return 'index out of bounds';
  }
  return undefined;
}
