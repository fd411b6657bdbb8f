// Record 23 of the mainnet pump collection (../shared/data/mainnet/pump, read in place): a real signed v1
// (SIMD-0385) transaction. The wire codec reads it, writes it back byte for byte, and the message it
// writes is the one the signature signs.
import { createPublicKey, verify } from 'node:crypto';
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from './codec.js';
import { decodeTransactionWire, encodeMessage, encodeTransactionWire, WireError } from './wire.js';
import { readPumpV1Transaction } from '../test/support/mainnet/data.js';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const record = readPumpV1Transaction();
const wire = Buffer.from(record.wire_base64, 'base64');
const meta = {
  slot: BigInt(record.slot!),
  index: 0,
  loadedWritable: [],
  loadedReadonly: [],
  fee: BigInt(record.meta.fee),
  blockTime: BigInt(record.blockTime!),
};

describe('mainnet v1 transaction (pump record 23)', () => {
  const tx = decodeTransactionWire(wire, meta);

  it('decodes: version 1, its config values, its signature, no lookups', () => {
    expect(wire[0]).toBe(0x81);
    expect(tx.version).toBe(1);
    expect(tx.versioned).toBe(true);
    // The data README's hand parse: priority fee 300000, compute-unit limit 315000, data-size limit 67108864.
    expect(tx.transactionConfig).toEqual({
      priorityFee: 300_000n,
      computeUnitLimit: 315_000,
      loadedAccountsDataSizeLimit: 67_108_864,
      heapSize: undefined,
    });
    expect(tx.signatures.map((s) => bs58.encode(s))).toEqual([record.signature]);
    expect(tx.addressTableLookups).toEqual([]);
    expect([tx.numRequiredSignatures, tx.numReadonlySignedAccounts, tx.numReadonlyUnsignedAccounts]).toEqual([1, 0, 16]);
    expect(tx.accountKeys).toHaveLength(34);
    expect(tx.instructions).toHaveLength(3);
  });

  it('writes back the identical bytes, also after a trip through the Kafka record codec', () => {
    expect(Buffer.from(encodeTransactionWire(tx))).toEqual(wire);
    const back = decodeRecord('transactions', encodeRecord({ kind: 'transactions', event: tx }).value);
    if (!back.ok || back.value.kind !== 'transactions') throw new Error('record did not decode');
    expect(back.value.event.version).toBe(1);
    expect(Buffer.from(encodeTransactionWire(back.value.event))).toEqual(wire);
  });

  it('its message is what the fee payer signed, and @solana/kit reads the same', () => {
    const message = Buffer.from(encodeMessage(tx));
    expect(message).toEqual(wire.subarray(0, wire.length - 64));
    const payer = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, tx.accountKeys[0]!]), format: 'der', type: 'spki' });
    expect(verify(null, message, payer, tx.signatures[0]!)).toBe(true);
    const kitTx = getTransactionDecoder().decode(wire);
    expect(Buffer.from(kitTx.messageBytes)).toEqual(message);
    const kitMsg = getCompiledTransactionMessageDecoder().decode(kitTx.messageBytes) as unknown as {
      staticAccounts: string[];
      configMask: number;
    };
    expect(kitMsg.staticAccounts).toEqual(tx.accountKeys.map((k) => bs58.encode(k)));
    expect(kitMsg.configMask).toBe(0b1111);
  });

  it('read as the file source once did (0x81 0x01 as a signature count) is impossible now: every cut names its byte', () => {
    for (let cut = 1; cut < wire.length; cut += 97) {
      expect(() => decodeTransactionWire(wire.subarray(0, cut), meta)).toThrow(WireError);
      expect(() => decodeTransactionWire(wire.subarray(0, cut), meta)).toThrow(/at byte \d+/);
    }
    expect(() => decodeTransactionWire(wire.subarray(0, 1346), meta)).toThrow(
      'truncated at byte 1346: the 1 signatures from byte 1283 need 64 bytes, 63 are left',
    );
  });
});
