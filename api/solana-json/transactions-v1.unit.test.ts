// v1 (SIMD-0385) transactions in Agave's getTransaction / getBlock shapes: the version rule (-32015 as
// validate_version), `version: 1`, the message's transactionConfig, no addressTableLookups, the v1 wire bytes.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import type { TransactionEvent } from '../../schemas/codec.js';
import { encodeTransactionWire } from '../../schemas/wire.js';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { transferTx, txSig } from '../../test/support/jsonrpc/tx-chain.js';
import { toJson } from './json.js';
import { encodeWithMeta, transactionVersion, wireBytes } from './transactions.js';

const v1 = (config: TransactionEvent['transactionConfig']): TransactionEvent => ({
  ...transferTx(201, 0, txSig(201, 0)),
  versioned: true,
  version: 1,
  transactionConfig: config,
});
const tx = v1({ priorityFee: 300_000n, computeUnitLimit: 315_000, loadedAccountsDataSizeLimit: 67_108_864, heapSize: undefined });
const json = (v: unknown): any => JSON.parse(toJson(v)); // eslint-disable-line @typescript-eslint/no-explicit-any

describe('v1 transactions (SIMD-0385) in getTransaction / getBlock answers', () => {
  it('maxSupportedTransactionVersion: -32015 naming version 1 without a maximum or with 0; 1 with 1 or more', () => {
    for (const max of [undefined, 0]) {
      const err = rpcErrorOf(() => transactionVersion(tx, max));
      expect([err.code, err.message]).toEqual([
        -32015,
        'Transaction version (1) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 1',
      ]);
      expect(() => encodeWithMeta(tx, 'json', { maxSupportedVersion: max, showRewards: true })).toThrow(/Transaction version \(1\)/);
    }
    expect(transactionVersion(tx, 1)).toBe(1);
    expect(transactionVersion(tx, 255)).toBe(1);
    expect(encodeWithMeta(tx, 'base64', { maxSupportedVersion: 1, showRewards: true }).version).toBe(1);
  });

  it('json and jsonParsed: the message carries transactionConfig (null where unset) and no addressTableLookups', () => {
    const o = { maxSupportedVersion: 1, showRewards: true };
    const want = { priorityFee: 300_000, computeUnitLimit: 315_000, loadedAccountsDataSizeLimit: 67_108_864, heapSize: null };
    for (const encoding of ['json', 'jsonParsed'] as const) {
      const m = json(encodeWithMeta(tx, encoding, o)).transaction.message;
      expect(m.transactionConfig).toEqual(want);
      expect(m).not.toHaveProperty('addressTableLookups');
    }
    const empty = json(encodeWithMeta(v1({}), 'json', o)).transaction.message;
    expect(empty.transactionConfig).toEqual({
      priorityFee: null,
      computeUnitLimit: null,
      loadedAccountsDataSizeLimit: null,
      heapSize: null,
    });
    // Legacy and v0 messages never carry one.
    expect(json(encodeWithMeta(transferTx(201, 0, txSig(201, 0)), 'json', o)).transaction.message).not.toHaveProperty('transactionConfig');
  });

  it('base64, base58 and binary are the v1 wire bytes: 0x81 first, the signatures last', () => {
    const wire = wireBytes(tx);
    expect(wire).toEqual(Buffer.from(encodeTransactionWire(tx)));
    expect(wire[0]).toBe(0x81);
    expect(wire.subarray(wire.length - 64)).toEqual(tx.signatures[0]);
    const o = { maxSupportedVersion: 1, showRewards: true };
    expect(encodeWithMeta(tx, 'base64', o).transaction).toEqual([wire.toString('base64'), 'base64']);
    expect(encodeWithMeta(tx, 'base58', o).transaction).toEqual([bs58.encode(wire), 'base58']);
    expect(encodeWithMeta(tx, 'binary', o).transaction).toBe(bs58.encode(wire));
  });
});
