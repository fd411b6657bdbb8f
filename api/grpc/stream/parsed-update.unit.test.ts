// One parsed transaction, decoded and encoded once for every SubscribeParsed stream (parsed-update.ts).
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { SubscribeUpdateParsedTransaction } from '../../../proto/gen/stream.js';
import { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import { SharedEvent } from '../../live/index.js';
import { PUMP_DISCRIMINATORS, PUMP_PROGRAM_ID } from '../../pumpfun/index.js';
import { encodeParsed } from '../../../schemas/pumpfun/encode-parsed.js';
import { parsedUpdateOf, ParsedUpdate } from './parsed-update.js';

const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const curveKey = Buffer.alloc(32, 2);
// Keys: 0 payer, 1 mint, 2 bonding curve, 3 other, 4 pump.fun.
const buy = TransactionEvent.fromPartial({
  slot: 7n,
  signatures: [Buffer.alloc(64, 1)],
  numRequiredSignatures: 1,
  numReadonlyUnsignedAccounts: 1,
  accountKeys: [Buffer.alloc(32, 9), Buffer.alloc(32, 1), curveKey, Buffer.alloc(32, 3), Buffer.from(bs58.decode(PUMP_PROGRAM_ID))],
  recentBlockhash: Buffer.alloc(32, 4),
  instructions: [
    {
      programIdIndex: 4,
      accounts: Buffer.from([3, 3, 1, 2, 3, 3, 0]),
      data: Buffer.concat([PUMP_DISCRIMINATORS.buy, u64(1000n), u64(5n)]),
    },
  ],
});
const curveWrite = (data: string) =>
  AccountEvent.fromPartial({
    pubkey: curveKey,
    owner: buy.accountKeys[4],
    lamports: 1n,
    data: Buffer.from(data),
    slot: 7n,
    writeVersion: 1n,
  });

describe('ParsedUpdate', () => {
  it('is built once per shared transaction update: every stream gets the same scan', () => {
    const shared = new SharedEvent({ kind: 'transaction', event: buy });
    const a = parsedUpdateOf(shared, { event: buy });
    expect(parsedUpdateOf(shared, { event: buy })).toBe(a);
    expect(a.hasContent).toBe(true);
    expect(a.scan.instructions.map((x) => x.instructionOneof?.$case)).toEqual(['buy']);
  });

  it('encodes once per join outcome and hands every stream with that outcome the same bytes', () => {
    const p = new ParsedUpdate(buy);
    const curve = curveWrite('state');
    const withCurve = p.bytes(curve, undefined);
    expect(p.bytes(curve, undefined)).toBe(withCurve); // shared, not re-encoded
    const without = p.bytes(undefined, undefined);
    expect(without).not.toBe(withCurve);
    expect(p.bytes(undefined, undefined)).toBe(without);
    // Another write (another object) is another outcome: its own bytes, never another stream's.
    const other = p.bytes(curveWrite('other'), undefined);
    expect(Buffer.from(SubscribeUpdateParsedTransaction.decode(other).account!.account!.data).toString()).toBe('other');
    // The bytes are exactly what each stream encoded for itself before.
    expect(withCurve.equals(encodeParsed(buy, p.scan, curve, undefined))).toBe(true);
    expect(without.equals(encodeParsed(buy, p.scan, undefined, undefined))).toBe(true);
  });

  it('a transaction with nothing of either program has no content', () => {
    const none = TransactionEvent.fromPartial({ ...buy, accountKeys: buy.accountKeys.slice(0, 4).concat([Buffer.alloc(32, 8)]) });
    expect(new ParsedUpdate(none).hasContent).toBe(false);
  });
});
