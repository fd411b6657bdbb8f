// Notification JSON: Agave's envelope with `subscription` last (the splice point), UiAccount encodings
// (the base58 placeholder for data over 128 bytes, as Agave's pubsub writes it), logs and slot values.
import bs58 from 'bs58';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeRecord } from '../../schemas/codec.js';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { scanTransaction } from '../../schemas/scan.js';
import { encodeAccountData, uiAccount } from '../solana-json/accounts.js';
import { toJson } from '../solana-json/json.js';
import { zstdReady } from '../solana-json/zstd.js';
import type { AccountView } from './params.js';
import {
  keyedAccountJson,
  logsJson,
  notificationPrefix,
  notificationSuffix,
  signatureResultJson,
  slotInfoJson,
  transactionLogsJson,
  uiAccountJson,
  withSlot,
} from './notify.js';

const acc = (data: Buffer) =>
  AccountEvent.fromPartial({
    pubkey: Buffer.alloc(32, 1),
    owner: Buffer.alloc(32, 2),
    lamports: 2n ** 64n - 1n,
    rentEpoch: 18446744073709551615n,
    data,
    slot: 9n,
  });

describe('notifications', () => {
  it('prefix + result + suffix is one JSON-RPC notification; readAt only when asked', () => {
    const text = notificationPrefix('account') + withSlot(12n, '{"a":1}') + notificationSuffix(5);
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      method: 'accountNotification',
      params: { result: { context: { slot: 12 }, value: { a: 1 } }, subscription: 5 },
    });
    expect(JSON.parse(notificationPrefix('root') + '7' + notificationSuffix(5, 1234)).params).toEqual({
      result: 7,
      subscription: 5,
      readAt: 1234,
    });
  });

  it('UiAccount: exact u64s, binary/base58/base64 data, slices, and the base58 size placeholder', () => {
    const small = uiAccountJson(acc(Buffer.from([1, 2, 3])), { encoding: 'binary', dataSlice: undefined });
    expect(small).toBe(
      `{"lamports":18446744073709551615,"data":"${bs58.encode(Buffer.from([1, 2, 3]))}","owner":"${bs58.encode(Buffer.alloc(32, 2))}","executable":false,"rentEpoch":18446744073709551615,"space":3}`,
    );
    const big = JSON.parse(uiAccountJson(acc(Buffer.alloc(200, 1)), { encoding: 'base58', dataSlice: undefined })) as {
      data: unknown;
      space: number;
    };
    expect(big.data).toEqual(['error: data too large for bs58 encoding', 'base58']);
    expect(big.space).toBe(200);
    const sliced = JSON.parse(
      uiAccountJson(acc(Buffer.from([1, 2, 3, 4])), { encoding: 'base64', dataSlice: { offset: 1, length: 2 } }),
    ) as { data: unknown; space: number };
    expect(sliced.data).toEqual([Buffer.from([2, 3]).toString('base64'), 'base64']);
    expect(sliced.space).toBe(4);
    const keyed = JSON.parse(keyedAccountJson(acc(Buffer.alloc(0)), { encoding: 'base64', dataSlice: undefined })) as { pubkey: string };
    expect(keyed.pubkey).toBe(bs58.encode(Buffer.alloc(32, 1)));
  });

  beforeAll(() => zstdReady());

  it("UiAccount as text is JSON-RPC's UiAccount (getAccountInfo's writer) byte for byte, in every encoding and slice", () => {
    const data = Buffer.from(Array.from({ length: 90 }, (_, i) => (i * 37) % 256));
    const e = AccountEvent.fromPartial({
      pubkey: Buffer.alloc(32, 1),
      owner: Buffer.alloc(32, 7),
      lamports: 123_456_789_012n,
      executable: true,
      rentEpoch: 2n ** 64n - 1n,
      data,
    });
    const row = {
      pubkey: '',
      owner: bs58.encode(e.owner),
      lamports: e.lamports.toString(),
      executable: true,
      rent_epoch: e.rentEpoch.toString(),
      space: data.length,
      data: '',
    };
    for (const encoding of ['base64', 'base58', 'binary', 'base64+zstd', 'jsonParsed'] as const) {
      for (const dataSlice of [undefined, { offset: 3, length: 40 }, { offset: 80, length: 50 }]) {
        const v = { encoding, dataSlice } as AccountView;
        expect(uiAccountJson(e, v)).toBe(toJson(uiAccount(row, encodeAccountData(data.toString('base64'), encoding, dataSlice))));
      }
    }
  });

  it('logs, signature and slot values', () => {
    const tx = TransactionEvent.fromPartial({
      signatures: [Buffer.alloc(64, 3)],
      err: '{"InstructionError":[1,"InvalidArgument"]}',
      logMessages: ['a', 'b'],
    });
    expect(JSON.parse(logsJson(tx))).toEqual({
      signature: bs58.encode(Buffer.alloc(64, 3)),
      err: { InstructionError: [1, 'InvalidArgument'] },
      logs: ['a', 'b'],
    });
    expect(signatureResultJson(undefined)).toBe('{"err":null}');
    expect(JSON.parse(slotInfoJson(10n, 8n, 2n))).toEqual({ slot: 10, parent: 8, root: 2 });
  });

  it("a scanned transaction's logs value is read from the record's bytes, the same text as from the decoded event", () => {
    const txs = [
      TransactionEvent.fromPartial({
        slot: 7n,
        signatures: [Buffer.alloc(64, 0), Buffer.alloc(64, 9)],
        err: '{"InstructionError":[1,{"Custom":6002}]}',
        logMessages: ['Program log: é "quoted" \\ \n', 'b'.repeat(300)],
      }),
      TransactionEvent.fromPartial({
        slot: 7n,
        signatures: [Buffer.alloc(64, 3)],
        logMessages: [],
        logMessagesNone: true,
        fee: 5000n,
        preBalances: [1n, 2n],
        postBalances: [3n, 4n],
      }),
      TransactionEvent.fromPartial({
        slot: 7n,
        signatures: [],
        accountKeys: [Buffer.alloc(32, 1)],
        logMessages: ['only'],
        computeUnitsConsumed: 10n,
      }),
    ];
    for (const tx of txs) {
      const value = encodeRecord({ kind: 'transactions', event: tx }).value;
      const event = TransactionEvent.decode(value);
      expect(transactionLogsJson({ event, scan: scanTransaction(value) })).toBe(logsJson(event));
      expect(transactionLogsJson({ event })).toBe(logsJson(event));
    }
    const first = JSON.parse(
      transactionLogsJson({ event: txs[0]!, scan: scanTransaction(encodeRecord({ kind: 'transactions', event: txs[0]! }).value) }),
    ) as { signature: string; err: unknown; logs: string[] };
    expect(first).toEqual({
      signature: bs58.encode(Buffer.alloc(64, 0)),
      err: { InstructionError: [1, { Custom: 6002 }] },
      logs: txs[0]!.logMessages,
    });
  });
});
