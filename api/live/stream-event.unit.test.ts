// The records the live tail and a replay hand on (stream-event.ts): one shape per kind, whoever reads.
import { describe, expect, it } from 'vitest';
import type { InRecord } from '../../platform/kafka/index.js';
import type { Logger } from '../../platform/log.js';
import { AccountEvent, EntryEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../schemas/gen/events.js';
import { readRecord, TOPIC_KIND } from './stream-event.js';

const record = (topic: string, partition: number, value: Buffer | null): InRecord => ({
  topic,
  partition,
  offset: 9n,
  key: null,
  value,
  timestamp: 0,
});
const enc = <T>(codec: { encode(m: T): { finish(): Uint8Array } }, m: T): Buffer => Buffer.from(codec.encode(m).finish());

function warnings(): { log: Logger; said: string[] } {
  const said: string[] = [];
  const log = { warn: (_o: object, msg: string) => void said.push(msg) } as unknown as Logger;
  return { log, said };
}

describe('readRecord', () => {
  it('gives every kind its update kind, the partition it was read from and its slot', () => {
    const { log } = warnings();
    const tx = readRecord(
      'transactions',
      record('t', 3, enc(TransactionEvent, TransactionEvent.fromPartial({ slot: 7n, signatures: [Buffer.alloc(64, 1)] }))),
      log,
    )!;
    const acc = readRecord(
      'accounts',
      record('a', 1, enc(AccountEvent, AccountEvent.fromPartial({ slot: 8n, pubkey: Buffer.alloc(32, 2), writeVersion: 4n }))),
      log,
    )!;
    const slot = readRecord(
      'slots',
      record('s', 2, enc(SlotEvent, SlotEvent.fromPartial({ slot: 9n, status: SlotStatus.SLOT_STATUS_CONFIRMED }))),
      log,
    )!;
    const entry = readRecord('entries', record('e', 0, enc(EntryEvent, EntryEvent.fromPartial({ slot: 10n, index: 3n }))), log)!;
    expect([tx, acc, slot, entry].map((e) => [e.kind, e.partition, e.slot])).toEqual([
      ['transaction', 3, 7n],
      ['account', 1, 8n],
      ['slot', 2, 9n],
      ['entry', 0, 10n],
    ]);
    // Transactions and accounts come scanned, whoever reads them (the live tail or a replay).
    expect(tx.kind === 'transaction' && tx.scan.signatures.length).toBe(1);
    expect(acc.kind === 'account' && acc.scan.writeVersion).toBe(4n);
    expect([tx, acc, slot, entry].map((e) => TOPIC_KIND[e.kind])).toEqual(['transactions', 'accounts', 'slots', 'entries']);
  });

  it('skips what it cannot read, saying so, and reads on', () => {
    const { log, said } = warnings();
    expect(readRecord('slots', record('s', 0, Buffer.from([0xff, 0xff])), log, 'replay: ')).toBeUndefined();
    expect(readRecord('transactions', record('t', 0, Buffer.from([0x0a, 0x05])), log)).toBeUndefined();
    expect(readRecord('entries', record('e', 0, null), log)).toBeUndefined();
    expect(said).toEqual(['replay: skipping undecodable record', 'skipping unscannable record', 'skipping undecodable record']);
  });
});
