import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { AccountEvent, SlotStatus } from '../../schemas/codec.js';
import { TOKEN_PROGRAM } from '../../schemas/programs.js';
import { scanAccount } from '../../schemas/scan.js';
import { HeadCache } from '../head/head-cache.js';
import { encodeAccount, type AccountConfig } from '../solana-json/accounts.js';
import { zstdLoaded, zstdReady } from '../solana-json/zstd.js';
import { mintData, tokenAccountData } from '../../test/support/jsonrpc/chain.js';
import { account, b58, slotStatus } from '../../test/support/projector/events.js';
import { HEAD_MISS, headState, type HeadContext } from './head.js';
import { accountRowOf, headAccounts, headMintDecimals, headReadSlot, headUiAccounts } from './head-accounts.js';

const MINT = b58('head-mint');
const WALLET = b58('head-wallet');

function contextOf(writes: AccountEvent[]): HeadContext {
  const cache = new HeadCache({ slots: 150, fromStart: true });
  for (const w of writes) cache.onEvent({ kind: 'account', scan: scanAccount(Buffer.from(AccountEvent.encode(w).finish())) });
  cache.onEvent({ kind: 'slot', event: slotStatus(12, SlotStatus.SLOT_STATUS_CONFIRMED) });
  return { cache, state: headState(cache)!, apiVersion: '4.2.0' };
}

const tokenWrite = (slot: number, amount: bigint) =>
  account({
    pubkey: 'head-token',
    owner: 'unused',
    slot,
    writeVersion: slot,
    lamports: 2_039_280n,
    data: tokenAccountData(MINT, WALLET, amount),
  });
const withTokenOwner = (e: AccountEvent): AccountEvent => ({ ...e, owner: Buffer.from(bs58.decode(TOKEN_PROGRAM)) });
const mintWrite = (slot: number) =>
  withTokenOwner(account({ pubkey: 'head-mint', owner: 'unused', slot, writeVersion: slot, lamports: 1_461_600n, data: mintData(9, 5n) }));
const TOKEN = b58('head-token');
const config = (encoding: AccountConfig['encoding']): AccountConfig => ({
  commitment: 'confirmed',
  minContextSlot: undefined,
  encoding,
  dataSlice: undefined,
});

describe('account state from the head cache', () => {
  it("builds the views' row from a record's bytes", () => {
    const e = account({ pubkey: 'a', owner: 'b', slot: 3, writeVersion: 1, lamports: 7n, data: Buffer.from([1, 2, 3]), rentEpoch: 5n });
    expect(accountRowOf(Buffer.from(AccountEvent.encode({ ...e, executable: true }).finish()))).toEqual({
      pubkey: b58('a'),
      owner: b58('b'),
      lamports: '7',
      executable: true,
      rent_epoch: '5',
      space: 3,
      data: 'AQID',
    });
  });

  it("parses a token account with its mint's decimals when both are held, and misses when the mint is not", () => {
    const held = contextOf([mintWrite(10), withTokenOwner(tokenWrite(11, 500n))]);
    expect(headMintDecimals(held, [MINT, 'So11111111111111111111111111111111111111112'], 12n)).toEqual(
      new Map([
        ['So11111111111111111111111111111111111111112', 9],
        [MINT, 9],
      ]),
    );
    const [parsed] = headUiAccounts(held, [TOKEN], config('jsonParsed'), 12n) as [{ data: { parsed: { info: { tokenAmount: unknown } } } }];
    expect(parsed.data.parsed.info.tokenAmount).toMatchObject({ amount: '500', decimals: 9 });
    const row = (headAccounts(held, [TOKEN], 12n) as Map<string, never>).get(TOKEN)!;
    expect(parsed).toEqual(encodeAccount(row, 'jsonParsed', undefined, new Map([[MINT, 9]])));

    const noMint = contextOf([withTokenOwner(tokenWrite(11, 500n))]);
    expect(headUiAccounts(noMint, [TOKEN], config('jsonParsed'), 12n)).toBe(HEAD_MISS);
    expect(headUiAccounts(noMint, [TOKEN], config('base64'), 12n)).not.toBe(HEAD_MISS);
  });

  it('leaves a closed account out, as the views do, and misses any account not held', () => {
    const h = contextOf([tokenWrite(10, 1n), { ...tokenWrite(11, 0n), lamports: 0n }]);
    expect(headAccounts(h, [TOKEN], 12n)).toEqual(new Map());
    expect(headUiAccounts(h, [TOKEN], config('base64'), 12n)).toEqual([null]);
    expect(headAccounts(h, [TOKEN, b58('never')], 12n)).toBe(HEAD_MISS);
  });

  it('answers at the commitment, and leaves a read as of a slot to the views', () => {
    const h = contextOf([tokenWrite(10, 1n)]);
    expect(headReadSlot('x', h, { commitment: 'confirmed', asOfSlot: undefined })).toBe(12n);
    expect(headReadSlot('x', h, { commitment: 'confirmed', asOfSlot: 11n })).toBe(HEAD_MISS);
    expect(() => headReadSlot('x', h, { commitment: 'confirmed', asOfSlot: undefined, minContextSlot: 13n })).toThrow(
      /Minimum context slot/,
    );
  });

  it('compresses base64+zstd once its WebAssembly is loaded (the views path loads it; unit files share workers)', async () => {
    const h = contextOf([tokenWrite(10, 1n)]);
    await zstdReady();
    expect(zstdLoaded()).toBe(true);
    const [a] = headUiAccounts(h, [TOKEN], config('base64+zstd'), 12n) as [{ data: [string, string] }];
    expect(a.data[1]).toBe('base64+zstd');
  });
});
