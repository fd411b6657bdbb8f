import { describe, expect, it } from 'vitest';
import { AccountEvent, TransactionEvent } from '../../schemas/codec.js';
import { silentLogger, type Logger } from '../../platform/log.js';
import { scannedAccount, scannedTransaction } from './lazy-record.js';

const tx = TransactionEvent.fromPartial({
  slot: 42n,
  signatures: [Buffer.alloc(64, 1)],
  accountKeys: [Buffer.alloc(32, 2), Buffer.alloc(32, 3)],
  loadedWritable: [Buffer.alloc(32, 4)],
  isVote: true,
  logMessages: ['Program log: hi'],
});
const txBytes = Buffer.from(TransactionEvent.encode(tx).finish());

/** A logger that keeps its warnings (what the tail says about a record it could only scan). */
function warnings(): { log: Logger; said: string[] } {
  const said: string[] = [];
  // The lazy record logs only through warn.
  const log = { warn: (_o: object, msg: string) => void said.push(msg) } as unknown as Logger;
  return { log, said };
}

describe('lazy records', () => {
  it('decode in full only when asked, once, equal to the record', () => {
    const r = scannedTransaction(txBytes, { topic: 't', partition: 3 }, silentLogger);
    expect([r.kind, r.scan.slot, r.scan.isVote]).toEqual(['transaction', 42n, true]);
    const event = r.event;
    expect(TransactionEvent.toJSON(event)).toEqual(TransactionEvent.toJSON(tx));
    expect(r.event).toBe(event); // decoded once, then kept

    const acc = AccountEvent.fromPartial({
      pubkey: Buffer.alloc(32, 7),
      owner: Buffer.alloc(32, 8),
      lamports: 5n,
      slot: 9n,
      writeVersion: 3n,
      data: Buffer.from('xyz'),
    });
    const a = scannedAccount(Buffer.from(AccountEvent.encode(acc).finish()), { topic: 'a', partition: 0 }, silentLogger);
    expect([a.kind, a.scan.lamports]).toEqual(['account', 5n]);
    expect(AccountEvent.toJSON(a.event)).toEqual(AccountEvent.toJSON(acc));
  });

  it('fall back to the scanned fields when a nested message is malformed, and say so', () => {
    // A top-level instructions field (10) whose payload is a truncated varint: the scan (top level only)
    // passes, the full decode cannot.
    const bad = Buffer.concat([txBytes, Buffer.from([0x52, 0x01, 0xff])]);
    expect(() => TransactionEvent.decode(bad)).toThrow();
    const { log, said } = warnings();
    const r = scannedTransaction(bad, { topic: 't', partition: 0 }, log);
    expect(r.event.slot).toBe(42n);
    expect(r.event.signatures.map((s) => Buffer.from(s).toString('hex'))).toEqual(tx.signatures.map((s) => Buffer.from(s).toString('hex')));
    expect(r.event.accountKeys.length).toBe(2);
    expect(r.event.loadedWritable.length).toBe(1);
    expect(r.event.isVote).toBe(true);
    expect(r.event.logMessages).toEqual([]); // not scanned: lost with the rest of the meta
    expect(said).toEqual(['record scanned but not decodable in full; using its scanned fields']);
  });
});
