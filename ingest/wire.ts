// Solana transaction wire format <-> the internal TransactionEvent.
//
// Both directions are direct byte readers/writers over raw 32-byte keys. @solana/kit's codecs work on
// base58 address strings: its message encoder measured ~470 µs per message here and its decoder
// several ms under load (every address goes through base58), far beyond the ingest budget of
// tens of µs per transaction. kit stays the reference: wire.unit.test.ts checks the writer byte for
// byte against getCompiledTransactionMessageEncoder / getTransactionEncoder, and the reader against
// kit's getTransactionDecoder / getCompiledTransactionMessageDecoder, for legacy and v0 messages.
import { getBase58Encoder } from '@solana/kit';
import { TransactionEvent, type CompiledInstruction } from '../schemas/codec.js';
import { noTransactionMeta } from '../schemas/meta.js';

export const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** The first memo program version; its data is the memo text too. */
export const MEMO_PROGRAM_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';

/** Largest serialized transaction Solana accepts (IPv6 MTU minus headers). */
export const PACKET_DATA_SIZE = 1232;

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

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
  done(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

function writeMessage(w: ByteWriter, tx: TransactionEvent): void {
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

/** The exact message bytes every signature of the transaction signs (legacy or v0). */
export function encodeMessage(tx: TransactionEvent): Uint8Array {
  const w = new ByteWriter();
  writeMessage(w, tx);
  return w.done();
}

/** Signatures (compact-u16 count, 64 bytes each) followed by the message. */
export function encodeTransactionWire(tx: TransactionEvent): Uint8Array {
  if (tx.signatures.length !== tx.numRequiredSignatures) {
    throw new WireError(`${tx.signatures.length} signatures for ${tx.numRequiredSignatures} required signers`);
  }
  const w = new ByteWriter();
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

class ByteReader {
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
  get done(): boolean {
    return this.pos === this.b.length;
  }
}

const VOTE_KEY = Buffer.from(getBase58Encoder().encode(VOTE_PROGRAM));
const MEMO_KEYS = [MEMO_PROGRAM, MEMO_PROGRAM_V1].map((a) => Buffer.from(getBase58Encoder().encode(a)));

/** Decodes wire bytes into a TransactionEvent; throws WireError naming what is wrong. */
export function decodeTransactionWire(bytes: Uint8Array, meta: WireMeta): TransactionEvent {
  const r = new ByteReader(bytes);
  const nsig = r.shortU16('signature count');
  const signatures: Buffer[] = [];
  for (let i = 0; i < nsig; i++) signatures.push(r.bytes(64, 'signature'));
  let first = r.u8('message header');
  const versioned = (first & 0x80) !== 0;
  if (versioned) {
    if ((first & 0x7f) !== 0) throw new WireError(`unsupported transaction version ${first & 0x7f}`);
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
  if (!r.done) throw new WireError(`${bytes.length - r.pos} trailing bytes after the message`);
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
  const memos: string[] = [];
  let isVote = false;
  for (const ix of instructions) {
    if (ix.programIdIndex >= nkeys) {
      throw new WireError(`program id index ${ix.programIdIndex} is not a static account key (${nkeys} keys)`);
    }
    for (const a of ix.accounts) {
      if (a >= total) throw new WireError(`instruction account index ${a} beyond ${total} accounts`);
    }
    const program = accountKeys[ix.programIdIndex]!;
    if (program.equals(VOTE_KEY)) isVote = true;
    if (MEMO_KEYS.some((m) => m.equals(program))) memos.push(ix.data.toString('utf8'));
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
    isVote,
    err: meta.err,
    fee: meta.fee,
    memos,
    blockTime: meta.blockTime,
    ...noTransactionMeta(),
  };
}
