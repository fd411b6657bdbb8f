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

class ByteWriter {
  private buf: Buffer;
  private pos = 0;
  constructor(size = 1280) {
    this.buf = Buffer.allocUnsafe(size);
  }
  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }
  /** compact-u16: 7 value bits per byte, low group first, high bit set when more follow. */
  shortU16(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new WireError(`compact-u16 out of range: ${v}`);
    let rest = v;
    for (;;) {
      const low = rest & 0x7f;
      rest >>= 7;
      if (rest === 0) {
        this.u8(low);
        return;
      }
      this.u8(low | 0x80);
    }
  }
  bytes(b: Uint8Array, what: string, len?: number): void {
    if (len !== undefined && b.length !== len) throw new WireError(`${what}: expected ${len} bytes, got ${b.length}`);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  vec(b: Uint8Array, what: string): void {
    this.shortU16(b.length);
    this.bytes(b, what);
  }
  u16le(v: number): void {
    this.ensure(2);
    this.buf.writeUInt16LE(v, this.pos);
    this.pos += 2;
  }
  u32le(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }
  u64le(v: bigint): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(v, this.pos);
    this.pos += 8;
  }
  done(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
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
  w.u32le(configMask(config));
  w.bytes(tx.recentBlockhash, 'recent blockhash', 32);
  v1u8(w, tx.instructions.length, 'instruction count');
  v1u8(w, tx.accountKeys.length, 'address count');
  for (const k of tx.accountKeys) w.bytes(k, 'account key', 32);
  if (config.priorityFee !== undefined) w.u64le(config.priorityFee);
  if (config.computeUnitLimit !== undefined) w.u32le(config.computeUnitLimit);
  if (config.loadedAccountsDataSizeLimit !== undefined) w.u32le(config.loadedAccountsDataSizeLimit);
  if (config.heapSize !== undefined) w.u32le(config.heapSize);
  for (const ix of tx.instructions) {
    v1u8(w, ix.programIdIndex, 'program id index');
    v1u8(w, ix.accounts.length, 'instruction account count');
    if (ix.data.length > 0xffff) throw new WireError(`v1 message: instruction data of ${ix.data.length} bytes exceeds a u16 length`);
    w.u16le(ix.data.length);
  }
  for (const ix of tx.instructions) {
    w.bytes(ix.accounts, 'instruction accounts');
    w.bytes(ix.data, 'instruction data');
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
  for (const k of tx.accountKeys) w.bytes(k, 'account key', 32);
  w.bytes(tx.recentBlockhash, 'recent blockhash', 32);
  w.shortU16(tx.instructions.length);
  for (const ix of tx.instructions) {
    w.u8(ix.programIdIndex);
    w.vec(ix.accounts, 'instruction accounts');
    w.vec(ix.data, 'instruction data');
  }
  if (!tx.versioned) {
    if (tx.addressTableLookups.length > 0) throw new WireError('a legacy message cannot carry address table lookups');
    return;
  }
  w.shortU16(tx.addressTableLookups.length);
  for (const l of tx.addressTableLookups) {
    w.bytes(l.accountKey, 'lookup table address', 32);
    w.vec(l.writableIndexes, 'lookup writable indexes');
    w.vec(l.readonlyIndexes, 'lookup readonly indexes');
  }
}

/** The exact message bytes every signature of the transaction signs (legacy, v0 or v1). */
export function encodeMessage(tx: TransactionEvent): Uint8Array {
  const w = new ByteWriter();
  writeMessage(w, tx);
  return w.done();
}

/** Signatures (compact-u16 count, 64 bytes each) followed by the message; for v1 the message, then the
 * signatures (no count). */
export function encodeTransactionWire(tx: TransactionEvent): Uint8Array {
  if (tx.signatures.length !== tx.numRequiredSignatures) {
    throw new WireError(`${tx.signatures.length} signatures for ${tx.numRequiredSignatures} required signers`);
  }
  const w = new ByteWriter();
  if (isV1(tx)) {
    writeV1Message(w, tx);
    for (const s of tx.signatures) w.bytes(s, 'signature', 64);
    return w.done();
  }
  w.shortU16(tx.signatures.length);
  for (const s of tx.signatures) w.bytes(s, 'signature', 64);
  writeMessage(w, tx);
  return w.done();
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

export class ByteReader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  u8(what: string): number {
    if (this.pos >= this.b.length) throw new WireError(`truncated at byte ${this.pos}: expected ${what}`);
    return this.b[this.pos++]!;
  }
  shortU16(what: string): number {
    let v = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what);
      v |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw new WireError(`non-canonical compact-u16 for ${what} at byte ${this.pos - 1}`);
        if (v > 0xffff) throw new WireError(`compact-u16 overflow for ${what}`);
        return v;
      }
    }
    throw new WireError(`compact-u16 longer than 3 bytes for ${what}`);
  }
  bytes(n: number, what: string): Buffer {
    if (this.pos + n > this.b.length) throw new WireError(`truncated at byte ${this.pos}: expected ${n} bytes of ${what}`);
    const out = Buffer.from(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return out;
  }
  vec(what: string): Buffer {
    return this.bytes(this.shortU16(what), what);
  }
  private fixed(n: number, what: string): number {
    if (this.pos + n > this.b.length) throw new WireError(`truncated at byte ${this.pos}: expected ${n} bytes of ${what}`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u16le(what: string): number {
    const at = this.fixed(2, what);
    return this.b[at]! | (this.b[at + 1]! << 8);
  }
  u32le(what: string): number {
    const at = this.fixed(4, what);
    return (this.b[at]! | (this.b[at + 1]! << 8) | (this.b[at + 2]! << 16)) + this.b[at + 3]! * 2 ** 24;
  }
  u64le(what: string): bigint {
    const at = this.fixed(8, what);
    return Buffer.from(this.b.buffer, this.b.byteOffset + at, 8).readBigUInt64LE(0);
  }
  get remaining(): number {
    return this.b.length - this.pos;
  }
  get done(): boolean {
    return this.pos === this.b.length;
  }
}

const VOTE_KEY = Buffer.from(getBase58Encoder().encode(VOTE_PROGRAM));
const MEMO_KEYS = [MEMO_PROGRAM, MEMO_PROGRAM_V1].map((a) => Buffer.from(getBase58Encoder().encode(a)));

/** Decodes wire bytes (legacy, v0 or v1) into a TransactionEvent; throws WireError naming what is wrong
 * and, where it is about the bytes, at which byte. */
export function decodeTransactionWire(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  // A legacy/v0 transaction starts with its signature count (compact-u16): 0x81 there would announce at
  // least 129 signatures (8 KiB, beyond any transaction size), so the byte says v1 unambiguously.
  if (bytes[0] === V1_PREFIX) return decodeV1(bytes, meta);
  const r = new ByteReader(bytes);
  const nsig = r.shortU16('signature count');
  const signatures: Buffer[] = [];
  for (let i = 0; i < nsig; i++) signatures.push(r.bytes(64, 'signature'));
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
  const numRequiredSignatures = first;
  const numReadonlySignedAccounts = r.u8('message header');
  const numReadonlyUnsignedAccounts = r.u8('message header');
  if (nsig !== numRequiredSignatures) throw new WireError(`${nsig} signatures for ${numRequiredSignatures} required signers`);
  const nkeys = r.shortU16('account key count');
  const accountKeys: Buffer[] = [];
  for (let i = 0; i < nkeys; i++) accountKeys.push(r.bytes(32, 'account key'));
  if (
    numRequiredSignatures > nkeys ||
    numReadonlySignedAccounts > numRequiredSignatures ||
    numReadonlyUnsignedAccounts > nkeys - numRequiredSignatures
  ) {
    throw new WireError(`header counts exceed the ${nkeys} account keys`);
  }
  const recentBlockhash = r.bytes(32, 'recent blockhash');
  const nix = r.shortU16('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nix; i++) {
    const programIdIndex = r.u8('program id index');
    const accounts = r.vec('instruction accounts');
    const data = r.vec('instruction data');
    instructions.push({ programIdIndex, accounts, data });
  }
  const addressTableLookups: TransactionEvent['addressTableLookups'] = [];
  if (versioned) {
    const nl = r.shortU16('lookup count');
    for (let i = 0; i < nl; i++) {
      addressTableLookups.push({
        accountKey: r.bytes(32, 'lookup table address'),
        writableIndexes: r.vec('lookup writable indexes'),
        readonlyIndexes: r.vec('lookup readonly indexes'),
      });
    }
  }
  if (!r.done) throw new WireError(`${bytes.length - r.pos} trailing bytes after the message, from byte ${r.pos}`);
  const loadedWritable = meta.loadedWritable.map((k) => Buffer.from(k));
  const loadedReadonly = meta.loadedReadonly.map((k) => Buffer.from(k));
  const wantW = addressTableLookups.reduce((a, l) => a + l.writableIndexes.length, 0);
  const wantR = addressTableLookups.reduce((a, l) => a + l.readonlyIndexes.length, 0);
  if (loadedWritable.length !== wantW || loadedReadonly.length !== wantR) {
    throw new WireError(
      `lookups load ${wantW} writable and ${wantR} readonly addresses, meta gives ${loadedWritable.length} and ${loadedReadonly.length}`,
    );
  }
  const total = nkeys + wantW + wantR;
  for (const ix of instructions) {
    if (ix.programIdIndex >= nkeys) {
      throw new WireError(`program id index ${ix.programIdIndex} is not a static account key (${nkeys} keys)`);
    }
    for (const a of ix.accounts) {
      if (a >= total) throw new WireError(`instruction account index ${a} beyond ${total} accounts`);
    }
  }
  return {
    slot: meta.slot,
    index: meta.index,
    signatures,
    versioned,
    numRequiredSignatures,
    numReadonlySignedAccounts,
    numReadonlyUnsignedAccounts,
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

/** A v1 (SIMD-0385) transaction; see the layout at the top of this file. */
function decodeV1(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  const r = new ByteReader(bytes);
  r.pos = 1; // the version byte
  const numRequiredSignatures = r.u8('message header');
  const numReadonlySignedAccounts = r.u8('message header');
  const numReadonlyUnsignedAccounts = r.u8('message header');
  const maskAt = r.pos;
  const mask = r.u32le('config mask');
  if ((mask & ~KNOWN_CONFIG_BITS) !== 0) {
    throw new WireError(`config mask at byte ${maskAt} sets bits SIMD-0385 does not define (0x${mask.toString(16)}; known: 0x1f)`);
  }
  if ((mask & PRIORITY_FEE_BITS) === 1 || (mask & PRIORITY_FEE_BITS) === 2) {
    throw new WireError(`config mask at byte ${maskAt} sets one of the priority fee's two bits (0x${mask.toString(16)}): both or neither`);
  }
  const recentBlockhash = r.bytes(32, 'recent blockhash');
  const nix = r.u8('instruction count');
  const naddrAt = r.pos;
  const naddr = r.u8('address count');
  if (
    numRequiredSignatures > naddr ||
    numReadonlySignedAccounts > numRequiredSignatures ||
    numReadonlyUnsignedAccounts > naddr - numRequiredSignatures
  ) {
    throw new WireError(
      `header counts (${numRequiredSignatures}, ${numReadonlySignedAccounts}, ${numReadonlyUnsignedAccounts}) exceed the ${naddr} addresses (count at byte ${naddrAt})`,
    );
  }
  const accountKeys: Buffer[] = [];
  for (let i = 0; i < naddr; i++) accountKeys.push(r.bytes(32, 'address'));
  const transactionConfig: TransactionConfig = {
    priorityFee: (mask & PRIORITY_FEE_BITS) !== 0 ? r.u64le('priority fee config value') : undefined,
    computeUnitLimit: (mask & COMPUTE_UNIT_LIMIT_BIT) !== 0 ? r.u32le('compute-unit limit config value') : undefined,
    loadedAccountsDataSizeLimit:
      (mask & LOADED_ACCOUNTS_DATA_SIZE_LIMIT_BIT) !== 0 ? r.u32le('loaded-accounts data-size limit config value') : undefined,
    heapSize: (mask & HEAP_SIZE_BIT) !== 0 ? r.u32le('heap size config value') : undefined,
  };
  const headers: { at: number; programIdIndex: number; naccounts: number; ndata: number }[] = [];
  for (let i = 0; i < nix; i++) {
    const at = r.pos;
    const programIdIndex = r.u8(`instruction ${i} header`);
    const naccounts = r.u8(`instruction ${i} header`);
    const ndata = r.u16le(`instruction ${i} header`);
    if (programIdIndex >= naddr) {
      throw new WireError(`instruction ${i} header at byte ${at}: program id index ${programIdIndex} beyond the ${naddr} addresses`);
    }
    headers.push({ at, programIdIndex, naccounts, ndata });
  }
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nix; i++) {
    const h = headers[i]!;
    const accountsAt = r.pos;
    const accounts = r.bytes(h.naccounts, `instruction ${i} account indexes`);
    const bad = accounts.findIndex((a) => a >= naddr);
    if (bad >= 0) {
      throw new WireError(`instruction ${i} account index ${accounts[bad]} at byte ${accountsAt + bad} beyond the ${naddr} addresses`);
    }
    instructions.push({ programIdIndex: h.programIdIndex, accounts, data: r.bytes(h.ndata, `instruction ${i} data`) });
  }
  const signaturesAt = r.pos;
  const want = numRequiredSignatures * 64;
  if (r.remaining !== want) {
    throw new WireError(
      r.remaining < want
        ? `truncated at byte ${bytes.length}: the ${numRequiredSignatures} signatures from byte ${signaturesAt} need ${want} bytes, ${r.remaining} are left`
        : `${r.remaining - want} trailing bytes after the ${numRequiredSignatures} signatures, from byte ${signaturesAt + want}`,
    );
  }
  const signatures: Buffer[] = [];
  for (let i = 0; i < numRequiredSignatures; i++) signatures.push(r.bytes(64, 'signature'));
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
    numRequiredSignatures,
    numReadonlySignedAccounts,
    numReadonlyUnsignedAccounts,
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
