// Issue 18, item 8: a value nested thousands of levels deep where a parameter is expected is answered -32602
// naming the parameter (it was -32603: the error message JSON.stringify'd the value and overflowed the stack).
import { describe, expect, it } from 'vitest';
import { nestedArray } from '../../test/support/jsonrpc/hostile-json.js';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { parseSubscribe } from '../pubsub/params.js';
import { parseGetBlock } from './methods/getBlock.js';
import { parseGetProgramAccounts } from './methods/getProgramAccounts.js';
import { parseGetTransaction } from './methods/getTransaction.js';

const deep = nestedArray(6_000);
const SIG = '5'.repeat(88);
const PROGRAM = '11111111111111111111111111111111';

const cases: [string, () => unknown, string][] = [
  ['getBlock transactionDetails', () => parseGetBlock([1, { transactionDetails: deep }]), 'transactionDetails'],
  [
    'getBlock maxSupportedTransactionVersion',
    () => parseGetBlock([1, { maxSupportedTransactionVersion: deep }]),
    'maxSupportedTransactionVersion',
  ],
  ['getBlock encoding', () => parseGetBlock([1, { encoding: deep }]), 'encoding'],
  ['getBlock commitment', () => parseGetBlock([1, { commitment: deep }]), 'commitment'],
  [
    'getTransaction maxSupportedTransactionVersion',
    () => parseGetTransaction([SIG, { maxSupportedTransactionVersion: deep }]),
    'maxSupportedTransactionVersion',
  ],
  ['getTransaction encoding', () => parseGetTransaction([SIG, { encoding: deep }]), 'encoding'],
  [
    'getProgramAccounts memcmp encoding',
    () => parseGetProgramAccounts([PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: '1', encoding: deep } }] }]),
    'filters[0].memcmp.encoding',
  ],
  ['getProgramAccounts encoding', () => parseGetProgramAccounts([PROGRAM, { encoding: deep }]), 'encoding'],
  ['getProgramAccounts program id', () => parseGetProgramAccounts([deep]), 'programId'],
  [
    'programSubscribe memcmp encoding',
    () => parseSubscribe('program', [PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: '1', encoding: deep } }] }]),
    'filters[0].memcmp.encoding',
  ],
];

describe('a parameter nested 6,000 levels deep', () => {
  it.each(cases)('%s: -32602 naming the parameter, the value shown cut', (_name, parse, param) => {
    const e = rpcErrorOf(parse);
    expect(e.code).toBe(-32602);
    expect(String(e.data ?? e.message)).toContain(param);
    expect(String(e.data ?? e.message).length).toBeLessThan(300);
  });
});
