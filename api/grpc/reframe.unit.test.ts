import { describe, expect, it } from 'vitest';
import { SimChain } from '../../ingest/sim/chain.js';
import { DEFAULT_SIM_OPTIONS } from '../../ingest/sim/options.js';
import { AccountEvent, TransactionEvent, encodeRecord } from '../../schemas/codec.js';
import { scanAccount, scanTransaction } from '../../schemas/scan.js';
import { encodeAccountBody, encodeTransactionBody } from './encode.js';
import { reframeAccount, reframeTransaction } from './reframe.js';

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

describe('reframe', () => {
  const { txs, accounts } = simRecords(6);

  it('writes the same transaction bodies as encoding the decoded event', () => {
    expect(txs.length).toBeGreaterThan(100);
    const ms = 1_763_900_000_123;
    for (const r of txs) expect(reframeTransaction(scanTransaction(r), ms)).toEqual(encodeTransactionBody(TransactionEvent.decode(r), timestamp(ms)));
  });

  it('writes the same account bodies, startup flag and causing signature included', () => {
    expect(accounts.some((r) => AccountEvent.decode(r).isStartup)).toBe(true);
    expect(accounts.some((r) => AccountEvent.decode(r).txnSignature !== undefined)).toBe(true);
    const ms = 1_763_900_000_000; // whole second: no nanos field
    for (const r of accounts) expect(reframeAccount(scanAccount(r), ms)).toEqual(encodeAccountBody(AccountEvent.decode(r), timestamp(ms), []));
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
    const acc = AccountEvent.fromPartial({ pubkey: Buffer.alloc(32, 3), owner: Buffer.alloc(32, 4), lamports: 2n ** 63n, slot: 2n ** 40n, writeVersion: 1n });
    const accBytes = Buffer.from(AccountEvent.encode(acc).finish());
    expect(reframeAccount(scanAccount(accBytes), 999)).toEqual(encodeAccountBody(acc, timestamp(999), []));
  });
});
