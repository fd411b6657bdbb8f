import { describe, expect, it } from 'vitest';
import { AccountEvent, EntryEvent, TransactionEvent } from './gen/events.js';
import { encodeMessage } from './proto-writer.js';

const fresh = <T>(codec: { encode(m: T): { finish(): Uint8Array } }, m: T) => Buffer.from(codec.encode(m).finish());

describe('encodeMessage', () => {
  it('gives the bytes a fresh writer gives, large messages before small ones and back', () => {
    const big = TransactionEvent.fromPartial({
      slot: 9n,
      index: 3,
      signatures: [Buffer.alloc(64, 7)],
      accountKeys: Array.from({ length: 40 }, (_, i) => Buffer.alloc(32, i)),
      logMessages: ['x'.repeat(3000)],
      fee: 5000n,
    });
    const small = EntryEvent.fromPartial({ slot: 1n, index: 2, numHashes: 3n });
    const account = AccountEvent.fromPartial({
      slot: 4n,
      pubkey: Buffer.alloc(32, 1),
      lamports: 2n ** 64n - 1n,
      data: Buffer.alloc(165, 9),
    });
    const outs: Buffer[] = [];
    for (let round = 0; round < 3; round++) {
      outs.push(encodeMessage(TransactionEvent, big), encodeMessage(EntryEvent, small), encodeMessage(AccountEvent, account));
    }
    expect(outs[0]).toEqual(fresh(TransactionEvent, big));
    expect(outs[1]).toEqual(fresh(EntryEvent, small));
    expect(outs[2]).toEqual(fresh(AccountEvent, account));
    expect(outs.slice(3)).toEqual([...outs.slice(0, 3), ...outs.slice(0, 3)]);
    // Each result owns its bytes: later encodes do not write into it.
    expect(TransactionEvent.decode(outs[0]!).logMessages[0]).toHaveLength(3000);
  });

  it('drops what a refused message half-wrote, so the next message is whole', () => {
    const bad = TransactionEvent.fromPartial({ slot: 1n, signatures: [Buffer.alloc(64, 1)], fee: 2n ** 64n });
    expect(() => encodeMessage(TransactionEvent, bad)).toThrow(/too large/);
    const good = EntryEvent.fromPartial({ slot: 5n, index: 1 });
    expect(encodeMessage(EntryEvent, good)).toEqual(fresh(EntryEvent, good));
  });
});
