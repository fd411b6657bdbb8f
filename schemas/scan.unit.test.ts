import { describe, expect, it } from 'vitest';
import { AccountEvent, ParsedTransactionEvent, TransactionEvent } from './codec.js';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import {
  readVarint64,
  scanAccount,
  scanFields,
  scanInnerInstructions,
  scanInstructions,
  scanParsedRecord,
  scanTransaction,
} from './scan.js';

describe('scan', () => {
  it('reads what matching needs from a transaction record', () => {
    const tx = TransactionEvent.fromPartial({
      slot: 2n ** 52n + 3n,
      signatures: [Buffer.alloc(64, 1), Buffer.alloc(64, 2)],
      accountKeys: [Buffer.alloc(32, 3), Buffer.alloc(32, 4)],
      loadedWritable: [Buffer.alloc(32, 5)],
      loadedReadonly: [Buffer.alloc(32, 6)],
      isVote: true,
      err: '{"InstructionError":[0,"InvalidArgument"]}',
      logMessages: ['x'],
    });
    const s = scanTransaction(Buffer.from(TransactionEvent.encode(tx).finish()));
    expect(s.slot).toBe(tx.slot);
    expect(s.signatures.map((b) => b.toString('hex'))).toEqual(tx.signatures.map((b) => Buffer.from(b).toString('hex')));
    expect(s.accountKeys.length).toBe(2);
    expect(Buffer.from(s.loadedWritable[0]!)).toEqual(Buffer.alloc(32, 5));
    expect(Buffer.from(s.loadedReadonly[0]!)).toEqual(Buffer.alloc(32, 6));
    expect(s.isVote).toBe(true);
    expect(s.failed).toBe(true);
    const ok = scanTransaction(Buffer.from(TransactionEvent.encode(TransactionEvent.fromPartial({ slot: 1n })).finish()));
    expect([ok.failed, ok.isVote, ok.signatures.length]).toEqual([false, false, 0]);
  });

  it('reads top-level and inner instructions from the record, only when asked', () => {
    const tx = TransactionEvent.fromPartial({
      slot: 5n,
      accountKeys: [Buffer.alloc(32, 3)],
      instructions: [
        { programIdIndex: 300, accounts: Buffer.from([0, 1]), data: Buffer.from([1, 2, 3]) },
        { programIdIndex: 0, accounts: Buffer.alloc(0), data: Buffer.alloc(0) },
      ],
      innerInstructions: [
        { index: 0, instructions: [{ programIdIndex: 2, accounts: Buffer.from([1]), data: Buffer.alloc(300, 7), stackHeight: 2 }] },
        { index: 1, instructions: [] },
        {
          index: 1,
          instructions: [
            { programIdIndex: 1, accounts: Buffer.alloc(0), data: Buffer.from([9]) },
            { programIdIndex: 0, accounts: Buffer.alloc(0), data: Buffer.from([8]), stackHeight: 3 },
          ],
        },
      ],
      logMessages: ['after the instructions'],
    });
    const s = scanTransaction(Buffer.from(TransactionEvent.encode(tx).finish()));
    const plain = (l: { programIdIndex: number; data: Uint8Array }[]) =>
      l.map((i) => [i.programIdIndex, Buffer.from(i.data).toString('hex')]);
    expect(plain(scanInstructions(s))).toEqual(plain(tx.instructions));
    expect(plain(scanInnerInstructions(s))).toEqual(plain(tx.innerInstructions.flatMap((g) => g.instructions)));
    const none = scanTransaction(Buffer.from(TransactionEvent.encode(TransactionEvent.fromPartial({ slot: 1n })).finish()));
    expect([scanInstructions(none), scanInnerInstructions(none)]).toEqual([[], []]);
  });

  it('reads an account record', () => {
    const acc = AccountEvent.fromPartial({
      pubkey: Buffer.alloc(32, 1),
      owner: Buffer.alloc(32, 2),
      lamports: 2n ** 64n - 1n,
      data: Buffer.from('abc'),
      slot: 77n,
      writeVersion: 9_000_000_001n,
      txnSignature: Buffer.alloc(64, 9),
    });
    const s = scanAccount(Buffer.from(AccountEvent.encode(acc).finish()));
    expect([s.slot, s.lamports, s.data.toString(), s.writeVersion]).toEqual([77n, 2n ** 64n - 1n, 'abc', 9_000_000_001n]);
    expect(Buffer.from(s.txnSignature!)).toEqual(Buffer.alloc(64, 9));
  });

  it('reads 64-bit varints exactly', () => {
    for (const v of [0n, 1n, 127n, 128n, 2n ** 28n - 1n, 2n ** 28n, 2n ** 32n + 5n, 2n ** 63n, 2n ** 64n - 1n]) {
      const b = Buffer.from(AccountEvent.encode(AccountEvent.fromPartial({ lamports: v })).finish());
      expect(v === 0n ? 0n : readVarint64(b, 1, b.length)).toBe(v);
    }
  });

  it('throws on malformed records instead of reading past them', () => {
    const good = Buffer.from(TransactionEvent.encode(TransactionEvent.fromPartial({ slot: 5n, signatures: [Buffer.alloc(64)] })).finish());
    expect(() => scanTransaction(good.subarray(0, good.length - 3))).toThrow(/truncated/);
    expect(() => scanFields(Buffer.from([0x0b, 0x00]))).toThrow(/wire type/); // wire type 3 (group)
    expect(() => scanFields(Buffer.from([0x00]))).toThrow(/field number 0/);
    expect(() => scanFields(Buffer.from([0x08, 0xff]))).toThrow(/truncated/);
  });

  describe('a parsed record read without copies gives what the generated decoder gives', () => {
    const full = ParsedTransactionEvent.fromPartial({
      slot: 2n ** 63n + 5n,
      index: 4_000_000_000,
      signature: Buffer.alloc(64, 7),
      update: Buffer.from('the encoded update'),
      failed: true,
      hasInstruction: true,
      facts: Buffer.from([1, 2, 3]),
    });
    const enc = (m: ParsedTransactionEvent): Buffer => Buffer.from(ParsedTransactionEvent.encode(m).finish());
    // The same bytes with fields the decoder skips: unknown numbers of every wire type, a known number with the
    // wrong wire type, and a second occurrence of a field (the last wins).
    const extra = new BinaryWriter()
      .uint32((9 << 3) | 0)
      .uint64(300n)
      .uint32((10 << 3) | 2)
      .bytes(Buffer.from('x'))
      .uint32((11 << 3) | 1)
      .fixed64(1n)
      .uint32((12 << 3) | 5)
      .fixed32(1)
      .uint32((1 << 3) | 2)
      .bytes(Buffer.from('slot as bytes'))
      .uint32((4 << 3) | 0)
      .uint64(9n)
      .uint32((2 << 3) | 0)
      .uint64(2n ** 32n + 17n)
      .uint32((3 << 3) | 2)
      .bytes(Buffer.alloc(64, 8))
      .finish();
    it.each([
      ['every field', enc(full)],
      ['none (the defaults)', enc(ParsedTransactionEvent.fromPartial({}))],
      ['unknown, mistyped and repeated fields', Buffer.concat([enc(full), extra])],
    ])('%s', (_name, bytes) => {
      const got = scanParsedRecord(bytes);
      expect({ ...got }).toEqual({ ...ParsedTransactionEvent.decode(bytes) });
    });

    it('stops where the decoder stops: at a zero tag or an end-group tag', () => {
      for (const end of [0x00, 0x0c]) {
        const bytes = Buffer.concat([enc(full), Buffer.from([end, 0x08, 0x01])]);
        expect({ ...scanParsedRecord(bytes) }).toEqual({ ...ParsedTransactionEvent.decode(bytes) });
        expect(scanParsedRecord(bytes).slot).toBe(full.slot);
      }
    });

    it('its bytes are views of the record (no copy)', () => {
      const bytes = enc(full);
      const got = scanParsedRecord(bytes);
      expect(got.update.buffer).toBe(bytes.buffer);
      expect(got.facts.byteOffset).toBeGreaterThanOrEqual(bytes.byteOffset);
    });

    it('throws on malformed records, as the decoder does', () => {
      const bytes = enc(full);
      for (const bad of [bytes.subarray(0, bytes.length - 1), Buffer.from([0x08, 0x80]), Buffer.from([0x22, 0x05, 0x01])]) {
        expect(() => ParsedTransactionEvent.decode(bad), bad.toString('hex')).toThrow();
        expect(() => scanParsedRecord(bad), bad.toString('hex')).toThrow();
      }
    });
  });
});
