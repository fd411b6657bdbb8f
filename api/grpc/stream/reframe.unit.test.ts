import { describe, expect, it } from 'vitest';
import { SimChain } from '../../../ingest/sources/sim/chain.js';
import { DEFAULT_SIM_OPTIONS } from '../../../ingest/sources/sim/options.js';
import { AccountEvent, TransactionEvent, encodeRecord } from '../../../schemas/codec.js';
import { scanAccount, scanFields, scanTransaction } from '../../../schemas/scan.js';
import { encodeAccountBody, encodeTransactionBody } from './encode.js';
import { reframeAccount, reframeTransaction } from '../../../schemas/reframe-stream.js';
import { expectEqual } from '../../../test/support/harness/expect-equal.js';

const timestamp = (ms: number) => ({ seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });

function simRecords(slots: number): { txs: Buffer[]; accounts: Buffer[] } {
  const chain = new SimChain({ ...DEFAULT_SIM_OPTIONS, tps: 400, slotMs: 0, fast: true });
  const txs: Buffer[] = [];
  const accounts: Buffer[] = [];
  for (let i = 0; i < slots; i++) {
    for (const e of chain.next('fast').events) {
      if (e.kind === 'transactions') txs.push(encodeRecord(e).value);
      if (e.kind === 'accounts') accounts.push(encodeRecord(e).value);
    }
  }
  return { txs, accounts };
}

// Simulated chains built and compared whole: CPU-bound, seconds on a loaded machine.
describe('reframe', () => {
  const { txs, accounts } = simRecords(6);

  it('writes the same transaction bodies as encoding the decoded event', () => {
    expect(txs.length).toBeGreaterThan(100);
    const ms = 1_763_900_000_123;
    for (const r of txs)
      expectEqual(reframeTransaction(scanTransaction(r), ms), encodeTransactionBody(TransactionEvent.decode(r), timestamp(ms)));
  });

  it('writes the same account bodies, startup flag and causing signature included', () => {
    expect(accounts.some((r) => AccountEvent.decode(r).isStartup)).toBe(true);
    expect(accounts.some((r) => AccountEvent.decode(r).txnSignature !== undefined)).toBe(true);
    const ms = 1_763_900_000_000; // whole second: no nanos field
    for (const r of accounts) expectEqual(reframeAccount(scanAccount(r), ms), encodeAccountBody(AccountEvent.decode(r), timestamp(ms), []));
  });

  it('keeps empty and edge-valued fields apart (v0 lookups, no signatures, slot 0)', () => {
    const tx = TransactionEvent.fromPartial({
      slot: 0n,
      versioned: true,
      accountKeys: [Buffer.alloc(32, 1)],
      addressTableLookups: [{ accountKey: Buffer.alloc(32, 2), writableIndexes: Buffer.from([1, 2]), readonlyIndexes: Buffer.alloc(0) }],
      instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: Buffer.alloc(300, 7) }],
      logMessages: ['Program log: skipped by the re-framing'],
      fee: 5000n,
    });
    const bytes = Buffer.from(TransactionEvent.encode(tx).finish());
    expect(reframeTransaction(scanTransaction(bytes), 5)).toEqual(encodeTransactionBody(tx, timestamp(5)));
    const acc = AccountEvent.fromPartial({
      pubkey: Buffer.alloc(32, 3),
      owner: Buffer.alloc(32, 4),
      lamports: 2n ** 63n,
      slot: 2n ** 40n,
      writeVersion: 1n,
    });
    const accBytes = Buffer.from(AccountEvent.encode(acc).finish());
    expect(reframeAccount(scanAccount(accBytes), 999)).toEqual(encodeAccountBody(acc, timestamp(999), []));
  });

  it('writes repeated fields in record order when their elements are not next to each other in the record', () => {
    // Protobuf allows a repeated field's elements anywhere among the others: move every second key (field
    // 8) and signature (field 3) to the end, so each field's elements come in several runs.
    const r = txs.find((b) => TransactionEvent.decode(b).accountKeys.length >= 6)!;
    const fields = scanFields(r);
    const head: Buffer[] = [];
    const moved: Buffer[] = [];
    let nth = 0;
    for (let i = 0, from = 0; i < fields.length; from = fields[i + 2]!, i += 3) {
      const piece = r.subarray(from, fields[i + 2]); // tag (one or more bytes) and value
      if ((fields[i] === 8 || fields[i] === 3) && nth++ % 2 === 1) moved.push(piece);
      else head.push(piece);
    }
    // One of them with its tag written in two bytes (a valid, non-minimal varint).
    const last = moved.length - 1; // a key right after another moved key
    moved[last] = Buffer.concat([Buffer.from([moved[last]![0]! | 0x80, 0x00]), moved[last]!.subarray(1)]);
    const shuffled = Buffer.concat([...head, ...moved]);
    expect(shuffled).not.toEqual(r);
    const ms = 1_763_900_000_123.25; // a fraction of a ms, as the live tail's read time has
    expect(reframeTransaction(scanTransaction(shuffled), ms)).toEqual(
      encodeTransactionBody(TransactionEvent.decode(shuffled), timestamp(ms)),
    );
  });
});
