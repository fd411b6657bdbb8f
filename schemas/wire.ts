// Solana transaction wire format <-> the internal TransactionEvent.
//
// Both directions are direct byte readers/writers over raw 32-byte keys. @solana/kit's codecs work on
// base58 address strings: its message encoder measured ~470 µs per message here and its decoder
// several ms under load (every address goes through base58), far beyond the ingest budget of
// tens of µs per transaction. kit stays the reference: wire.unit.test.ts checks the writer byte for
// byte against getCompiledTransactionMessageEncoder / getTransactionEncoder, and the reader against
// kit's getTransactionDecoder / getCompiledTransactionMessageDecoder, for legacy, v0 and v1 messages.
//
// v1 (SIMD-0385) is another layout, not v0 with a new prefix: the transaction starts with the version
// byte 0x81 (no signature count), then header (3 bytes), config mask (u32 LE), recent blockhash, instruction
// count (u8), address count (u8), addresses, config values (4 bytes per mask bit, the priority fee's two
// bits one u64), instruction headers (program index u8, account count u8, data length u16 LE), each
// instruction's account indexes and data, and LAST the signatures (64 bytes x num_required_signatures,
// no count). The signed message is everything before the signatures. No address lookup tables.
import { getBase58Encoder } from '@solana/kit';
import { TransactionEvent, type CompiledInstruction, type TransactionConfig } from './codec.js';
import { ByteError, ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { SlotstreamError } from './errors.js';
import { noTransactionMeta } from './meta.js';

export const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** The first memo program version; its data is the memo text too. */
export const MEMO_PROGRAM_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';

/** Largest serialized transaction Solana accepts (IPv6 MTU minus headers). */
export const PACKET_DATA_SIZE = 1232;

/** Bytes that are no Solana wire transaction (catalogue code SLOTSTREAM_WIRE_DECODE). */
export class WireError extends SlotstreamError<'SLOTSTREAM_WIRE_DECODE'> {
  override name = 'WireError';
  constructor(message: string) {
    super('SLOTSTREAM_WIRE_DECODE', message, {});
  }
}

/** A v1 transaction's first byte: the versioned-message bit and version 1. */
export const V1_PREFIX = 0x81;
/** Config mask bits (SIMD-0385): the priority fee takes two (one u64 value), each other value one. */
const PRIORITY_FEE_BITS = 0b11;
const COMPUTE_UNIT_LIMIT_BIT = 1 << 2;
const LOADED_ACCOUNTS_DATA_SIZE_LIMIT_BIT = 1 << 3;
const HEAP_SIZE_BIT = 1 << 4;
const KNOWN_CONFIG_BITS = 0b11111;

/** The config mask a TransactionConfig stands for (each present value sets its bits). */
export function configMask(c: TransactionConfig): number {
  return (
    (c.priorityFee !== undefined ? PRIORITY_FEE_BITS : 0) |
    (c.computeUnitLimit !== undefined ? COMPUTE_UNIT_LIMIT_BIT : 0) |
    (c.loadedAccountsDataSizeLimit !== undefined ? LOADED_ACCOUNTS_DATA_SIZE_LIMIT_BIT : 0) |
    (c.heapSize !== undefined ? HEAP_SIZE_BIT : 0)
  );
}

/** True for a v1 (SIMD-0385) transaction event. */
export const isV1 = (tx: Pick<TransactionEvent, 'version'>): boolean => tx.version === 1;

/** A compact-u16 length, then the bytes. */
function vec(w: ByteWriter, b: Uint8Array): void {
  w.shortU16(b.length).bytes(b);
}

/** A u8 count or index of a v1 message, refused when it does not fit. */
function v1u8(w: ByteWriter, v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new WireError(`v1 message: ${what} ${v} does not fit in a byte`);
  w.u8(v);
}

function writeV1Message(w: ByteWriter, tx: TransactionEvent): void {
  const config = tx.transactionConfig ?? {};
  if (tx.addressTableLookups.length > 0) throw new WireError('a v1 message cannot carry address table lookups');
  w.u8(V1_PREFIX);
  w.u8(tx.numRequiredSignatures);
  w.u8(tx.numReadonlySignedAccounts);
  w.u8(tx.numReadonlyUnsignedAccounts);
  w.u32(configMask(config));
  w.fixed(tx.recentBlockhash, 32, 'recent blockhash');
  v1u8(w, tx.instructions.length, 'instruction count');
  v1u8(w, tx.accountKeys.length, 'address count');
  for (const k of tx.accountKeys) w.fixed(k, 32, 'account key');
  if (config.priorityFee !== undefined) w.u64(config.priorityFee);
  if (config.computeUnitLimit !== undefined) w.u32(config.computeUnitLimit);
  if (config.loadedAccountsDataSizeLimit !== undefined) w.u32(config.loadedAccountsDataSizeLimit);
  if (config.heapSize !== undefined) w.u32(config.heapSize);
  for (const ix of tx.instructions) {
    v1u8(w, ix.programIdIndex, 'program id index');
    v1u8(w, ix.accounts.length, 'instruction account count');
    if (ix.data.length > 0xffff) throw new WireError(`v1 message: instruction data of ${ix.data.length} bytes exceeds a u16 length`);
    w.u16(ix.data.length);
  }
  for (const ix of tx.instructions) {
    w.bytes(ix.accounts);
    w.bytes(ix.data);
  }
}

function writeMessage(w: ByteWriter, tx: TransactionEvent): void {
  if (isV1(tx)) return writeV1Message(w, tx);
  if (tx.version !== undefined && tx.version !== 0) throw new WireError(`unsupported transaction version ${tx.version}`);
  if (tx.versioned) w.u8(0x80); // version prefix: high bit set, version 0
  w.u8(tx.numRequiredSignatures);
  w.u8(tx.numReadonlySignedAccounts);
  w.u8(tx.numReadonlyUnsignedAccounts);
  w.shortU16(tx.accountKeys.length);
  for (const k of tx.accountKeys) w.fixed(k, 32, 'account key');
  w.fixed(tx.recentBlockhash, 32, 'recent blockhash');
  w.shortU16(tx.instructions.length);
  for (const ix of tx.instructions) {
    w.u8(ix.programIdIndex);
    vec(w, ix.accounts);
    vec(w, ix.data);
  }
  if (!tx.versioned) {
    if (tx.addressTableLookups.length > 0) throw new WireError('a legacy message cannot carry address table lookups');
    return;
  }
  w.shortU16(tx.addressTableLookups.length);
  for (const l of tx.addressTableLookups) {
    w.fixed(l.accountKey, 32, 'lookup table address');
    vec(w, l.writableIndexes);
    vec(w, l.readonlyIndexes);
  }
}

/** Runs a read or write of the wire format: the byte layer's errors become WireErrors (same message). */
function wire<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ByteError) throw new WireError(err.message);
    throw err;
  }
}

/** The exact message bytes every signature of the transaction signs (legacy, v0 or v1). */
export function encodeMessage(tx: TransactionEvent): Uint8Array {
  return wire(() => {
    const w = new ByteWriter(1280);
    writeMessage(w, tx);
    return w.done();
  });
}

/** Signatures (compact-u16 count, 64 bytes each) followed by the message; for v1 the message, then the
 * signatures (no count). */
export function encodeTransactionWire(tx: TransactionEvent): Uint8Array {
  if (tx.signatures.length !== tx.numRequiredSignatures) {
    throw new WireError(`${tx.signatures.length} signatures for ${tx.numRequiredSignatures} required signers`);
  }
  return wire(() => {
    const w = new ByteWriter(1280);
    if (isV1(tx)) {
      writeV1Message(w, tx);
      for (const s of tx.signatures) w.fixed(s, 64, 'signature');
      return w.done();
    }
    w.shortU16(tx.signatures.length);
    for (const s of tx.signatures) w.fixed(s, 64, 'signature');
    writeMessage(w, tx);
    return w.done();
  });
}

export interface WireMeta {
  slot: bigint;
  index: number;
  err?: string;
  /** Addresses the lookups resolved to (the wire carries only table indexes). */
  loadedWritable: Uint8Array[];
  loadedReadonly: Uint8Array[];
  blockTime?: bigint;
  fee: bigint;
}

const VOTE_KEY = Buffer.from(getBase58Encoder().encode(VOTE_PROGRAM));
const MEMO_KEYS = [MEMO_PROGRAM, MEMO_PROGRAM_V1].map((a) => Buffer.from(getBase58Encoder().encode(a)));

/** Decodes wire bytes (legacy, v0 or v1) into a TransactionEvent; throws WireError naming what is wrong
 * and, where it is about the bytes, at which byte. */
export function decodeTransactionWire(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  // A legacy/v0 transaction starts with its signature count (compact-u16): 0x81 there would announce at
  // least 129 signatures (8 KiB, beyond any transaction size), so the byte says v1 unambiguously.
  return wire(() => (bytes[0] === V1_PREFIX ? decodeV1(bytes, meta) : decodeLegacyOrV0(bytes, meta)));
}

/** The message header of a legacy or v0 message: its three counts and whether it is versioned. */
interface Header {
  versioned: boolean;
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

function readHeader(r: ByteReader): Header {
  let first = r.u8('message header');
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    if ((first & 0x7f) !== 0) {
      throw new WireError(
        `unsupported message version ${first & 0x7f} at byte ${r.pos - 1}` +
          ((first & 0x7f) === 1 ? ' (a v1 transaction starts with 0x81 and carries its signatures last, not a signature count)' : ''),
      );
    }
    first = r.u8('message header');
  }
  return {
    versioned,
    numRequiredSignatures: first,
    numReadonlySignedAccounts: r.u8('message header'),
    numReadonlyUnsignedAccounts: r.u8('message header'),
  };
}

/** `n` fixed-size items, each a copy. */
function copies(r: ByteReader, n: number, size: number, what: string): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) out.push(r.copy(size, what));
  return out;
}

/** A compact-u16 length, then that many bytes (a copy). */
const readVec = (r: ByteReader, what: string): Buffer => r.copy(r.shortU16(what), what);

function readInstructions(r: ByteReader): CompiledInstruction[] {
  const nix = r.shortU16('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nix; i++) {
    const programIdIndex = r.u8('program id index');
    const accounts = readVec(r, 'instruction accounts');
    const data = readVec(r, 'instruction data');
    instructions.push({ programIdIndex, accounts, data });
  }
  return instructions;
}

function readLookups(r: ByteReader): TransactionEvent['addressTableLookups'] {
  const out: TransactionEvent['addressTableLookups'] = [];
  const nl = r.shortU16('lookup count');
  for (let i = 0; i < nl; i++) {
    out.push({
      accountKey: r.copy(32, 'lookup table address'),
      writableIndexes: readVec(r, 'lookup writable indexes'),
      readonlyIndexes: readVec(r, 'lookup readonly indexes'),
    });
  }
  return out;
}

/** Header counts that do not fit the `naddr` addresses. */
const headerExceeds = (h: Omit<Header, 'versioned'>, naddr: number): boolean =>
  h.numRequiredSignatures > naddr ||
  h.numReadonlySignedAccounts > h.numRequiredSignatures ||
  h.numReadonlyUnsignedAccounts > naddr - h.numRequiredSignatures;

/** The addresses the lookups loaded (copies), checked against the counts the lookups name. */
function loadedOf(lookups: TransactionEvent['addressTableLookups'], meta: WireMeta): [Buffer[], Buffer[]] {
  const loadedWritable = meta.loadedWritable.map((k) => Buffer.from(k));
  const loadedReadonly = meta.loadedReadonly.map((k) => Buffer.from(k));
  const wantW = lookups.reduce((a, l) => a + l.writableIndexes.length, 0);
  const wantR = lookups.reduce((a, l) => a + l.readonlyIndexes.length, 0);
  if (loadedWritable.length !== wantW || loadedReadonly.length !== wantR) {
    throw new WireError(
      `lookups load ${wantW} writable and ${wantR} readonly addresses, meta gives ${loadedWritable.length} and ${loadedReadonly.length}`,
    );
  }
  return [loadedWritable, loadedReadonly];
}

/** Program ids among the static keys, account indexes among all `total` accounts. */
function checkIndexes(instructions: readonly CompiledInstruction[], nkeys: number, total: number): void {
  for (const ix of instructions) {
    if (ix.programIdIndex >= nkeys) {
      throw new WireError(`program id index ${ix.programIdIndex} is not a static account key (${nkeys} keys)`);
    }
    for (const a of ix.accounts) {
      if (a >= total) throw new WireError(`instruction account index ${a} beyond ${total} accounts`);
    }
  }
}

/** A legacy or v0 transaction: signature count and signatures, then the message. */
function decodeLegacyOrV0(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  const r = new ByteReader(bytes);
  const nsig = r.shortU16('signature count');
  const signatures = copies(r, nsig, 64, 'signature');
  const header = readHeader(r);
  if (nsig !== header.numRequiredSignatures) throw new WireError(`${nsig} signatures for ${header.numRequiredSignatures} required signers`);
  const nkeys = r.shortU16('account key count');
  const accountKeys = copies(r, nkeys, 32, 'account key');
  if (headerExceeds(header, nkeys)) throw new WireError(`header counts exceed the ${nkeys} account keys`);
  const recentBlockhash = r.copy(32, 'recent blockhash');
  const instructions = readInstructions(r);
  const addressTableLookups = header.versioned ? readLookups(r) : [];
  if (!r.done) throw new WireError(`${bytes.length - r.pos} trailing bytes after the message, from byte ${r.pos}`);
  const [loadedWritable, loadedReadonly] = loadedOf(addressTableLookups, meta);
  checkIndexes(instructions, nkeys, nkeys + loadedWritable.length + loadedReadonly.length);
  return {
    slot: meta.slot,
    index: meta.index,
    signatures,
    ...header,
    accountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
    loadedWritable,
    loadedReadonly,
    ...derived(accountKeys, instructions),
    err: meta.err,
    fee: meta.fee,
    blockTime: meta.blockTime,
    ...noTransactionMeta(),
  };
}

/** The derived parts of an event (vote flag, memo texts), from its static keys and instructions. */
function derived(accountKeys: readonly Buffer[], instructions: readonly CompiledInstruction[]): { isVote: boolean; memos: string[] } {
  const memos: string[] = [];
  let isVote = false;
  for (const ix of instructions) {
    const program = accountKeys[ix.programIdIndex]!;
    if (program.equals(VOTE_KEY)) isVote = true;
    if (MEMO_KEYS.some((m) => m.equals(program))) memos.push(Buffer.from(ix.data).toString('utf8'));
  }
  return { isVote, memos };
}

/** A v1 config mask, refused when it sets bits SIMD-0385 does not define or one of the priority fee's two. */
function readConfigMask(r: ByteReader): number {
  const maskAt = r.pos;
  const mask = r.u32('config mask');
  if ((mask & ~KNOWN_CONFIG_BITS) !== 0) {
    throw new WireError(`config mask at byte ${maskAt} sets bits SIMD-0385 does not define (0x${mask.toString(16)}; known: 0x1f)`);
  }
  if ((mask & PRIORITY_FEE_BITS) === 1 || (mask & PRIORITY_FEE_BITS) === 2) {
    throw new WireError(`config mask at byte ${maskAt} sets one of the priority fee's two bits (0x${mask.toString(16)}): both or neither`);
  }
  return mask;
}

/** The config values the mask announces, in bit order. */
function readConfig(r: ByteReader, mask: number): TransactionConfig {
  return {
    priorityFee: (mask & PRIORITY_FEE_BITS) !== 0 ? r.u64('priority fee config value') : undefined,
    computeUnitLimit: (mask & COMPUTE_UNIT_LIMIT_BIT) !== 0 ? r.u32('compute-unit limit config value') : undefined,
    loadedAccountsDataSizeLimit:
      (mask & LOADED_ACCOUNTS_DATA_SIZE_LIMIT_BIT) !== 0 ? r.u32('loaded-accounts data-size limit config value') : undefined,
    heapSize: (mask & HEAP_SIZE_BIT) !== 0 ? r.u32('heap size config value') : undefined,
  };
}

/** A v1 message's instructions: all the headers first, then each one's account indexes and data. */
function readV1Instructions(r: ByteReader, nix: number, naddr: number): CompiledInstruction[] {
  const headers: { programIdIndex: number; naccounts: number; ndata: number }[] = [];
  for (let i = 0; i < nix; i++) {
    const at = r.pos;
    const programIdIndex = r.u8(`instruction ${i} header`);
    const naccounts = r.u8(`instruction ${i} header`);
    const ndata = r.u16(`instruction ${i} header`);
    if (programIdIndex >= naddr) {
      throw new WireError(`instruction ${i} header at byte ${at}: program id index ${programIdIndex} beyond the ${naddr} addresses`);
    }
    headers.push({ programIdIndex, naccounts, ndata });
  }
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nix; i++) {
    const h = headers[i]!;
    const accountsAt = r.pos;
    const accounts = r.copy(h.naccounts, `instruction ${i} account indexes`);
    const bad = accounts.findIndex((a) => a >= naddr);
    if (bad >= 0) {
      throw new WireError(`instruction ${i} account index ${accounts[bad]} at byte ${accountsAt + bad} beyond the ${naddr} addresses`);
    }
    instructions.push({ programIdIndex: h.programIdIndex, accounts, data: r.copy(h.ndata, `instruction ${i} data`) });
  }
  return instructions;
}

/** A v1 transaction's signatures: exactly what is left after the message. */
function readV1Signatures(r: ByteReader, n: number): Buffer[] {
  const signaturesAt = r.pos;
  const want = n * 64;
  if (r.remaining !== want) {
    throw new WireError(
      r.remaining < want
        ? `truncated at byte ${r.data.length}: the ${n} signatures from byte ${signaturesAt} need ${want} bytes, ${r.remaining} are left`
        : `${r.remaining - want} trailing bytes after the ${n} signatures, from byte ${signaturesAt + want}`,
    );
  }
  return copies(r, n, 64, 'signature');
}

/** A v1 (SIMD-0385) transaction; see the layout at the top of this file. */
function decodeV1(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  const r = new ByteReader(bytes, 1); // after the version byte
  const header = {
    numRequiredSignatures: r.u8('message header'),
    numReadonlySignedAccounts: r.u8('message header'),
    numReadonlyUnsignedAccounts: r.u8('message header'),
  };
  const mask = readConfigMask(r);
  const recentBlockhash = r.copy(32, 'recent blockhash');
  const nix = r.u8('instruction count');
  const naddrAt = r.pos;
  const naddr = r.u8('address count');
  if (headerExceeds(header, naddr)) {
    const { numRequiredSignatures: a, numReadonlySignedAccounts: b, numReadonlyUnsignedAccounts: c } = header;
    throw new WireError(`header counts (${a}, ${b}, ${c}) exceed the ${naddr} addresses (count at byte ${naddrAt})`);
  }
  const accountKeys = copies(r, naddr, 32, 'address');
  const transactionConfig = readConfig(r, mask);
  const instructions = readV1Instructions(r, nix, naddr);
  const signatures = readV1Signatures(r, header.numRequiredSignatures);
  // v1 has no lookup tables, so nothing can be loaded: a meta that says otherwise belongs to another transaction.
  if (meta.loadedWritable.length + meta.loadedReadonly.length > 0) {
    throw new WireError(
      `a v1 transaction loads no addresses, meta gives ${meta.loadedWritable.length} writable and ${meta.loadedReadonly.length} readonly`,
    );
  }
  return {
    slot: meta.slot,
    index: meta.index,
    signatures,
    versioned: true,
    ...header,
    accountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups: [],
    loadedWritable: [],
    loadedReadonly: [],
    ...derived(accountKeys, instructions),
    err: meta.err,
    fee: meta.fee,
    blockTime: meta.blockTime,
    ...noTransactionMeta(),
    version: 1,
    transactionConfig,
  };
}
