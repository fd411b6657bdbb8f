// The file source's JSON-lines format (see ./README.md): one ChainEvent per line, pure both ways.
// Transactions travel as their wire bytes (what an RPC node or a block dump gives you) plus the
// per-block facts the bytes do not contain; everything else is plain JSON with base-58 keys.
// Parsing never throws: a bad line becomes a reason that names the field and why.
import bs58 from 'bs58';
import type { ChainEvent } from '../../schemas/codec.js';
import { SlotStatus, type BlockMeta } from '../../schemas/codec.js';
import { decodeTransactionWire, encodeTransactionWire } from '../wire.js';

export type ParsedLine = { ok: true; event: ChainEvent } | { ok: false; reason: string };

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U32_MAX = 0xffff_ffff;

const STATUS_NAMES: Readonly<Record<string, SlotStatus>> = {
  processed: SlotStatus.SLOT_STATUS_PROCESSED,
  confirmed: SlotStatus.SLOT_STATUS_CONFIRMED,
  finalized: SlotStatus.SLOT_STATUS_FINALIZED,
  skipped: SlotStatus.SLOT_STATUS_SKIPPED,
};

const FIELDS = {
  transaction: ['type', 'slot', 'index', 'tx', 'err', 'fee', 'blockTime', 'loadedWritable', 'loadedReadonly'],
  account: ['type', 'slot', 'pubkey', 'lamports', 'owner', 'executable', 'rentEpoch', 'data', 'writeVersion', 'txnSignature', 'isStartup'],
  slot: ['type', 'slot', 'status', 'block'],
  block: ['parentSlot', 'blockhash', 'blockHeight', 'blockTime', 'leader', 'transactionCount', 'voteTransactionCount'],
  epoch: ['type', 'epoch', 'firstSlot', 'slotsPerEpoch', 'slotsPerLeader', 'identities', 'schedule'],
} as const;

// ---------------------------------------------------------------------------------------------
// Writing

/** Integers as JSON numbers while they are exact in a double, else as decimal strings. */
function int(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

const b58 = (bytes: Uint8Array): string => bs58.encode(bytes);
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** The event as one JSON line (without the newline). Throws only for an event no source should
 * produce (an `err` that is not JSON), naming it, since writing it would lose information. */
export function eventToLine(e: ChainEvent): string {
  return JSON.stringify(eventToJson(e));
}

export function eventToJson(e: ChainEvent): Record<string, unknown> {
  switch (e.kind) {
    case 'transactions': {
      const t = e.event;
      let err: unknown = null;
      if (t.err !== undefined) {
        try {
          err = JSON.parse(t.err);
        } catch {
          throw new Error(`transaction ${t.slot}/${t.index}: err is not JSON (${JSON.stringify(t.err)})`);
        }
        if (JSON.stringify(err) !== t.err) {
          throw new Error(`transaction ${t.slot}/${t.index}: err is not compact JSON (${JSON.stringify(t.err)})`);
        }
      }
      return {
        type: 'transaction',
        slot: int(t.slot),
        index: t.index,
        tx: b64(encodeTransactionWire(t)),
        err,
        fee: int(t.fee),
        blockTime: t.blockTime === undefined ? null : int(t.blockTime),
        loadedWritable: t.loadedWritable.map(b58),
        loadedReadonly: t.loadedReadonly.map(b58),
      };
    }
    case 'accounts': {
      const a = e.event;
      return {
        type: 'account',
        slot: int(a.slot),
        pubkey: b58(a.pubkey),
        lamports: int(a.lamports),
        owner: b58(a.owner),
        executable: a.executable,
        rentEpoch: int(a.rentEpoch),
        data: b64(a.data),
        writeVersion: int(a.writeVersion),
        txnSignature: a.txnSignature === undefined ? null : b58(a.txnSignature),
        isStartup: a.isStartup,
      };
    }
    case 'slots': {
      const s = e.event;
      const status = Object.keys(STATUS_NAMES).find((k) => STATUS_NAMES[k] === s.status);
      if (status === undefined) throw new Error(`slot ${s.slot}: unknown status ${s.status}`);
      const out: Record<string, unknown> = { type: 'slot', slot: int(s.slot), status };
      if (s.block !== undefined) {
        const b = s.block;
        out.block = {
          parentSlot: int(b.parentSlot),
          blockhash: b58(b.blockhash),
          blockHeight: int(b.blockHeight),
          blockTime: b.blockTime === undefined ? null : int(b.blockTime),
          leader: b58(b.leader),
          transactionCount: b.transactionCount,
          voteTransactionCount: b.voteTransactionCount,
        };
      }
      return out;
    }
    case 'epochs': {
      const p = e.event;
      return {
        type: 'epoch',
        epoch: int(p.epoch),
        firstSlot: int(p.firstSlot),
        slotsPerEpoch: int(p.slotsPerEpoch),
        slotsPerLeader: p.slotsPerLeader,
        identities: p.identities.map(b58),
        schedule: p.schedule,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Thrown inside the parser only; `parseLine` turns it into a reason. */
class FieldError extends Error {}

type Obj = Record<string, unknown>;

/** Own properties only: a line saying {"constructor": ...} must not reach Object's prototype. */
function field(o: Obj, name: string): unknown {
  return Object.hasOwn(o, name) ? o[name] : undefined;
}

function fail(name: string, why: string): never {
  throw new FieldError(`field ${name}: ${why}`);
}

function bigIntOf(o: Obj, name: string, min: bigint, max: bigint, what: string): bigint {
  const v = field(o, name);
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) fail(name, `${what}: ${v} is not a whole number that fits a double exactly (write it as a string)`);
    n = BigInt(v);
  } else if (typeof v === 'string' && /^-?\d+$/.test(v)) {
    n = BigInt(v);
  } else if (v === undefined) {
    fail(name, 'missing');
  } else {
    fail(name, `${what} expected, got ${JSON.stringify(v)}`);
  }
  if (n < min || n > max) fail(name, `${what}: ${n} is out of range`);
  return n;
}

const u64 = (o: Obj, name: string): bigint => bigIntOf(o, name, 0n, U64_MAX, 'an unsigned 64-bit integer');
const u32 = (o: Obj, name: string): number => Number(bigIntOf(o, name, 0n, BigInt(U32_MAX), 'an unsigned 32-bit integer'));

function optionalI64(o: Obj, name: string): bigint | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  return bigIntOf(o, name, I64_MIN, I64_MAX, 'a signed 64-bit integer or null');
}

function bool(o: Obj, name: string): boolean {
  const v = field(o, name);
  if (v === undefined) fail(name, 'missing');
  if (typeof v !== 'boolean') fail(name, `true or false expected, got ${JSON.stringify(v)}`);
  return v;
}

function str(o: Obj, name: string): string {
  const v = field(o, name);
  if (v === undefined) fail(name, 'missing');
  if (typeof v !== 'string') fail(name, `a string expected, got ${JSON.stringify(v)}`);
  return v;
}

function base58Of(v: unknown, name: string, length: number): Buffer {
  if (v === undefined) fail(name, 'missing');
  if (typeof v !== 'string') fail(name, `a base-58 string expected, got ${JSON.stringify(v)}`);
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(v);
  } catch {
    fail(name, `not base-58 (${JSON.stringify(v.slice(0, 60))})`);
  }
  if (bytes.length !== length) fail(name, `must decode to ${length} bytes, got ${bytes.length}`);
  return Buffer.from(bytes);
}

const key = (o: Obj, name: string): Buffer => base58Of(field(o, name), name, 32);

function keyList(o: Obj, name: string): Buffer[] {
  const v = field(o, name);
  if (v === undefined) fail(name, 'missing');
  if (!Array.isArray(v)) fail(name, `an array of base-58 keys expected, got ${JSON.stringify(v)}`);
  return v.map((item, i) => base58Of(item, `${name}[${i}]`, 32));
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64(o: Obj, name: string): Buffer {
  const v = str(o, name);
  if (!BASE64.test(v)) fail(name, 'not canonical base64');
  return Buffer.from(v, 'base64');
}

function noUnknownFields(o: Obj, allowed: readonly string[], where = ''): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new FieldError(`unknown field ${where}${k} (allowed: ${allowed.join(', ')})`);
  }
}

function parseTransaction(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.transaction);
  const slot = u64(o, 'slot');
  const index = u32(o, 'index');
  const bytes = base64(o, 'tx');
  if (!Object.hasOwn(o, 'err')) fail('err', 'missing (null for success)');
  const errValue = o.err;
  const err = errValue === null ? undefined : JSON.stringify(errValue);
  const fee = u64(o, 'fee');
  const blockTime = optionalI64(o, 'blockTime');
  const loadedWritable = keyList(o, 'loadedWritable');
  const loadedReadonly = keyList(o, 'loadedReadonly');
  let event;
  try {
    event = decodeTransactionWire(bytes, { slot, index, err, loadedWritable, loadedReadonly, blockTime, fee });
  } catch (e) {
    fail('tx', `not a valid transaction: ${(e as Error).message}`);
  }
  return { kind: 'transactions', event };
}

function parseAccount(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.account);
  const sig = field(o, 'txnSignature');
  return {
    kind: 'accounts',
    event: {
      pubkey: key(o, 'pubkey'),
      lamports: u64(o, 'lamports'),
      owner: key(o, 'owner'),
      executable: bool(o, 'executable'),
      rentEpoch: u64(o, 'rentEpoch'),
      data: base64(o, 'data'),
      writeVersion: u64(o, 'writeVersion'),
      slot: u64(o, 'slot'),
      txnSignature: sig === undefined || sig === null ? undefined : base58Of(sig, 'txnSignature', 64),
      isStartup: bool(o, 'isStartup'),
    },
  };
}

function parseBlock(v: unknown): BlockMeta | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) fail('block', `an object or null expected, got ${JSON.stringify(v)}`);
  const b = v as Obj;
  try {
    noUnknownFields(b, FIELDS.block, 'block.');
    return {
      parentSlot: u64(b, 'parentSlot'),
      blockhash: key(b, 'blockhash'),
      blockHeight: u64(b, 'blockHeight'),
      blockTime: optionalI64(b, 'blockTime'),
      leader: key(b, 'leader'),
      transactionCount: u32(b, 'transactionCount'),
      voteTransactionCount: u32(b, 'voteTransactionCount'),
    };
  } catch (e) {
    // Name nested fields by their full path (block.leader), so the reason points at the spot.
    if (e instanceof FieldError && e.message.startsWith('field ')) throw new FieldError(`field block.${e.message.slice(6)}`);
    throw e;
  }
}

function parseSlot(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.slot);
  const slot = u64(o, 'slot');
  const name = str(o, 'status');
  const status = STATUS_NAMES[name];
  if (status === undefined) fail('status', `one of ${Object.keys(STATUS_NAMES).join(', ')} expected, got ${JSON.stringify(name)}`);
  return { kind: 'slots', event: { slot, status, block: parseBlock(o.block) } };
}

function parseEpoch(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.epoch);
  const identities = keyList(o, 'identities');
  const slotsPerLeader = u32(o, 'slotsPerLeader');
  if (slotsPerLeader === 0) fail('slotsPerLeader', 'must be at least 1');
  const raw = field(o, 'schedule');
  if (raw === undefined) fail('schedule', 'missing');
  if (!Array.isArray(raw)) fail('schedule', `an array of identity indexes expected, got ${JSON.stringify(raw)}`);
  const schedule = raw.map((v, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= identities.length) {
      fail(`schedule[${i}]`, `an index into identities (0..${identities.length - 1}) expected, got ${JSON.stringify(v)}`);
    }
    return v;
  });
  return {
    kind: 'epochs',
    event: {
      epoch: u64(o, 'epoch'),
      firstSlot: u64(o, 'firstSlot'),
      slotsPerEpoch: u64(o, 'slotsPerEpoch'),
      slotsPerLeader,
      identities,
      schedule,
    },
  };
}

const PARSERS: Readonly<Record<string, (o: Obj) => ChainEvent>> = {
  transaction: parseTransaction,
  account: parseAccount,
  slot: parseSlot,
  epoch: parseEpoch,
};

/** One line to an event, or the reason it is not one. Never throws. */
export function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `a JSON object expected, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}` };
  }
  const o = value as Obj;
  const type = o.type;
  if (type === undefined) return { ok: false, reason: 'field type: missing (transaction, account, slot or epoch)' };
  const parse = typeof type === 'string' && Object.hasOwn(PARSERS, type) ? PARSERS[type] : undefined;
  if (parse === undefined) {
    return { ok: false, reason: `field type: one of ${Object.keys(PARSERS).join(', ')} expected, got ${JSON.stringify(type)}` };
  }
  try {
    return { ok: true, event: parse(o) };
  } catch (e) {
    if (e instanceof FieldError) return { ok: false, reason: e.message };
    return { ok: false, reason: `unexpected: ${(e as Error).message}` };
  }
}
