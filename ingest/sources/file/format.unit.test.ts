import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  RewardType,
  SlotStatus,
  type AccountEvent,
  type ChainEvent,
  type EntryEvent,
  type TransactionEvent,
} from '../../../schemas/codec.js';
import { noTransactionMeta } from '../../../schemas/meta.js';
import { MEMO_PROGRAM, VOTE_PROGRAM } from '../../../schemas/wire.js';
import { SlotBatcher } from './batcher.js';
import { eventToJson, eventToLine, parseLine } from './format.js';

const key = (n: number): Buffer => Buffer.alloc(32, n);
const sig = (n: number): Buffer => Buffer.alloc(64, n);
const prog = (address: string): Buffer => Buffer.from(bs58.decode(address));

function legacyTx(overrides: Partial<TransactionEvent> = {}): TransactionEvent {
  return {
    slot: 1234n,
    index: 7,
    signatures: [sig(1)],
    versioned: false,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [key(1), prog(MEMO_PROGRAM)],
    recentBlockhash: key(9),
    instructions: [{ programIdIndex: 1, accounts: Buffer.from([0]), data: Buffer.from('gm, ünïcode memo') }],
    addressTableLookups: [],
    loadedWritable: [],
    loadedReadonly: [],
    isVote: false,
    err: undefined,
    fee: 5000n,
    memos: ['gm, ünïcode memo'],
    blockTime: 1_700_000_000n,
    ...noTransactionMeta(),
    ...overrides,
  };
}

/** A transaction with every meta field the event model has. */
function txWithMeta(): TransactionEvent {
  return legacyTx({
    err: '{"InsufficientFundsForRent":{"account_index":1}}',
    preBalances: [10_000n, 1n],
    postBalances: [5_000n, 1n],
    preTokenBalances: [
      { accountIndex: 1, mint: key(3), owner: key(4), programId: key(5), amount: 18_446_744_073_709_551_615n, decimals: 9 },
    ],
    postTokenBalances: [{ accountIndex: 1, mint: key(3), owner: Buffer.alloc(0), programId: Buffer.alloc(0), amount: 0n, decimals: 9 }],
    innerInstructions: [
      {
        index: 0,
        instructions: [
          { programIdIndex: 1, accounts: Buffer.from([0, 1]), data: Buffer.from([7, 8]), stackHeight: 2 },
          { programIdIndex: 1, accounts: Buffer.alloc(0), data: Buffer.alloc(0), stackHeight: undefined },
        ],
      },
    ],
    innerInstructionsNone: false,
    logMessages: ['Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr invoke [1]', 'Program log: "quoted"'],
    logMessagesNone: false,
    computeUnitsConsumed: 12_345n,
    returnData: { programId: key(6), data: Buffer.from([1, 2, 3]) },
    rewards: [
      {
        pubkey: key(7),
        lamports: -5n,
        postBalance: 0n,
        rewardType: RewardType.REWARD_TYPE_RENT,
        commission: undefined,
        commissionBps: undefined,
      },
    ],
    costUnits: 1_500n,
  });
}

function v0Tx(): TransactionEvent {
  return legacyTx({
    slot: 99n,
    index: 0,
    signatures: [sig(2), sig(3)],
    versioned: true,
    numRequiredSignatures: 2,
    numReadonlySignedAccounts: 1,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [key(1), key(2), prog(VOTE_PROGRAM)],
    instructions: [{ programIdIndex: 2, accounts: Buffer.from([0, 3, 4]), data: Buffer.from([1, 2, 3]) }],
    addressTableLookups: [{ accountKey: key(20), writableIndexes: Buffer.from([5]), readonlyIndexes: Buffer.from([6]) }],
    loadedWritable: [key(21)],
    loadedReadonly: [key(22)],
    isVote: true,
    err: '{"InstructionError":[0,{"Custom":6002}]}',
    fee: 10_000n,
    memos: [],
    blockTime: undefined,
  });
}

const samples: Record<string, ChainEvent> = {
  'legacy transaction with memo': { kind: 'transactions', event: legacyTx() },
  'v0 vote transaction with lookups and error': { kind: 'transactions', event: v0Tx() },
  'transaction with full meta': { kind: 'transactions', event: txWithMeta() },
  'transaction with meta recorded empty': {
    kind: 'transactions',
    event: legacyTx({ innerInstructionsNone: false, logMessagesNone: false }),
  },
  'failed transaction with a plain error': { kind: 'transactions', event: legacyTx({ err: '"InsufficientFundsForFee"' }) },
  'account write with signature': {
    kind: 'accounts',
    event: {
      pubkey: key(4),
      lamports: 2_039_280n,
      owner: key(5),
      executable: false,
      rentEpoch: (1n << 64n) - 1n,
      data: Buffer.from([0, 1, 2, 250]),
      writeVersion: 77n,
      slot: 1234n,
      txnSignature: sig(1),
      isStartup: false,
    },
  },
  'startup account without signature': {
    kind: 'accounts',
    event: {
      pubkey: key(6),
      lamports: 1n,
      owner: key(7),
      executable: true,
      rentEpoch: 0n,
      data: Buffer.alloc(0),
      writeVersion: 1n,
      slot: 0n,
      txnSignature: undefined,
      isStartup: true,
    },
  },
  'processed slot with block meta': {
    kind: 'slots',
    event: {
      slot: 1234n,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: 1233n,
        blockhash: key(9),
        blockHeight: 1200n,
        blockTime: 1_700_000_000n,
        leader: key(8),
        transactionCount: 12,
        voteTransactionCount: 8,
        previousBlockhash: Buffer.alloc(0),
        rewards: [],
      },
    },
  },
  'processed slot with full block meta': {
    kind: 'slots',
    event: {
      slot: 1234n,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: 1233n,
        blockhash: key(9),
        blockHeight: 1200n,
        blockTime: 1_700_000_000n,
        leader: key(8),
        transactionCount: 12,
        voteTransactionCount: 8,
        previousBlockhash: key(10),
        rewards: [
          {
            pubkey: key(8),
            lamports: 30_000n,
            postBalance: 9n,
            rewardType: RewardType.REWARD_TYPE_FEE,
            commission: undefined,
            commissionBps: undefined,
          },
          {
            pubkey: key(11),
            lamports: 1n,
            postBalance: 2n,
            rewardType: RewardType.REWARD_TYPE_VOTING,
            commission: 10,
            commissionBps: 1000,
          },
          {
            pubkey: key(12),
            lamports: 1n,
            postBalance: 2n,
            rewardType: RewardType.REWARD_TYPE_UNSPECIFIED,
            commission: undefined,
            commissionBps: undefined,
          },
        ],
        executedTransactionCount: 12n,
        entryCount: 77n,
        numPartitions: 4n,
      },
    },
  },
  'dead slot': {
    kind: 'slots',
    event: { slot: 1236n, status: SlotStatus.SLOT_STATUS_DEAD, block: undefined, deadError: 'InvalidBlock(TooFewTicks)' },
  },
  'created bank with parent': {
    kind: 'slots',
    event: { slot: 1236n, status: SlotStatus.SLOT_STATUS_CREATED_BANK, block: undefined, parent: 1234n },
  },
  'first shred received': { kind: 'slots', event: { slot: 1236n, status: SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED, block: undefined } },
  completed: { kind: 'slots', event: { slot: 1236n, status: SlotStatus.SLOT_STATUS_COMPLETED, block: undefined } },
  'gap record': {
    kind: 'slots',
    event: {
      slot: 100n,
      status: SlotStatus.SLOT_STATUS_GAP,
      block: undefined,
      gap: { firstSlot: 100n, lastSlot: 199n, reason: 'upstream replay starts at 200' },
    },
  },
  entry: {
    kind: 'entries',
    event: { slot: 1234n, index: 3n, numHashes: 12_500n, hash: key(13), executedTransactionCount: 2n, startingTransactionIndex: 5n },
  },
  'block meta without block time': {
    kind: 'slots',
    event: {
      slot: 5n,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: 4n,
        blockhash: key(9),
        blockHeight: 5n,
        blockTime: undefined,
        leader: key(8),
        transactionCount: 0,
        voteTransactionCount: 0,
        previousBlockhash: Buffer.alloc(0),
        rewards: [],
      },
    },
  },
  'confirmed slot': { kind: 'slots', event: { slot: 1233n, status: SlotStatus.SLOT_STATUS_CONFIRMED, block: undefined } },
  'finalized slot': { kind: 'slots', event: { slot: 1200n, status: SlotStatus.SLOT_STATUS_FINALIZED, block: undefined } },
  'skipped slot': { kind: 'slots', event: { slot: 1235n, status: SlotStatus.SLOT_STATUS_SKIPPED, block: undefined } },
  epoch: {
    kind: 'epochs',
    event: {
      epoch: 3n,
      firstSlot: 3n * 8192n,
      slotsPerEpoch: 8192n,
      slotsPerLeader: 4,
      identities: [key(10), key(11)],
      schedule: [0, 1, 1, 0],
    },
  },
};

describe('file format round trip', () => {
  for (const [name, event] of Object.entries(samples)) {
    it(name, () => {
      const line = eventToLine(event);
      expect(line).not.toContain('\n');
      const parsed = parseLine(line);
      expect(parsed).toEqual({ ok: true, event });
    });
  }

  it('writes u64 values beyond 2^53 as strings and reads both forms', () => {
    const json = eventToJson(samples['account write with signature']!);
    expect(json.rentEpoch).toBe('18446744073709551615');
    expect(json.lamports).toBe(2_039_280);
    const asString = parseLine(JSON.stringify({ ...json, lamports: '2039280' }));
    expect(asString).toEqual({ ok: true, event: samples['account write with signature'] });
  });

  it('writes the transaction error as a JSON value, not a string', () => {
    const json = eventToJson(samples['v0 vote transaction with lookups and error']!);
    expect(json.err).toEqual({ InstructionError: [0, { Custom: 6002 }] });
    expect(eventToJson(samples['legacy transaction with memo']!).err).toBeNull();
  });

  it('refuses to write an error that is not JSON, naming the transaction', () => {
    expect(() => eventToLine({ kind: 'transactions', event: legacyTx({ err: 'oops' }) })).toThrow(/transaction 1234\/7: err is not JSON/);
  });
});

describe('files written before transaction meta existed', () => {
  it('still read: no meta fields means the meta was not recorded', () => {
    const line = eventToJson(samples['transaction with full meta']!);
    for (const f of [
      'preBalances',
      'postBalances',
      'preTokenBalances',
      'postTokenBalances',
      'innerInstructions',
      'logMessages',
      'computeUnitsConsumed',
      'returnData',
      'rewards',
      'costUnits',
    ]) {
      delete line[f];
    }
    const r = parseLine(JSON.stringify(line));
    if (!r.ok) throw new Error(r.reason);
    const t = r.event.event as TransactionEvent;
    expect(t.logMessagesNone).toBe(true);
    expect(t.innerInstructionsNone).toBe(true);
    expect(t.preBalances).toEqual([]);
    expect(t.computeUnitsConsumed).toBeUndefined();
    expect(t.err).toBe('{"InsufficientFundsForRent":{"account_index":1}}');
  });

  it('block meta without the later fields reads with them empty', () => {
    const slot = eventToJson(samples['processed slot with full block meta']!);
    const block = slot.block as Record<string, unknown>;
    for (const f of ['previousBlockhash', 'rewards', 'executedTransactionCount', 'entryCount', 'numPartitions']) delete block[f];
    const r = parseLine(JSON.stringify(slot));
    if (!r.ok) throw new Error(r.reason);
    const b = (r.event.event as { block: { previousBlockhash: Buffer; rewards: unknown[]; entryCount?: bigint } }).block;
    expect(b.previousBlockhash).toHaveLength(0);
    expect(b.rewards).toEqual([]);
    expect(b.entryCount).toBeUndefined();
  });
});

describe('bad lines give the reason', () => {
  const tx = eventToJson(samples['legacy transaction with memo']!);
  const account = eventToJson(samples['account write with signature']!);
  const slot = eventToJson(samples['processed slot with block meta']!);
  const epoch = eventToJson(samples.epoch!);
  const metaTx = eventToJson(samples['transaction with full meta']!);
  const entry = eventToJson(samples.entry!);
  const reason = (line: string): string => {
    const r = parseLine(line);
    if (r.ok) throw new Error(`expected a bad line: ${line}`);
    return r.reason;
  };
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"type":"slot",', /^not JSON: /],
    ['not an object', '[1,2]', /a JSON object expected, got an array/],
    ['missing type', '{"slot":1}', /field type: missing/],
    ['unknown type', '{"type":"block"}', /field type: one of transaction, account, slot, entry, epoch expected, got "block"/],
    ['prototype type', '{"type":"constructor"}', /field type: one of/],
    ['unknown field', JSON.stringify({ ...slot, colour: 'red' }), /unknown field colour/],
    ['missing slot', JSON.stringify({ ...slot, slot: undefined }), /field slot: missing/],
    ['negative slot', JSON.stringify({ ...slot, slot: -1 }), /field slot: an unsigned 64-bit integer: -1 is out of range/],
    ['fractional slot', JSON.stringify({ ...slot, slot: 1.5 }), /field slot: .*not a whole number/],
    ['unsafe number', JSON.stringify({ ...slot, slot: 2 ** 60 }), /field slot: .*write it as a string/],
    ['u64 overflow', JSON.stringify({ ...account, lamports: '18446744073709551616' }), /field lamports: .* out of range/],
    ['slot as text', JSON.stringify({ ...slot, slot: 'twelve' }), /field slot: an unsigned 64-bit integer expected, got "twelve"/],
    [
      'bad status',
      JSON.stringify({ ...slot, status: 'rooted' }),
      /field status: one of processed, confirmed, finalized, skipped, dead, firstShredReceived, createdBank, completed, gap expected, got "rooted"/,
    ],
    [
      'bad block leader',
      JSON.stringify({ ...slot, block: { ...(slot.block as object), leader: 'xyz0' } }),
      /field block.leader: not base-58/,
    ],
    [
      'short blockhash',
      JSON.stringify({ ...slot, block: { ...(slot.block as object), blockhash: bs58.encode(Buffer.alloc(31, 1)) } }),
      /field block.blockhash: must decode to 32 bytes, got 31/,
    ],
    ['unknown block field', JSON.stringify({ ...slot, block: { ...(slot.block as object), hash: 'x' } }), /unknown field block.hash/],
    ['block not an object', JSON.stringify({ ...slot, block: 3 }), /field block: an object or null expected/],
    ['bad pubkey', JSON.stringify({ ...account, pubkey: 42 }), /field pubkey: a base-58 string expected, got 42/],
    ['bad data base64', JSON.stringify({ ...account, data: 'abc!' }), /field data: not canonical base64/],
    // Node's decoder drops the stray bits of 'AB==' (it reads as 0x00): the one strict decoder refuses them.
    [
      'data base64 with stray bits',
      JSON.stringify({ ...account, data: 'AB==' }),
      /field data: not canonical base64: non-canonical base64 \(trailing bits set\)/,
    ],
    ['data base64 unpadded', JSON.stringify({ ...account, data: 'AAE' }), /field data: not canonical base64: bad base64 padding/],
    [
      'leader too long',
      JSON.stringify({ ...slot, block: { ...(slot.block as object), leader: '2'.repeat(46) } }),
      /field block.leader: must decode to 32 bytes: longer than 45 characters/,
    ],
    ['bad executable', JSON.stringify({ ...account, executable: 'yes' }), /field executable: true or false expected/],
    [
      'short signature',
      JSON.stringify({ ...account, txnSignature: bs58.encode(Buffer.alloc(32, 1)) }),
      /field txnSignature: must decode to 64 bytes, got 32/,
    ],
    ['tx bytes garbage', JSON.stringify({ ...tx, tx: Buffer.from([1, 2, 3]).toString('base64') }), /field tx: not a valid transaction: /],
    ['tx err missing', JSON.stringify({ ...tx, err: undefined }), /field err: missing \(null for success\)/],
    [
      'tx lookups mismatch',
      JSON.stringify({ ...tx, loadedWritable: [bs58.encode(key(3))] }),
      /field tx: not a valid transaction: .*lookups load 0 writable/,
    ],
    ['tx loaded not a list', JSON.stringify({ ...tx, loadedReadonly: 'x' }), /field loadedReadonly: an array of base-58 keys expected/],
    ['tx loaded bad key', JSON.stringify({ ...tx, loadedReadonly: ['1'] }), /field loadedReadonly\[0\]: must decode to 32 bytes/],
    ['tx bad block time', JSON.stringify({ ...tx, blockTime: '1e9' }), /field blockTime: a signed 64-bit integer or null expected/],
    ['tx index too big', JSON.stringify({ ...tx, index: 2 ** 32 }), /field index: an unsigned 32-bit integer: 4294967296 is out of range/],
    [
      'epoch schedule index out of range',
      JSON.stringify({ ...epoch, schedule: [0, 2] }),
      /field schedule\[1\]: an index into identities \(0\.\.1\) expected, got 2/,
    ],
    ['epoch zero slots per leader', JSON.stringify({ ...epoch, slotsPerLeader: 0 }), /field slotsPerLeader: must be at least 1/],
    [
      'balance not a u64',
      JSON.stringify({ ...metaTx, preBalances: [1, -2] }),
      /field preBalances\[1\]: an unsigned 64-bit integer: -2 is out of range/,
    ],
    [
      'token amount missing',
      JSON.stringify({ ...metaTx, postTokenBalances: [{ accountIndex: 1, mint: bs58.encode(key(3)), uiTokenAmount: { decimals: 2 } }] }),
      /field postTokenBalances\[0\]\.uiTokenAmount\.amount: missing/,
    ],
    [
      'inner accounts not bytes',
      JSON.stringify({ ...metaTx, innerInstructions: [{ index: 0, instructions: [{ programIdIndex: 1, accounts: [300], data: '' }] }] }),
      /field innerInstructions\[0\]\.instructions\[0\]\.accounts: an array of account indexes/,
    ],
    ['logs not strings', JSON.stringify({ ...metaTx, logMessages: [1] }), /field logMessages\[0\]: a string expected/],
    [
      'unknown reward type',
      JSON.stringify({ ...metaTx, rewards: [{ pubkey: bs58.encode(key(1)), lamports: 1, postBalance: 1, rewardType: 'Bonus' }] }),
      /field rewards\[0\]\.rewardType: one of Fee, Rent, Staking, Voting, DeactivatedStake or null expected/,
    ],
    ['dead error on a live slot', JSON.stringify({ ...slot, deadError: 'x' }), /field deadError: only a dead slot has one/],
    [
      'gap without range',
      JSON.stringify({ type: 'slot', slot: 5, status: 'gap' }),
      /field gap: a gap record \(status gap\) and only it carries a gap/,
    ],
    [
      'gap range backwards',
      JSON.stringify({ type: 'slot', slot: 5, status: 'gap', gap: { firstSlot: 5, lastSlot: 4, reason: 'r' } }),
      /field gap\.lastSlot: 4 is before firstSlot 5/,
    ],
    [
      'entry short hash',
      JSON.stringify({ ...entry, hash: bs58.encode(Buffer.alloc(31, 1)) }),
      /field hash: must decode to 32 bytes, got 31/,
    ],
  ];
  for (const [name, line, want] of cases) {
    it(name, () => {
      expect(reason(line)).toMatch(want);
    });
  }
});

describe('SlotBatcher regroups file lines into slot batches', () => {
  const status = (slot: bigint, s: SlotStatus): ChainEvent => ({ kind: 'slots', event: { slot, status: s, block: undefined } });
  const tx = (slot: bigint): ChainEvent => ({ kind: 'transactions', event: legacyTx({ slot }) });
  const epoch: ChainEvent = samples.epoch!;
  const account = (slot: bigint): ChainEvent => ({
    kind: 'accounts',
    event: { ...(samples['startup account without signature']!.event as AccountEvent), slot },
  });

  it('starts a batch at each new processed or skipped slot; head lines join the batch in hand', () => {
    // The simulator's order: genesis accounts, epoch, PROCESSED, CONFIRMED of earlier slots, transactions, accounts.
    const lines: ChainEvent[] = [
      status(9n, SlotStatus.SLOT_STATUS_CONFIRMED),
      account(10n),
      epoch,
      status(10n, SlotStatus.SLOT_STATUS_PROCESSED),
      tx(10n),
      status(11n, SlotStatus.SLOT_STATUS_SKIPPED),
      status(10n, SlotStatus.SLOT_STATUS_CONFIRMED),
      status(12n, SlotStatus.SLOT_STATUS_PROCESSED),
      status(10n, SlotStatus.SLOT_STATUS_FINALIZED),
      tx(12n),
      tx(11n),
      account(12n),
      status(12n, SlotStatus.SLOT_STATUS_CONFIRMED),
    ];
    const b = new SlotBatcher();
    const out = [...lines.map((e) => b.push(e)), b.flush()].filter((x) => x !== undefined);
    expect(out.map((x) => [x.slot, x.events.length])).toEqual([
      [10n, 5],
      [11n, 2],
      [12n, 6],
    ]);
    expect(out.flatMap((x) => x.events)).toEqual(lines);
  });

  it('a dead fork is its own batch: progress statuses and entries start it, DEAD ends it', () => {
    const entry = (slot: bigint): ChainEvent => ({ kind: 'entries', event: { ...(samples.entry!.event as EntryEvent), slot } });
    const gap: ChainEvent = samples['gap record']!;
    const lines: ChainEvent[] = [
      status(20n, SlotStatus.SLOT_STATUS_PROCESSED),
      tx(20n),
      status(21n, SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED),
      status(21n, SlotStatus.SLOT_STATUS_CREATED_BANK),
      status(20n, SlotStatus.SLOT_STATUS_CONFIRMED),
      entry(21n),
      status(21n, SlotStatus.SLOT_STATUS_DEAD),
      gap,
      entry(300n),
      status(300n, SlotStatus.SLOT_STATUS_PROCESSED),
    ];
    const b = new SlotBatcher();
    const out = [...lines.map((e) => b.push(e)), b.flush()].filter((x) => x !== undefined);
    expect(out.map((x) => [x.slot, x.events.length])).toEqual([
      [20n, 2],
      [21n, 6],
      [300n, 2],
    ]);
  });

  it('names a batch of head lines only after its highest slot', () => {
    const b = new SlotBatcher();
    expect(b.push(status(7n, SlotStatus.SLOT_STATUS_CONFIRMED))).toBeUndefined();
    expect(b.push(status(5n, SlotStatus.SLOT_STATUS_FINALIZED))).toBeUndefined();
    expect(b.flush()).toEqual({
      slot: 7n,
      events: [status(7n, SlotStatus.SLOT_STATUS_CONFIRMED), status(5n, SlotStatus.SLOT_STATUS_FINALIZED)],
    });
    expect(b.flush()).toBeUndefined();
  });
});

describe('example.jsonl', () => {
  it('is valid in every line and writes back byte for byte', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(new URL('./example.jsonl', import.meta.url), 'utf8');
    const lines = text.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThan(40);
    for (const [i, line] of lines.entries()) {
      const r = parseLine(line);
      expect(r.ok, `line ${i + 1}: ${r.ok ? '' : r.reason}`).toBe(true);
      if (r.ok) expect(eventToLine(r.event)).toBe(line);
    }
  });
});
