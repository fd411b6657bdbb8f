// Pure shaping of stored transactions into Agave's getTransaction / getBlock forms.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { encodeTransactionWire } from '../../schemas/wire.js';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { tokenTx, transferTx, txSig } from '../../test/support/jsonrpc/tx-chain.js';
import { toJson } from './json.js';
import {
  accountKeysOf,
  encodeWithMeta,
  parseEncodingConfig,
  parseMaxSupportedVersion,
  parsedAccounts,
  parseTransactionEncoding,
  RESERVED_ACCOUNT_KEYS,
  transactionVersion,
  uiMeta,
  wireBytes,
} from './transactions.js';
import { parseGetTransaction } from '../jsonrpc/methods/getTransaction.js';
import { parseGetBlock } from '../jsonrpc/methods/getBlock.js';

const SIG = bs58.encode(Buffer.alloc(64, 3));

describe('wireBytes', () => {
  it('equals the ingest wire writer (checked byte for byte against kit) for legacy and v0 transactions', () => {
    for (const e of [transferTx(201, 0, txSig(201, 0)), tokenTx(201, 1)]) {
      expect(wireBytes(e)).toEqual(Buffer.from(encodeTransactionWire(e)));
    }
  });
});

describe('transactionVersion (Agave validate_version)', () => {
  it('legacy: no version member without a maximum, "legacy" with one; v0: -32015 without a maximum, 0 with one', () => {
    const legacy = transferTx(201, 0, txSig(201, 0));
    const v0 = tokenTx(201, 1);
    expect(transactionVersion(legacy, undefined)).toBeUndefined();
    expect(transactionVersion(legacy, 0)).toBe('legacy');
    expect(transactionVersion(v0, 0)).toBe(0);
    expect(transactionVersion(v0, 5)).toBe(0);
    const err = rpcErrorOf(() => transactionVersion(v0, undefined));
    expect([err.code, err.message]).toEqual([
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    ]);
  });
});

describe('parsedAccounts', () => {
  it('writable per the header, minus reserved keys and called programs; lookup-table addresses marked as such', () => {
    const e = tokenTx(201, 1);
    expect(parsedAccounts(e, accountKeysOf(e)).map((a) => [a.writable, a.signer, a.source])).toEqual([
      [true, true, 'transaction'],
      [true, false, 'transaction'],
      [false, false, 'transaction'],
      [false, false, 'transaction'],
      [true, false, 'lookupTable'],
      [false, false, 'lookupTable'],
    ]);
    // A program id in a writable position is demoted; a reserved key too.
    const t = transferTx(201, 0, txSig(201, 0));
    t.numReadonlyUnsignedAccounts = 0;
    expect(parsedAccounts(t, accountKeysOf(t)).map((a) => a.writable)).toEqual([true, true, false]);
    t.instructions[0]!.programIdIndex = 1;
    expect(parsedAccounts(t, accountKeysOf(t)).map((a) => a.writable)).toEqual([true, false, false]);
  });
  it('every reserved key is a 32-byte base58 key', () => {
    for (const k of RESERVED_ACCOUNT_KEYS) expect(bs58.decode(k)).toHaveLength(32);
  });
});

describe('uiMeta', () => {
  const e = tokenTx(201, 1);
  const keys = accountKeysOf(e);
  const meta = (mode: 'raw' | 'parsed' | 'accounts', rewards: boolean) => JSON.parse(toJson(uiMeta(e, keys, mode, rewards)));
  it('raw: every member, rewards null when not shown, loadedAddresses, returnData, compute and cost units', () => {
    const m = meta('raw', false);
    expect(Object.keys(m)).toEqual([
      'err',
      'status',
      'fee',
      'preBalances',
      'postBalances',
      'innerInstructions',
      'logMessages',
      'preTokenBalances',
      'postTokenBalances',
      'rewards',
      'loadedAddresses',
      'returnData',
      'computeUnitsConsumed',
      'costUnits',
    ]);
    expect(m.rewards).toBeNull();
    expect(meta('raw', true).rewards).toEqual([]);
  });
  it('parsed: no loadedAddresses, rewards left out when not shown; accounts: no instructions, logs or units', () => {
    expect(Object.keys(meta('parsed', false))).not.toContain('loadedAddresses');
    expect(Object.keys(meta('parsed', false))).not.toContain('rewards');
    expect(Object.keys(meta('accounts', true))).toEqual([
      'err',
      'status',
      'fee',
      'preBalances',
      'postBalances',
      'preTokenBalances',
      'postTokenBalances',
      'rewards',
    ]);
  });
  it('"not recorded" inner instructions and logs are null; a failure is {Err} and err', () => {
    const f = tokenTx(200, 1);
    f.innerInstructionsNone = true;
    f.logMessagesNone = true;
    const m = JSON.parse(toJson(uiMeta(f, accountKeysOf(f), 'raw', true)));
    expect([m.innerInstructions, m.logMessages, m.err, m.status]).toEqual([
      null,
      null,
      { InstructionError: [0, { Custom: 1 }] },
      { Err: { InstructionError: [0, { Custom: 1 }] } },
    ]);
  });
});

describe('a recorded error that is not JSON', () => {
  it('is answered as a string, never as broken JSON', () => {
    const f = tokenTx(200, 1);
    f.err = 'not {json';
    const m = JSON.parse(toJson(uiMeta(f, accountKeysOf(f), 'raw', true)));
    expect([m.err, m.status]).toEqual(['not {json', { Err: 'not {json' }]);
  });
});

describe('encodeWithMeta', () => {
  it('binary is the bare base58 string, base58 and base64 are [data, encoding]', () => {
    const e = transferTx(201, 0, txSig(201, 0));
    const o = { maxSupportedVersion: 0, showRewards: true };
    const wire = wireBytes(e);
    expect(encodeWithMeta(e, 'binary', o).transaction).toBe(bs58.encode(wire));
    expect(encodeWithMeta(e, 'base58', o).transaction).toEqual([bs58.encode(wire), 'base58']);
    expect(encodeWithMeta(e, 'base64', o).transaction).toEqual([wire.toString('base64'), 'base64']);
  });
});

describe('params', () => {
  it('encoding (json default), maxSupportedTransactionVersion (u8), the bare-string config', () => {
    expect(parseTransactionEncoding(undefined)).toBe('json');
    expect(rpcErrorOf(() => parseTransactionEncoding('base64+zstd')).code).toBe(-32602);
    expect(parseMaxSupportedVersion(0)).toBe(0);
    expect(rpcErrorOf(() => parseMaxSupportedVersion(256)).code).toBe(-32602);
    expect(rpcErrorOf(() => parseMaxSupportedVersion('0')).code).toBe(-32602);
    expect(parseEncodingConfig('base64')).toEqual({ encoding: 'base64' });
  });
  it('getTransaction: signature, config or encoding string; processed refused', () => {
    expect(parseGetTransaction([SIG])).toEqual({
      signature: SIG,
      encoding: 'json',
      commitment: 'finalized',
      maxSupportedVersion: undefined,
    });
    expect(parseGetTransaction([SIG, 'base58']).encoding).toBe('base58');
    expect(
      parseGetTransaction([SIG, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'jsonParsed' }]),
    ).toMatchObject({ commitment: 'confirmed', maxSupportedVersion: 0 });
    const e = rpcErrorOf(() => parseGetTransaction([SIG, { commitment: 'processed' }]));
    expect([e.code, e.message]).toEqual([-32602, 'Method does not support commitment below `confirmed`']);
    expect(rpcErrorOf(() => parseGetTransaction(['abc'])).code).toBe(-32602);
    expect(rpcErrorOf(() => parseGetTransaction([SIG, {}, 3])).code).toBe(-32602);
  });
  it('getBlock: slot, transactionDetails, rewards, encoding; defaults full / true / json / finalized', () => {
    expect(parseGetBlock([5])).toEqual({
      slot: 5n,
      encoding: 'json',
      transactionDetails: 'full',
      rewards: true,
      commitment: 'finalized',
      maxSupportedVersion: undefined,
    });
    expect(parseGetBlock([5, { transactionDetails: 'accounts', rewards: false, commitment: 'confirmed' }])).toMatchObject({
      transactionDetails: 'accounts',
      rewards: false,
      commitment: 'confirmed',
    });
    expect(rpcErrorOf(() => parseGetBlock([5, { transactionDetails: 'all' }])).code).toBe(-32602);
    expect(rpcErrorOf(() => parseGetBlock([5, { rewards: 'yes' }])).code).toBe(-32602);
    expect(rpcErrorOf(() => parseGetBlock([-1])).code).toBe(-32602);
    expect(rpcErrorOf(() => parseGetBlock([5, { commitment: 'recent' }])).message).toBe(
      'Method does not support commitment below `confirmed`',
    );
  });
});
