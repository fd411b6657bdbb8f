import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Address,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { encodeRecord, type TransactionEvent } from './codec.js';
import { noTransactionMeta } from './meta.js';
import { collect } from '../test/support/sim/checks.js';
import { decodeTransactionWire, encodeMessage, encodeTransactionWire, WireError } from './wire.js';

const b58 = getBase58Decoder();
const addr = (b: Uint8Array): Address => b58.decode(b) as Address;

/** The same message expressed in kit's compiled form, to encode with kit's own encoder. */
function kitMessage(tx: TransactionEvent) {
  return {
    version: tx.versioned ? (0 as const) : ('legacy' as const),
    header: {
      numSignerAccounts: tx.numRequiredSignatures,
      numReadonlySignerAccounts: tx.numReadonlySignedAccounts,
      numReadonlyNonSignerAccounts: tx.numReadonlyUnsignedAccounts,
    },
    staticAccounts: tx.accountKeys.map(addr),
    lifetimeToken: b58.decode(tx.recentBlockhash),
    instructions: tx.instructions.map((ix) => ({
      programAddressIndex: ix.programIdIndex,
      accountIndices: [...ix.accounts],
      data: ix.data,
    })),
    ...(tx.versioned
      ? {
          addressTableLookups: tx.addressTableLookups.map((l) => ({
            lookupTableAddress: addr(l.accountKey),
            writableIndexes: [...l.writableIndexes],
            readonlyIndexes: [...l.readonlyIndexes],
          })),
        }
      : {}),
  };
}

const metaOf = (tx: TransactionEvent) => ({
  slot: tx.slot,
  index: tx.index,
  err: tx.err,
  loadedWritable: tx.loadedWritable,
  loadedReadonly: tx.loadedReadonly,
  blockTime: tx.blockTime,
  fee: tx.fee,
});

describe('wire format', async () => {
  const batches = await collect({ maxSlots: 8, tps: 600 });
  const txs = batches.flatMap((b) => b.events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : [])));
  const legacy = txs.filter((t) => !t.versioned);
  const v0 = txs.filter((t) => t.versioned && t.addressTableLookups.length > 0);
  const withMemo = txs.filter((t) => t.memos.length > 0);

  it('has legacy, v0-with-lookups, vote and memo samples to test', () => {
    expect(legacy.length).toBeGreaterThan(10);
    expect(v0.length).toBeGreaterThan(3);
    expect(txs.some((t) => t.isVote)).toBe(true);
    expect(withMemo.length).toBeGreaterThan(0);
  });

  it('encodeMessage equals @solana/kit compiled message encoder (legacy and v0)', () => {
    const enc = getCompiledTransactionMessageEncoder();
    for (const tx of [...legacy.slice(0, 40), ...v0.slice(0, 40)]) {
      expect(Buffer.from(encodeMessage(tx))).toEqual(Buffer.from(enc.encode(kitMessage(tx))));
    }
  });

  it('encodeTransactionWire equals @solana/kit transaction encoder', () => {
    const enc = getTransactionEncoder();
    for (const tx of [...legacy.slice(0, 20), ...v0.slice(0, 20)]) {
      const signatures = Object.fromEntries(tx.accountKeys.slice(0, tx.numRequiredSignatures).map((k, i) => [addr(k), tx.signatures[i]]));
      const kit = enc.encode({ messageBytes: encodeMessage(tx), signatures } as never);
      expect(Buffer.from(encodeTransactionWire(tx))).toEqual(Buffer.from(kit));
    }
  });

  it('decodeTransactionWire round-trips every transaction, deriving is_vote and memos', () => {
    for (const tx of txs) {
      const wire = encodeTransactionWire(tx);
      expect(wire.length).toBeLessThanOrEqual(1232);
      const back = decodeTransactionWire(wire, metaOf(tx));
      // Compare the protobuf encodings: byte-equal records mean every field survived. The wire holds no
      // execution meta (balances, logs...): the decoded transaction says it was not recorded.
      const withoutMeta = { ...tx, ...noTransactionMeta() };
      expect(
        encodeRecord({ kind: 'transactions', event: back }).value.equals(encodeRecord({ kind: 'transactions', event: withoutMeta }).value),
      ).toBe(true);
      expect(back.isVote).toBe(tx.isVote);
      expect(back.memos).toEqual(tx.memos);
    }
  });

  it('decodes like @solana/kit decoders (header, keys, instructions, lookups, signatures)', () => {
    const txDec = getTransactionDecoder();
    const msgDec = getCompiledTransactionMessageDecoder();
    for (const tx of [...legacy.slice(0, 20), ...v0.slice(0, 20)]) {
      const wire = encodeTransactionWire(tx);
      const mine = decodeTransactionWire(wire, metaOf(tx));
      const kitTx = txDec.decode(wire);
      const kitMsg = msgDec.decode(kitTx.messageBytes);
      if (kitMsg.version !== 'legacy' && kitMsg.version !== 0) throw new Error(`unexpected version ${kitMsg.version}`);
      expect(kitMessage(mine)).toEqual({
        ...kitMsg,
        instructions: kitMsg.instructions.map((ix) => ({
          programAddressIndex: ix.programAddressIndex,
          accountIndices: ix.accountIndices ?? [],
          data: Buffer.from(ix.data ?? []),
        })),
      });
      expect(Object.values(kitTx.signatures).map((s) => Buffer.from(s!))).toEqual(mine.signatures);
    }
  });

  it('rejects garbage and inconsistent lookup metadata with a WireError', () => {
    expect(() => decodeTransactionWire(Buffer.from([1, 2, 3]), metaOf(legacy[0]!))).toThrow(WireError);
    const tx = v0[0]!;
    expect(() => decodeTransactionWire(encodeTransactionWire(tx), { ...metaOf(tx), loadedReadonly: [] })).toThrow(/lookups load/);
    expect(() => encodeMessage({ ...legacy[0]!, recentBlockhash: Buffer.alloc(5) })).toThrow(/recent blockhash/);
    const wire = encodeTransactionWire(legacy[0]!);
    expect(() => decodeTransactionWire(Buffer.concat([wire, Buffer.of(0)]), metaOf(legacy[0]!))).toThrow(/trailing/);
    expect(() => decodeTransactionWire(wire.subarray(0, wire.length - 1), metaOf(legacy[0]!))).toThrow(/truncated/);
  });
});

describe('wire format v1 (SIMD-0385)', () => {
  // A synthetic v1 transaction: payer + 3 more addresses, two instructions, every config value set.
  const key = (n: number): Buffer => Buffer.alloc(32, n);
  const v1: TransactionEvent = {
    slot: 7n,
    index: 2,
    signatures: [Buffer.alloc(64, 9)],
    versioned: true,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [key(1), key(2), key(3), key(4)],
    recentBlockhash: key(5),
    instructions: [
      { programIdIndex: 3, accounts: Buffer.from([0, 1]), data: Buffer.from([1, 2, 3]) },
      { programIdIndex: 2, accounts: Buffer.from([1]), data: Buffer.alloc(300, 7) },
    ],
    addressTableLookups: [],
    loadedWritable: [],
    loadedReadonly: [],
    isVote: false,
    err: undefined,
    fee: 5000n,
    memos: [],
    blockTime: 1_700_000_000n,
    ...noTransactionMeta(),
    version: 1,
    transactionConfig: { priorityFee: 300_000n, computeUnitLimit: 200_000, loadedAccountsDataSizeLimit: 65_536, heapSize: 65_536 },
  };
  const wire = Buffer.from(encodeTransactionWire(v1));
  const meta = metaOf(v1);
  // Byte offsets of this layout: 0 version, 1-3 header, 4-7 mask, 8-39 blockhash, 40 instruction count,
  // 41 address count, 42-169 addresses, 170-189 config values, 190-197 instruction headers, then payloads
  // (2 + 3, 1 + 300 bytes: 198-503; instruction 1 data from 204), then the signature (504-567).
  const patched = (at: number, ...bytes: number[]): Buffer => {
    const b = Buffer.from(wire);
    bytes.forEach((v, i) => (b[at + i] = v));
    return b;
  };

  it('writes the v1 layout and reads it back to the same event, byte for byte through the record codec', () => {
    expect(wire[0]).toBe(0x81);
    expect(wire.readUInt32LE(4)).toBe(0b11111);
    expect(wire.length).toBe(568);
    expect(Buffer.from(encodeMessage(v1))).toEqual(wire.subarray(0, 504));
    const back = decodeTransactionWire(wire, meta);
    expect(back).toEqual(v1);
    expect(encodeRecord({ kind: 'transactions', event: back }).value).toEqual(encodeRecord({ kind: 'transactions', event: v1 }).value);
  });

  it('decodes like @solana/kit (config values, instruction headers and payloads, signatures last)', () => {
    const kitTx = getTransactionDecoder().decode(wire);
    expect(Buffer.from(kitTx.messageBytes)).toEqual(Buffer.from(encodeMessage(v1)));
    expect(Object.values(kitTx.signatures).map((s) => Buffer.from(s!))).toEqual(v1.signatures);
    const kitMsg = getCompiledTransactionMessageDecoder().decode(kitTx.messageBytes) as unknown as {
      configMask: number;
      configValues: { value: number | bigint }[];
      staticAccounts: string[];
      instructionHeaders: { programAccountIndex: number; numInstructionAccounts: number; numInstructionDataBytes: number }[];
    };
    expect(kitMsg.configMask).toBe(0b11111);
    expect(kitMsg.configValues.map((v) => BigInt(v.value))).toEqual([300_000n, 200_000n, 65_536n, 65_536n]);
    expect(kitMsg.staticAccounts).toEqual(v1.accountKeys.map(addr));
    expect(kitMsg.instructionHeaders.map((h) => [h.programAccountIndex, h.numInstructionAccounts, h.numInstructionDataBytes])).toEqual([
      [3, 2, 3],
      [2, 1, 300],
    ]);
  });

  it('keeps absent config values absent (mask bits clear, no bytes), an empty config included', () => {
    for (const transactionConfig of [{ computeUnitLimit: 1 }, { heapSize: 32_768, priorityFee: 0n }, {}]) {
      const tx = { ...v1, transactionConfig };
      const back = decodeTransactionWire(encodeTransactionWire(tx), meta);
      expect(back.transactionConfig).toEqual({
        priorityFee: undefined,
        computeUnitLimit: undefined,
        loadedAccountsDataSizeLimit: undefined,
        heapSize: undefined,
        ...transactionConfig,
      });
      expect(Buffer.from(encodeTransactionWire(back))).toEqual(Buffer.from(encodeTransactionWire(tx)));
    }
  });

  it('names the byte and the reason for malformed v1 input', () => {
    const cases: [Buffer, RegExp][] = [
      [wire.subarray(0, 2), /^truncated at byte 2: expected message header$/],
      [wire.subarray(0, 6), /^truncated at byte 4: expected 4 bytes of config mask$/],
      [wire.subarray(0, 100), /^truncated at byte 74: expected 32 bytes of address$/],
      [wire.subarray(0, 175), /^truncated at byte 170: expected 8 bytes of priority fee config value$/],
      [wire.subarray(0, 193), /^truncated at byte 192: expected 2 bytes of instruction 0 header$/],
      [wire.subarray(0, 400), /^truncated at byte 204: expected 300 bytes of instruction 1 data$/],
      // The defect of issue 18: the signature cut short must not read as a signature count.
      [wire.subarray(0, wire.length - 1), /^truncated at byte 567: the 1 signatures from byte 504 need 64 bytes, 63 are left$/],
      [Buffer.concat([wire, Buffer.of(0)]), /^1 trailing bytes after the 1 signatures, from byte 568$/],
      [patched(4, 0x3f), /^config mask at byte 4 sets bits SIMD-0385 does not define \(0x3f; known: 0x1f\)$/],
      [patched(4, 0b11101), /^config mask at byte 4 sets one of the priority fee's two bits \(0x1d\): both or neither$/],
      [patched(1, 5), /^header counts \(5, 0, 1\) exceed the 4 addresses \(count at byte 41\)$/],
      [patched(194, 4), /^instruction 1 header at byte 194: program id index 4 beyond the 4 addresses$/],
      [patched(199, 9), /^instruction 0 account index 9 at byte 199 beyond the 4 addresses$/],
    ];
    for (const [bytes, message] of cases) {
      expect(() => decodeTransactionWire(bytes, meta), message.source).toThrow(WireError);
      expect(() => decodeTransactionWire(bytes, meta), message.source).toThrow(message);
    }
    expect(() => decodeTransactionWire(wire, { ...meta, loadedReadonly: [key(8)] })).toThrow(
      /^a v1 transaction loads no addresses, meta gives 0 writable and 1 readonly$/,
    );
    // v1's message behind a legacy signature count is neither format.
    const counted = Buffer.concat([Buffer.of(1), Buffer.alloc(64, 9), wire.subarray(0, 504)]);
    expect(() => decodeTransactionWire(counted, meta)).toThrow(
      /^unsupported message version 1 at byte 65 \(a v1 transaction starts with 0x81/,
    );
  });

  it('refuses to write a v1 event it cannot express', () => {
    expect(() =>
      encodeTransactionWire({
        ...v1,
        addressTableLookups: [{ accountKey: key(1), writableIndexes: Buffer.of(0), readonlyIndexes: Buffer.alloc(0) }],
      }),
    ).toThrow(/v1 message cannot carry address table lookups/);
    expect(() =>
      encodeTransactionWire({ ...v1, instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: Buffer.alloc(70_000) }] }),
    ).toThrow(/exceeds a u16 length/);
  });
});
