/* eslint-disable @typescript-eslint/no-explicit-any -- parsed JSON answers are checked by value, not by type */
// jsonParsed instructions: Agave's parsed shapes for the programs parsed here, its partially decoded
// fallback for everything else and for data the parser rejects.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { ATA_PROGRAM, parseInstruction, SYSTEM_PROGRAM } from './instructions.js';

const K = (n: number): string => bs58.encode(Buffer.alloc(32, n));
const le64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const u32 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
/** Keys: 0..4 accounts, 5 = the program. */
const parse = (program: string, data: Buffer, accounts = [0, 1, 2, 3]) =>
  parseInstruction(5, Uint8Array.from(accounts), data, [K(1), K(2), K(3), K(4), K(5), program], null) as any;

describe('parseInstruction', () => {
  it('system: transfer, createAccount, createAccountWithSeed, advanceNonce, allocate as Agave names their members', () => {
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(2), le64(42n)]), [0, 1])).toEqual({
      program: 'system',
      programId: SYSTEM_PROGRAM,
      stackHeight: null,
      parsed: { type: 'transfer', info: { source: K(1), destination: K(2), lamports: 42 } },
    });
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(0), le64(10n), le64(165n), Buffer.alloc(32, 9)]), [0, 1]).parsed).toEqual({
      type: 'createAccount',
      info: { source: K(1), newAccount: K(2), lamports: 10, space: 165, owner: K(9) },
    });
    const seed = Buffer.from('seed');
    expect(
      parse(SYSTEM_PROGRAM, Buffer.concat([u32(3), Buffer.alloc(32, 8), le64(4n), seed, le64(1n), le64(2n), Buffer.alloc(32, 9)]), [0, 1])
        .parsed.info,
    ).toEqual({
      source: K(1),
      newAccount: K(2),
      base: K(8),
      seed: 'seed',
      lamports: 1,
      space: 2,
      owner: K(9),
    });
    expect(parse(SYSTEM_PROGRAM, u32(4), [0, 1, 2]).parsed).toEqual({
      type: 'advanceNonce',
      info: { nonceAccount: K(1), recentBlockhashesSysvar: K(2), nonceAuthority: K(3) },
    });
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(8), le64(7n)]), [0]).parsed).toEqual({
      type: 'allocate',
      info: { account: K(1), space: 7 },
    });
  });

  it('spl-token and spl-token-2022: transfer (single and multisig authority), transferChecked with a UiTokenAmount, closeAccount', () => {
    expect(parse(TOKEN_PROGRAM, Buffer.concat([Buffer.from([3]), le64(5n)]), [0, 1, 2]).parsed).toEqual({
      type: 'transfer',
      info: { source: K(1), destination: K(2), authority: K(3), amount: '5' },
    });
    expect(parse(TOKEN_2022_PROGRAM, Buffer.concat([Buffer.from([3]), le64(5n)]), [0, 1, 2, 3, 4])).toMatchObject({
      program: 'spl-token-2022',
      parsed: { type: 'transfer', info: { source: K(1), destination: K(2), multisigAuthority: K(3), signers: [K(4), K(5)], amount: '5' } },
    });
    expect(parse(TOKEN_PROGRAM, Buffer.concat([Buffer.from([12]), le64(1500n), Buffer.from([3])]), [0, 1, 2, 3]).parsed).toEqual({
      type: 'transferChecked',
      info: {
        source: K(1),
        mint: K(2),
        destination: K(3),
        authority: K(4),
        tokenAmount: { uiAmount: 1.5, decimals: 3, amount: '1500', uiAmountString: '1.5' },
      },
    });
    expect(parse(TOKEN_PROGRAM, Buffer.from([9]), [0, 1, 2]).parsed).toEqual({
      type: 'closeAccount',
      info: { account: K(1), destination: K(2), owner: K(3) },
    });
  });

  it('associated token account: empty data is create, [1] createIdempotent; memo: the UTF-8 text', () => {
    expect(parse(ATA_PROGRAM, Buffer.alloc(0), [0, 1, 2, 3, 4, 5]).parsed).toEqual({
      type: 'create',
      info: { source: K(1), account: K(2), wallet: K(3), mint: K(4), systemProgram: K(5), tokenProgram: ATA_PROGRAM },
    });
    expect(parse(ATA_PROGRAM, Buffer.from([1]), [0, 1, 2, 3, 4, 5]).parsed.type).toBe('createIdempotent');
    expect(parse('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', Buffer.from('héllo'), [])).toMatchObject({
      program: 'spl-memo',
      parsed: 'héllo',
    });
  });

  it('falls back to the partially decoded form: other programs, unknown tags, short data, too few accounts, invalid UTF-8 memos', () => {
    const fallback = (program: string, data: Buffer, accounts = [0, 1]) => ({
      programId: program,
      accounts: accounts.map((i) => K(i + 1)),
      data: bs58.encode(data),
      stackHeight: null,
    });
    const other = K(77);
    expect(parse(other, Buffer.from([1, 2, 3]), [0, 1])).toEqual(fallback(other, Buffer.from([1, 2, 3])));
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(99)]), [0, 1])).toEqual(fallback(SYSTEM_PROGRAM, u32(99)));
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(2), Buffer.from([1, 2])]), [0, 1])).toEqual(
      fallback(SYSTEM_PROGRAM, Buffer.concat([u32(2), Buffer.from([1, 2])])),
    );
    expect(parse(SYSTEM_PROGRAM, Buffer.concat([u32(2), le64(1n)]), [0])).toEqual(
      fallback(SYSTEM_PROGRAM, Buffer.concat([u32(2), le64(1n)]), [0]),
    );
    const memo = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
    expect(parse(memo, Buffer.from([0xff, 0xfe]), [])).toEqual(fallback(memo, Buffer.from([0xff, 0xfe]), []));
  });

  it('carries the stack height of inner instructions', () => {
    expect((parseInstruction(1, Uint8Array.from([]), Buffer.from('x'), [K(1), K(2)], 2) as any).stackHeight).toBe(2);
  });
});
