// The file source's JSON-lines format (see ./README.md): one ChainEvent per line, pure both ways.
// Transactions travel as their wire bytes (what an RPC node or a block dump gives you) plus the
// per-block facts the bytes do not contain; everything else is plain JSON with base-58 keys.
// Parsing never throws: a bad line becomes a reason that names the field and why.
import bs58 from 'bs58';
import type { ChainEvent, InnerInstructions, Reward, TokenBalance, TransactionEvent } from '../../../schemas/codec.js';
import { RewardType, SlotStatus, type BlockMeta, type SlotGap } from '../../../schemas/codec.js';
import { TRANSACTION_META_FIELDS, noTransactionMeta, type TransactionMeta } from '../../../schemas/meta.js';
import { AGAVE_REWARD_TYPES } from '../../../schemas/reward-types.js';
import { decodeTransactionWire, encodeTransactionWire } from '../../../schemas/wire.js';
import { asBuffer } from '../../../schemas/bytes.js';
import { decodeBase58Exact, decodeBase64 } from '../../../schemas/decode-input.js';

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
  dead: SlotStatus.SLOT_STATUS_DEAD,
  firstShredReceived: SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
  createdBank: SlotStatus.SLOT_STATUS_CREATED_BANK,
  completed: SlotStatus.SLOT_STATUS_COMPLETED,
  gap: SlotStatus.SLOT_STATUS_GAP,
};

/** The event's meta fields; a line says "none recorded" by a null, not by the event's `...None` flags. */
const META_FIELDS = TRANSACTION_META_FIELDS.filter((f) => !f.endsWith('None'));

const FIELDS = {
  transaction: ['type', 'slot', 'index', 'tx', 'err', 'fee', 'blockTime', 'loadedWritable', 'loadedReadonly', ...META_FIELDS],
  account: ['type', 'slot', 'pubkey', 'lamports', 'owner', 'executable', 'rentEpoch', 'data', 'writeVersion', 'txnSignature', 'isStartup'],
  slot: ['type', 'slot', 'status', 'block', 'deadError', 'parent', 'gap'],
  block: [
    'parentSlot',
    'blockhash',
    'blockHeight',
    'blockTime',
    'leader',
    'transactionCount',
    'voteTransactionCount',
    'previousBlockhash',
    'rewards',
    'executedTransactionCount',
    'entryCount',
    'numPartitions',
  ],
  gap: ['firstSlot', 'lastSlot', 'reason'],
  entry: ['type', 'slot', 'index', 'numHashes', 'hash', 'executedTransactionCount', 'startingTransactionIndex'],
  epoch: ['type', 'epoch', 'firstSlot', 'slotsPerEpoch', 'slotsPerLeader', 'identities', 'schedule'],
  tokenBalance: ['accountIndex', 'mint', 'owner', 'programId', 'uiTokenAmount'],
  uiTokenAmount: ['amount', 'decimals', 'uiAmount', 'uiAmountString'],
  innerGroup: ['index', 'instructions'],
  innerInstruction: ['programIdIndex', 'accounts', 'data', 'stackHeight'],
  returnData: ['programId', 'data'],
  reward: ['pubkey', 'lamports', 'postBalance', 'rewardType', 'commission', 'commissionBps'],
} as const;

// ---------------------------------------------------------------------------------------------
// Writing

/** Integers as JSON numbers while they are exact in a double, else as decimal strings. */
function int(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

const b58 = (bytes: Uint8Array): string => bs58.encode(bytes);
const b64 = (bytes: Uint8Array): string => asBuffer(bytes).toString('base64');

/** The event as one JSON line (without the newline). Throws only for an event no source should
 * produce (an `err` that is not JSON), naming it, since writing it would lose information. */
export function eventToLine(e: ChainEvent): string {
  return JSON.stringify(eventToJson(e));
}

export function eventToJson(e: ChainEvent): Record<string, unknown> {
  switch (e.kind) {
    case 'transactions':
      return transactionToJson(e.event);
    case 'accounts':
      return accountToJson(e.event);
    case 'slots':
      return slotToJson(e.event);
    case 'entries':
      return entryToJson(e.event);
    case 'epochs':
      return epochToJson(e.event);
  }
}

type EventOf<K extends ChainEvent['kind']> = Extract<ChainEvent, { kind: K }>['event'];

function transactionToJson(t: EventOf<'transactions'>): Record<string, unknown> {
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
    ...metaToJson(t),
  };
}

function accountToJson(a: EventOf<'accounts'>): Record<string, unknown> {
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

function slotToJson(s: EventOf<'slots'>): Record<string, unknown> {
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
      previousBlockhash: b.previousBlockhash.length === 0 ? null : b58(b.previousBlockhash),
      rewards: b.rewards.map(rewardToJson),
      executedTransactionCount: b.executedTransactionCount === undefined ? null : int(b.executedTransactionCount),
      entryCount: b.entryCount === undefined ? null : int(b.entryCount),
      numPartitions: b.numPartitions === undefined ? null : int(b.numPartitions),
    };
  }
  if (s.deadError !== undefined) out.deadError = s.deadError;
  if (s.parent !== undefined) out.parent = int(s.parent);
  if (s.gap !== undefined) out.gap = { firstSlot: int(s.gap.firstSlot), lastSlot: int(s.gap.lastSlot), reason: s.gap.reason };
  return out;
}

function entryToJson(n: EventOf<'entries'>): Record<string, unknown> {
  return {
    type: 'entry',
    slot: int(n.slot),
    index: int(n.index),
    numHashes: int(n.numHashes),
    hash: b58(n.hash),
    executedTransactionCount: int(n.executedTransactionCount),
    startingTransactionIndex: int(n.startingTransactionIndex),
  };
}

function epochToJson(p: EventOf<'epochs'>): Record<string, unknown> {
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

const REWARD_NAMES = new Map<RewardType, string>(Object.entries(AGAVE_REWARD_TYPES).map(([k, v]) => [v, k]));

function rewardToJson(r: Reward): Record<string, unknown> {
  return {
    pubkey: b58(r.pubkey),
    lamports: int(r.lamports),
    postBalance: int(r.postBalance),
    rewardType: REWARD_NAMES.get(r.rewardType) ?? null,
    commission: r.commission ?? null,
    ...(r.commissionBps === undefined ? {} : { commissionBps: r.commissionBps }),
  };
}

function tokenBalanceToJson(t: TokenBalance): Record<string, unknown> {
  return {
    accountIndex: t.accountIndex,
    mint: b58(t.mint),
    owner: t.owner.length === 0 ? null : b58(t.owner),
    programId: t.programId.length === 0 ? null : b58(t.programId),
    uiTokenAmount: { amount: t.amount.toString(), decimals: t.decimals },
  };
}

/** The meta fields of a transaction line, in Agave's getTransaction names; null where none was recorded. */
function metaToJson(t: TransactionEvent): Record<string, unknown> {
  return {
    preBalances: t.preBalances.map(int),
    postBalances: t.postBalances.map(int),
    preTokenBalances: t.preTokenBalances.map(tokenBalanceToJson),
    postTokenBalances: t.postTokenBalances.map(tokenBalanceToJson),
    innerInstructions: t.innerInstructionsNone
      ? null
      : t.innerInstructions.map((g) => ({
          index: g.index,
          instructions: g.instructions.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: [...ix.accounts],
            data: b64(ix.data),
            stackHeight: ix.stackHeight ?? null,
          })),
        })),
    logMessages: t.logMessagesNone ? null : t.logMessages,
    computeUnitsConsumed: t.computeUnitsConsumed === undefined ? null : int(t.computeUnitsConsumed),
    returnData: t.returnData === undefined ? null : { programId: b58(t.returnData.programId), data: b64(t.returnData.data) },
    rewards: t.rewards.map(rewardToJson),
    costUnits: t.costUnits === undefined ? null : int(t.costUnits),
  };
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
  const d = decodeBase58Exact(v, length);
  if (d.ok) return Buffer.from(d.bytes);
  if (d.kind === 'alphabet') fail(name, `not base-58 (${JSON.stringify(v.slice(0, 60))})`);
  if (d.kind === 'size' || d.kind === 'empty') fail(name, `must decode to ${length} bytes, got ${d.decodedBytes ?? 0}`);
  fail(name, `must decode to ${length} bytes: ${d.reason}`);
}

const key = (o: Obj, name: string): Buffer => base58Of(field(o, name), name, 32);

function keyList(o: Obj, name: string): Buffer[] {
  const v = field(o, name);
  if (v === undefined) fail(name, 'missing');
  if (!Array.isArray(v)) fail(name, `an array of base-58 keys expected, got ${JSON.stringify(v)}`);
  return v.map((item, i) => base58Of(item, `${name}[${i}]`, 32));
}

function base64(o: Obj, name: string): Buffer {
  const v = str(o, name);
  const d = decodeBase64(v, { padded: true });
  if (!d.ok) fail(name, `not canonical base64: ${d.reason}`);
  return Buffer.from(d.bytes.buffer, d.bytes.byteOffset, d.bytes.length);
}

function optionalU64(o: Obj, name: string): bigint | undefined {
  const v = field(o, name);
  return v === undefined || v === null ? undefined : u64(o, name);
}

function optionalU32(o: Obj, name: string): number | undefined {
  const v = field(o, name);
  return v === undefined || v === null ? undefined : u32(o, name);
}

function object(v: unknown, name: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, `an object expected, got ${JSON.stringify(v)}`);
  return v as Obj;
}

/** An optional array field: absent or null gives undefined; each item parsed with its path for errors. */
function list<T>(o: Obj, name: string, item: (v: unknown, path: string) => T): T[] | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) fail(name, `an array expected, got ${JSON.stringify(v)}`);
  return v.map((x, i) => item(x, `${name}[${i}]`));
}

/** Runs a parser on a nested object, naming its fields by full path (block.leader, rewards[2].lamports). */
function nested<T>(path: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof FieldError && e.message.startsWith('field ')) throw new FieldError(`field ${path}.${e.message.slice(6)}`);
    if (e instanceof FieldError && e.message.startsWith('unknown field '))
      throw new FieldError(`unknown field ${path}.${e.message.slice(14)}`);
    throw e;
  }
}

function parseReward(v: unknown, path: string): Reward {
  const r = object(v, path);
  return nested(path, () => {
    noUnknownFields(r, FIELDS.reward);
    const type = field(r, 'rewardType');
    let rewardType: RewardType = RewardType.REWARD_TYPE_UNSPECIFIED;
    if (type !== undefined && type !== null) {
      const t = typeof type === 'string' && Object.hasOwn(AGAVE_REWARD_TYPES, type) ? AGAVE_REWARD_TYPES[type] : undefined;
      if (t === undefined)
        fail('rewardType', `one of ${Object.keys(AGAVE_REWARD_TYPES).join(', ')} or null expected, got ${JSON.stringify(type)}`);
      rewardType = t;
    }
    return {
      pubkey: key(r, 'pubkey'),
      lamports: bigIntOf(r, 'lamports', I64_MIN, I64_MAX, 'a signed 64-bit integer'),
      postBalance: u64(r, 'postBalance'),
      rewardType,
      commission: optionalU32(r, 'commission'),
      commissionBps: optionalU32(r, 'commissionBps'),
    };
  });
}

function parseTokenBalance(v: unknown, path: string): TokenBalance {
  const t = object(v, path);
  return nested(path, () => {
    noUnknownFields(t, FIELDS.tokenBalance);
    const ui = object(field(t, 'uiTokenAmount'), 'uiTokenAmount');
    const { amount, decimals } = nested('uiTokenAmount', () => {
      noUnknownFields(ui, FIELDS.uiTokenAmount);
      const d = u32(ui, 'decimals');
      if (d > 255) fail('decimals', `at most 255, got ${d}`);
      return { amount: u64(ui, 'amount'), decimals: d };
    });
    const opt = (name: string): Buffer => (field(t, name) === undefined || field(t, name) === null ? Buffer.alloc(0) : key(t, name));
    return {
      accountIndex: u32(t, 'accountIndex'),
      mint: key(t, 'mint'),
      owner: opt('owner'),
      programId: opt('programId'),
      amount,
      decimals,
    };
  });
}

function byteList(v: unknown, name: string): Buffer {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 255)) {
    fail(name, `an array of account indexes (0..255) expected, got ${JSON.stringify(v)}`);
  }
  return Buffer.from(v as number[]);
}

function parseInnerGroup(v: unknown, path: string): InnerInstructions {
  const g = object(v, path);
  return nested(path, () => {
    noUnknownFields(g, FIELDS.innerGroup);
    const instructions =
      list(g, 'instructions', (x, p) => {
        const ix = object(x, p);
        return nested(p, () => {
          noUnknownFields(ix, FIELDS.innerInstruction);
          return {
            programIdIndex: u32(ix, 'programIdIndex'),
            accounts: byteList(field(ix, 'accounts'), 'accounts'),
            data: base64(ix, 'data'),
            stackHeight: optionalU32(ix, 'stackHeight'),
          };
        });
      }) ?? fail('instructions', 'missing');
    return { index: u32(g, 'index'), instructions };
  });
}

/** The meta fields of a transaction line. Lines written before meta existed have none of them: the
 * transaction then says its meta was not recorded (what the wire bytes alone can tell). */
function parseMeta(o: Obj): TransactionMeta {
  const none = noTransactionMeta();
  const logs = list(o, 'logMessages', (v, p) => (typeof v === 'string' ? v : fail(p, `a string expected, got ${JSON.stringify(v)}`)));
  const inner = list(o, 'innerInstructions', parseInnerGroup);
  const rd = field(o, 'returnData');
  return {
    preBalances: list(o, 'preBalances', (_, p) => u64({ [p]: _ }, p)) ?? none.preBalances,
    postBalances: list(o, 'postBalances', (_, p) => u64({ [p]: _ }, p)) ?? none.postBalances,
    preTokenBalances: list(o, 'preTokenBalances', parseTokenBalance) ?? [],
    postTokenBalances: list(o, 'postTokenBalances', parseTokenBalance) ?? [],
    innerInstructions: inner ?? [],
    innerInstructionsNone: inner === undefined,
    logMessages: logs ?? [],
    logMessagesNone: logs === undefined,
    computeUnitsConsumed: optionalU64(o, 'computeUnitsConsumed'),
    returnData:
      rd === undefined || rd === null
        ? undefined
        : nested('returnData', () => {
            const r = object(rd, 'returnData');
            noUnknownFields(r, FIELDS.returnData);
            return { programId: key(r, 'programId'), data: base64(r, 'data') };
          }),
    rewards: list(o, 'rewards', parseReward) ?? [],
    costUnits: optionalU64(o, 'costUnits'),
  };
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
  const meta = parseMeta(o);
  let event;
  try {
    event = decodeTransactionWire(bytes, { slot, index, err, loadedWritable, loadedReadonly, blockTime, fee });
  } catch (e) {
    fail('tx', `not a valid transaction: ${(e as Error).message}`);
  }
  return { kind: 'transactions', event: { ...event, ...meta } };
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
  return nested('block', () => {
    noUnknownFields(b, FIELDS.block);
    const prev = field(b, 'previousBlockhash');
    return {
      parentSlot: u64(b, 'parentSlot'),
      blockhash: key(b, 'blockhash'),
      blockHeight: u64(b, 'blockHeight'),
      blockTime: optionalI64(b, 'blockTime'),
      leader: key(b, 'leader'),
      transactionCount: u32(b, 'transactionCount'),
      voteTransactionCount: u32(b, 'voteTransactionCount'),
      // Fields added later: older files leave them out.
      previousBlockhash: prev === undefined || prev === null ? Buffer.alloc(0) : key(b, 'previousBlockhash'),
      rewards: list(b, 'rewards', parseReward) ?? [],
      executedTransactionCount: optionalU64(b, 'executedTransactionCount'),
      entryCount: optionalU64(b, 'entryCount'),
      numPartitions: optionalU64(b, 'numPartitions'),
    };
  });
}

function parseGap(v: unknown): SlotGap | undefined {
  if (v === undefined || v === null) return undefined;
  const g = object(v, 'gap');
  return nested('gap', () => {
    noUnknownFields(g, FIELDS.gap);
    const gap = { firstSlot: u64(g, 'firstSlot'), lastSlot: u64(g, 'lastSlot'), reason: str(g, 'reason') };
    if (gap.lastSlot < gap.firstSlot) fail('lastSlot', `${gap.lastSlot} is before firstSlot ${gap.firstSlot}`);
    return gap;
  });
}

function parseSlot(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.slot);
  const slot = u64(o, 'slot');
  const name = str(o, 'status');
  const status = STATUS_NAMES[name];
  if (status === undefined) fail('status', `one of ${Object.keys(STATUS_NAMES).join(', ')} expected, got ${JSON.stringify(name)}`);
  const deadError = field(o, 'deadError');
  if (deadError !== undefined && deadError !== null && status !== SlotStatus.SLOT_STATUS_DEAD)
    fail('deadError', 'only a dead slot has one');
  const gap = parseGap(field(o, 'gap'));
  if ((gap !== undefined) !== (status === SlotStatus.SLOT_STATUS_GAP)) fail('gap', 'a gap record (status gap) and only it carries a gap');
  if (gap !== undefined && gap.firstSlot !== slot) fail('gap', `firstSlot ${gap.firstSlot} must equal the record's slot ${slot}`);
  return {
    kind: 'slots',
    event: {
      slot,
      status,
      block: parseBlock(o.block),
      deadError: deadError === undefined || deadError === null ? undefined : str(o, 'deadError'),
      gap,
      parent: optionalU64(o, 'parent'),
    },
  };
}

function parseEntry(o: Obj): ChainEvent {
  noUnknownFields(o, FIELDS.entry);
  return {
    kind: 'entries',
    event: {
      slot: u64(o, 'slot'),
      index: u64(o, 'index'),
      numHashes: u64(o, 'numHashes'),
      hash: key(o, 'hash'),
      executedTransactionCount: u64(o, 'executedTransactionCount'),
      startingTransactionIndex: u64(o, 'startingTransactionIndex'),
    },
  };
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
  entry: parseEntry,
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
  if (type === undefined) return { ok: false, reason: 'field type: missing (transaction, account, slot, entry or epoch)' };
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
