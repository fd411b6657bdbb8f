import { describe, expect, it } from 'vitest';
import { AccountEvent } from '../../schemas/gen/events.js';
import { compileSubscription } from './compile.js';
import { matchAccount } from './match.js';
import { EMPTY_SUBSCRIPTION } from './model.js';
import { isTokenAccountData } from './token-account.js';

/** Token account data of `len` bytes with the state byte (offset 108) and, when given, the byte at 165. */
function data(len: number, state: number, accountType?: number): Buffer {
  const d = Buffer.alloc(len);
  if (len > 108) d[108] = state;
  if (accountType !== undefined) d[165] = accountType;
  return d;
}

describe('isTokenAccountData', () => {
  it('SPL Token: exactly 165 bytes, initialized (1) or frozen (2)', () => {
    expect(isTokenAccountData(data(165, 1))).toBe(true);
    expect(isTokenAccountData(data(165, 2))).toBe(true);
    expect(isTokenAccountData(data(165, 0))).toBe(false);
  });

  it('Token-2022 with extensions: longer, account type 2 right after the base layout, initialized', () => {
    expect(isTokenAccountData(data(170, 1, 2))).toBe(true);
    expect(isTokenAccountData(data(170, 0, 2))).toBe(false);
    // A mint (account type 1) padded to the same length is not an account.
    expect(isTokenAccountData(data(170, 1, 1))).toBe(false);
    // 355 bytes is a multisig's length: never an account, whatever the bytes say.
    expect(isTokenAccountData(data(355, 1, 2))).toBe(false);
  });

  it('too short (a mint is 82 bytes, empty data) is never a token account', () => {
    expect(isTokenAccountData(data(82, 1))).toBe(false);
    expect(isTokenAccountData(Buffer.alloc(0))).toBe(false);
    expect(isTokenAccountData(data(164, 1))).toBe(false);
  });

  it('drives the tokenAccountState data filter, ANDed with the others', () => {
    const sub = compileSubscription({
      ...EMPTY_SUBSCRIPTION,
      accounts: [
        { name: 'tokens', account: [], owner: [], filters: [{ kind: 'tokenAccountState' }] },
        { name: 'big', account: [], owner: [], filters: [{ kind: 'tokenAccountState' }, { kind: 'datasize', size: 170n }] },
      ],
    });
    const acc = (d: Buffer) => AccountEvent.fromPartial({ pubkey: Buffer.alloc(32, 1), owner: Buffer.alloc(32, 2), data: d });
    expect(matchAccount(sub, acc(data(165, 1)))).toEqual(['tokens']);
    expect(matchAccount(sub, acc(data(170, 1, 2)))).toEqual(['big', 'tokens']);
    expect(matchAccount(sub, acc(data(165, 0)))).toEqual([]);
  });
});
