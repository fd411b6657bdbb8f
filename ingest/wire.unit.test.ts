import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Address,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { encodeRecord, type TransactionEvent } from '../schemas/codec.js';
import { noTransactionMeta } from '../schemas/meta.js';
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

describe('wire format', { timeout: 60_000 }, async () => {
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
      const signatures = Object.fromEntries(
        tx.accountKeys.slice(0, tx.numRequiredSignatures).map((k, i) => [addr(k), tx.signatures[i]]),
      );
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
      expect(encodeRecord({ kind: 'transactions', event: back }).value.equals(encodeRecord({ kind: 'transactions', event: withoutMeta }).value)).toBe(true);
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
    expect(() => decodeTransactionWire(encodeTransactionWire(tx), { ...metaOf(tx), loadedReadonly: [] })).toThrow(
      /lookups load/,
    );
    expect(() => encodeMessage({ ...legacy[0]!, recentBlockhash: Buffer.alloc(5) })).toThrow(/recent blockhash/);
    const wire = encodeTransactionWire(legacy[0]!);
    expect(() => decodeTransactionWire(Buffer.concat([wire, Buffer.of(0)]), metaOf(legacy[0]!))).toThrow(/trailing/);
    expect(() => decodeTransactionWire(wire.subarray(0, wire.length - 1), metaOf(legacy[0]!))).toThrow(/truncated/);
  });
});
