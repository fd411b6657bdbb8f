// The jsonParsed token decoder against the shapes and values of Agave's account decoder (its own test
// cases: a 42-unit account of a 2-decimal mint is 0.42 / "0.42"; u64 amounts stay exact strings).
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { toJson } from './json.js';
import { parseTokenProgramAccount, storedUiTokenAmount, uiTokenAmount, unpackMint, unpackTokenAccount } from './token.js';

const K = (n: number) => Buffer.alloc(32, n);
const k = (n: number) => bs58.encode(K(n));

function tokenAccount(
  o: { amount?: bigint; delegate?: number; state?: number; native?: bigint; delegated?: bigint; close?: number; len?: number } = {},
): Buffer {
  const d = Buffer.alloc(o.len ?? 165);
  K(2).copy(d, 0);
  K(3).copy(d, 32);
  d.writeBigUInt64LE(o.amount ?? 42n, 64);
  if (o.delegate !== undefined) {
    d.writeUInt32LE(1, 72);
    K(o.delegate).copy(d, 76);
  }
  d[108] = o.state ?? 1;
  if (o.native !== undefined) {
    d.writeUInt32LE(1, 109);
    d.writeBigUInt64LE(o.native, 113);
  }
  d.writeBigUInt64LE(o.delegated ?? 0n, 121);
  if (o.close !== undefined) {
    d.writeUInt32LE(1, 129);
    K(o.close).copy(d, 133);
  }
  if (d.length > 165) d[165] = 2;
  return d;
}

function mint(o: { decimals?: number; supply?: bigint; authority?: number; freeze?: number; initialized?: number } = {}): Buffer {
  const d = Buffer.alloc(82);
  if (o.authority !== undefined) {
    d.writeUInt32LE(1, 0);
    K(o.authority).copy(d, 4);
  }
  d.writeBigUInt64LE(o.supply ?? 42n, 36);
  d[44] = o.decimals ?? 3;
  d[45] = o.initialized ?? 1;
  if (o.freeze !== undefined) {
    d.writeUInt32LE(1, 46);
    K(o.freeze).copy(d, 50);
  }
  return d;
}

/** Token-2022 data: base, padding to 165, the account-type byte, then TLV entries. */
function with2022(base: Buffer, type: number, tlv: { type: number; value: Buffer }[]): Buffer {
  const head = Buffer.alloc(166);
  base.copy(head, 0);
  head[165] = type;
  return Buffer.concat([
    head,
    ...tlv.map((e) => {
      const h = Buffer.alloc(4);
      h.writeUInt16LE(e.type, 0);
      h.writeUInt16LE(e.value.length, 2);
      return Buffer.concat([h, e.value]);
    }),
  ]);
}

const json = (v: unknown) => JSON.parse(toJson(v));

describe('uiTokenAmount', () => {
  it("matches Agave's amounts: float, exact trimmed string", () => {
    expect(uiTokenAmount(42n, 2)).toEqual({ uiAmount: 0.42, decimals: 2, amount: '42', uiAmountString: '0.42' });
    expect(uiTokenAmount(1n, 0)).toEqual({ uiAmount: 1, decimals: 0, amount: '1', uiAmountString: '1' });
    expect(uiTokenAmount(10n, 0).uiAmountString).toBe('10');
    expect(uiTokenAmount(1n, 9)).toEqual({ uiAmount: 0.000000001, decimals: 9, amount: '1', uiAmountString: '0.000000001' });
    expect(uiTokenAmount(1_000_000_000n, 9).uiAmountString).toBe('1');
    expect(uiTokenAmount(1_234_567_890n, 3).uiAmountString).toBe('1234567.89');
    expect(uiTokenAmount(0n, 6)).toEqual({ uiAmount: 0, decimals: 6, amount: '0', uiAmountString: '0' });
    expect(uiTokenAmount(18446744073709551615n, 0).amount).toBe('18446744073709551615');
    expect(uiTokenAmount(5n, 20).uiAmount).toBeNull();
  });
});

describe("storedUiTokenAmount (transaction meta, Agave's storage rule)", () => {
  it('uiAmount null unless |ui_amount| > f64::EPSILON; the rest as the account decoder', () => {
    expect(storedUiTokenAmount(0n, 6)).toEqual({ uiAmount: null, decimals: 6, amount: '0', uiAmountString: '0' });
    expect(storedUiTokenAmount(0n, 0).uiAmount).toBeNull();
    expect(storedUiTokenAmount(1n, 16).uiAmount).toBeNull(); // 1e-16 <= 2.22e-16
    expect(storedUiTokenAmount(1n, 15).uiAmount).toBe(1e-15);
    expect(storedUiTokenAmount(42n, 2)).toEqual(uiTokenAmount(42n, 2));
    expect(storedUiTokenAmount(5n, 20).uiAmount).toBeNull();
  });
});

describe('parseTokenProgramAccount', () => {
  it("a token account: Agave's UiTokenAccount under program spl-token, type account, with space", () => {
    expect(json(parseTokenProgramAccount(tokenAccount({ close: 3 }), TOKEN_PROGRAM, 2))).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          mint: k(2),
          owner: k(3),
          tokenAmount: { uiAmount: 0.42, decimals: 2, amount: '42', uiAmountString: '0.42' },
          state: 'initialized',
          isNative: false,
          closeAuthority: k(3),
        },
      },
      space: 165,
    });
  });
  it('delegate, delegated amount, frozen, native reserve', () => {
    const p = json(parseTokenProgramAccount(tokenAccount({ delegate: 9, delegated: 5n, state: 2, native: 2_039_280n }), TOKEN_PROGRAM, 9));
    expect(p.parsed.info).toMatchObject({
      delegate: k(9),
      state: 'frozen',
      isNative: true,
      delegatedAmount: { amount: '5', decimals: 9, uiAmountString: '0.000000005' },
      rentExemptReserve: { amount: '2039280', uiAmountString: '0.00203928' },
    });
    expect(p.parsed.info.closeAuthority).toBeUndefined();
  });
  it("a token account without its mint's decimals cannot be parsed (Agave falls back to binary)", () => {
    expect(parseTokenProgramAccount(tokenAccount(), TOKEN_PROGRAM, undefined)).toBeUndefined();
  });
  it('a mint and a multisig parse without extra data', () => {
    expect(json(parseTokenProgramAccount(mint({ authority: 3, freeze: 3 }), TOKEN_PROGRAM, undefined))).toEqual({
      program: 'spl-token',
      parsed: { type: 'mint', info: { mintAuthority: k(3), supply: '42', decimals: 3, isInitialized: true, freezeAuthority: k(3) } },
      space: 82,
    });
    expect(json(parseTokenProgramAccount(mint(), TOKEN_PROGRAM, undefined)).parsed.info).toMatchObject({
      mintAuthority: null,
      freezeAuthority: null,
    });
    const ms = Buffer.alloc(355);
    ms[0] = 2;
    ms[1] = 3;
    ms[2] = 1;
    K(1).copy(ms, 3);
    K(2).copy(ms, 35);
    K(3).copy(ms, 67);
    expect(json(parseTokenProgramAccount(ms, TOKEN_PROGRAM, undefined)).parsed).toEqual({
      type: 'multisig',
      info: { numRequiredSigners: 2, numValidSigners: 3, isInitialized: true, signers: [k(1), k(2), k(3)] },
    });
  });
  it('refuses what the token programs refuse: uninitialized, bad option tags, odd sizes', () => {
    expect(unpackTokenAccount(tokenAccount({ state: 0 }))).toBeUndefined();
    expect(unpackTokenAccount(tokenAccount({ state: 3 }))).toBeUndefined();
    const badTag = tokenAccount();
    badTag.writeUInt32LE(2, 72);
    expect(unpackTokenAccount(badTag)).toBeUndefined();
    expect(unpackMint(mint({ initialized: 0 }))).toBeUndefined();
    expect(parseTokenProgramAccount(Buffer.alloc(100), TOKEN_PROGRAM, 2)).toBeUndefined();
    expect(unpackMint(Buffer.concat([mint(), Buffer.alloc(83)]))).toBeUndefined(); // 165 bytes: neither
  });
  it("Token-2022: program spl-token-2022, account extensions in Agave's tagged form", () => {
    const withheld = Buffer.alloc(8);
    withheld.writeBigUInt64LE(77n);
    const data = with2022(tokenAccount(), 2, [
      { type: 7, value: Buffer.alloc(0) },
      { type: 2, value: withheld },
      { type: 8, value: Buffer.from([1]) },
      { type: 11, value: Buffer.from([0]) },
      { type: 15, value: Buffer.from([1]) },
      { type: 3, value: K(4) }, // a mint extension on an account: unparseable, as in Agave
    ]);
    const p = json(parseTokenProgramAccount(data, TOKEN_2022_PROGRAM, 0));
    expect(p.program).toBe('spl-token-2022');
    expect(p.space).toBe(data.length);
    expect(p.parsed.info.tokenAmount.uiAmountString).toBe('42');
    expect(p.parsed.info.extensions).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'transferFeeAmount', state: { withheldAmount: 77 } },
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
      { extension: 'cpiGuard', state: { lockCpi: false } },
      { extension: 'transferHookAccount', state: { transferring: true } },
      { extension: 'unparseableExtension' },
    ]);
  });
  it('Token-2022: an unknown extension type or a length past the end hides every extension, as Agave', () => {
    const unknown = with2022(tokenAccount(), 2, [
      { type: 7, value: Buffer.alloc(0) },
      { type: 999, value: Buffer.alloc(1) },
    ]);
    expect(json(parseTokenProgramAccount(unknown, TOKEN_2022_PROGRAM, 0)).parsed.info.extensions).toBeUndefined();
    const cut = with2022(tokenAccount(), 2, [{ type: 8, value: Buffer.from([1]) }]).subarray(0, 170);
    expect(json(parseTokenProgramAccount(cut, TOKEN_2022_PROGRAM, 0)).parsed.info.extensions).toBeUndefined();
  });
  it('Token-2022 mints: padding must be zero; mint extensions shaped', () => {
    const data = with2022(mint({ decimals: 6 }), 1, [
      { type: 3, value: K(5) },
      { type: 18, value: Buffer.concat([Buffer.alloc(32), K(6)]) },
      { type: 9, value: Buffer.alloc(0) },
    ]);
    expect(json(parseTokenProgramAccount(data, TOKEN_2022_PROGRAM, undefined)).parsed).toEqual({
      type: 'mint',
      info: {
        mintAuthority: null,
        supply: '42',
        decimals: 6,
        isInitialized: true,
        freezeAuthority: null,
        extensions: [
          { extension: 'mintCloseAuthority', state: { closeAuthority: k(5) } },
          { extension: 'metadataPointer', state: { authority: null, metadataAddress: k(6) } },
          { extension: 'nonTransferable' },
        ],
      },
    });
    const str = (t: string) => {
      const b = Buffer.from(t, 'utf8');
      const n = Buffer.alloc(4);
      n.writeUInt32LE(b.length);
      return Buffer.concat([n, b]);
    };
    const count = Buffer.alloc(4);
    count.writeUInt32LE(1);
    const meta = Buffer.concat([K(7), K(8), str('Token'), str('TOK'), str('https://x/y.json'), count, str('k'), str('v')]);
    const group = Buffer.concat([Buffer.alloc(32), K(8), Buffer.from([3, 0, 0, 0, 0, 0, 0, 0]), Buffer.from([9, 0, 0, 0, 0, 0, 0, 0])]);
    const withMeta = with2022(mint(), 1, [
      { type: 19, value: meta },
      { type: 21, value: group },
      { type: 26, value: Buffer.concat([K(1), Buffer.from([1])]) },
      { type: 19, value: meta.subarray(0, 70) },
    ]);
    expect(json(parseTokenProgramAccount(withMeta, TOKEN_2022_PROGRAM, undefined)).parsed.info.extensions).toEqual([
      {
        extension: 'tokenMetadata',
        state: {
          updateAuthority: k(7),
          mint: k(8),
          name: 'Token',
          symbol: 'TOK',
          uri: 'https://x/y.json',
          additionalMetadata: [['k', 'v']],
        },
      },
      { extension: 'tokenGroup', state: { updateAuthority: null, mint: k(8), size: 3, maxSize: 9 } },
      { extension: 'pausableConfig', state: { authority: k(1), paused: true } },
      { extension: 'unparseableExtension' },
    ]);
    const dirty = Buffer.from(data);
    dirty[100] = 1;
    expect(unpackMint(dirty)).toBeUndefined();
  });
});
