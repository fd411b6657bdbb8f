import { describe, expect, it } from 'vitest';
import { SubscribeUpdate } from '../../../proto/gen/stream.js';
import { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import { encodeFiltersPrefix } from '../filters-prefix.js';
import { dataSliceKey } from '../../filters/index.js';
import { encodeAccountBody, encodePing, encodePong, encodeTransactionBody } from './encode.js';

const ts = { seconds: 1_700_000_000n, nanos: 5_000_000 };
const tx = TransactionEvent.fromPartial({
  slot: 42n,
  signatures: [Buffer.alloc(64, 1), Buffer.alloc(64, 2)],
  numRequiredSignatures: 2,
  accountKeys: [Buffer.alloc(32, 3)],
  recentBlockhash: Buffer.alloc(32, 4),
  instructions: [{ programIdIndex: 0, accounts: Buffer.from([0]), data: Buffer.from([7]) }],
});
const acc = AccountEvent.fromPartial({
  pubkey: Buffer.alloc(32, 5),
  owner: Buffer.alloc(32, 6),
  lamports: 10n,
  data: Buffer.from('0123456789'),
  slot: 43n,
  writeVersion: 9n,
  rentEpoch: 18446744073709551615n,
  txnSignature: Buffer.alloc(64, 1),
});

describe('encode once, prefix filters per stream', () => {
  it('prefix + shared body decodes like a message encoded in one go', () => {
    for (const names of [[], ['a'], ['alpha', 'zeta'], [''], ['ü'.repeat(100)]]) {
      const bytes = Buffer.concat([encodeFiltersPrefix(names), encodeTransactionBody(tx, ts)]);
      const decoded = SubscribeUpdate.decode(bytes);
      expect(decoded.filters).toEqual(names);
      expect(decoded.createdAt).toEqual(ts);
      expect(decoded.updateOneof?.$case).toBe('transaction');
      const t = decoded.updateOneof!.value as { slot: bigint; transaction: { signature: Buffer; signatures: Buffer[] } };
      expect(t.slot).toBe(42n);
      expect(t.transaction.signature.equals(tx.signatures[0]!)).toBe(true);
      expect(t.transaction.signatures).toHaveLength(2);
      const whole = SubscribeUpdate.encode({ ...decoded }).finish();
      expect(SubscribeUpdate.decode(whole)).toEqual(decoded);
    }
  });

  it('slices account data and keeps the u64 extremes', () => {
    const body = encodeAccountBody(acc, ts, [
      { offset: 1, length: 2 },
      { offset: 8, length: 5 },
    ]);
    const d = SubscribeUpdate.decode(Buffer.concat([encodeFiltersPrefix(['x']), body]));
    const a = d.updateOneof!.value as { slot: bigint; account: { data: Buffer; rentEpoch: bigint; txnSignature?: Buffer } };
    expect(a.account.data.toString()).toBe('1289');
    expect(a.account.rentEpoch).toBe(18446744073709551615n);
    expect(a.slot).toBe(43n);
    expect(a.account.txnSignature?.equals(acc.txnSignature!)).toBe(true);
    expect(dataSliceKey([{ offset: 1, length: 2 }])).not.toBe(dataSliceKey([{ offset: 12, length: 0 }]));
  });

  it('encodes ping and pong with empty filters', () => {
    expect(SubscribeUpdate.decode(encodePing(ts))).toEqual({ filters: [], createdAt: ts, updateOneof: { $case: 'ping', value: {} } });
    expect(SubscribeUpdate.decode(encodePong(-3, ts)).updateOneof).toEqual({ $case: 'pong', value: { id: -3 } });
  });
});
