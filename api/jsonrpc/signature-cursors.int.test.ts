/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// History cursors through the real clients (issue 32, item 1): @solana/web3.js 1.x `Connection` and @solana/kit's RPC
// against the server over views the projector's own projections filled (test/support/jsonrpc/chain.ts: the wallet in
// two transactions of every produced slot 100-140; finalized 120, confirmed 130; slot 125 a lost fork).
// getSignaturesForAddress's before/until and getTransactionsForAddress's signature filters and pagination tokens that
// name nothing the request can see answer Agave 4.0's -32020 `Transaction {signature} not found`, never a page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection, PublicKey } from '@solana/web3.js';
import {
  address,
  createSolanaRpc,
  isSolanaError,
  signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_FILTER_TRANSACTION_NOT_FOUND,
} from '@solana/kit';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { serve, type Served } from '../../test/support/jsonrpc/world.js';
import { buildChain, FORKED, HEADS, projectInto, sigOf, WALLET } from '../../test/support/jsonrpc/chain.js';

let store: TestStore;
let s: Served;
let conn: Connection;
const rpc = () => createSolanaRpc(s.url);

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('signature_cursors');
  await projectInto(store.ch, db, buildChain());
  s = await serve(store.ch, db);
  conn = new Connection(s.url, { commitment: 'finalized', disableRetryOnRateLimit: true });
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const UNKNOWN = bs58.encode(Buffer.alloc(64, 200));
/** A transaction of slot 128: confirmed (130), not finalized (120). */
const CONFIRMED_ONLY = sigOf(128, 0);
const wallet = new PublicKey(WALLET);

/** kit's error for a call, as kit reports it. */
async function kitError(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('getSignaturesForAddress with @solana/web3.js', () => {
  it('an unknown before or until is -32020 with Agave’s message, not [] or the newest page', async () => {
    for (const config of [{ before: UNKNOWN }, { until: UNKNOWN }, { before: sigOf(118, 0), until: UNKNOWN }]) {
      await expect(conn.getSignaturesForAddress(wallet, { ...config, limit: 3 }), JSON.stringify(config)).rejects.toMatchObject({
        code: -32020,
        message: expect.stringContaining(`Transaction ${UNKNOWN} not found`),
      });
    }
  });

  it('before is checked first when neither cursor is found', async () => {
    const other = bs58.encode(Buffer.alloc(64, 201));
    await expect(conn.getSignaturesForAddress(wallet, { before: other, until: UNKNOWN })).rejects.toMatchObject({
      message: expect.stringContaining(`Transaction ${other} not found`),
    });
  });

  it('a cursor held above the commitment is not found at it (Agave reads only the commitment’s slots), and is at a higher one', async () => {
    await expect(conn.getSignaturesForAddress(wallet, { before: CONFIRMED_ONLY }, 'finalized')).rejects.toMatchObject({
      code: -32020,
      message: expect.stringContaining(`Transaction ${CONFIRMED_ONLY} not found`),
      data: expect.stringContaining(`above the newest finalized slot (${HEADS.finalized})`),
    });
    await expect(conn.getSignaturesForAddress(wallet, { until: CONFIRMED_ONLY }, 'finalized')).rejects.toMatchObject({ code: -32020 });
    const page = await conn.getSignaturesForAddress(wallet, { before: CONFIRMED_ONLY, limit: 3 }, 'confirmed');
    expect(page.map((x) => x.signature)).toEqual([sigOf(127, 1), sigOf(127, 0), sigOf(126, 1)]);
  });

  it('known cursors still page, before and until exclusive; a lost fork’s transaction is listed and so locates', async () => {
    const page = await conn.getSignaturesForAddress(wallet, { before: sigOf(118, 0), until: sigOf(116, 0) });
    expect(page.map((x) => x.signature)).toEqual([sigOf(117, 1), sigOf(117, 0), sigOf(116, 1)]);
    const forked = await conn.getSignaturesForAddress(wallet, { before: sigOf(FORKED, 0), limit: 1 }, 'confirmed');
    expect(forked.map((x) => x.signature)).toEqual([sigOf(FORKED - 1, 1)]);
  });
});

describe('getSignaturesForAddress with @solana/kit', () => {
  it('kit knows -32020 and hands over the server’s message', async () => {
    for (const config of [{ before: signature(UNKNOWN) }, { until: signature(UNKNOWN) }]) {
      const e = await kitError(
        rpc()
          .getSignaturesForAddress(address(WALLET), { ...config, commitment: 'finalized' })
          .send(),
      );
      expect(isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_FILTER_TRANSACTION_NOT_FOUND), String(e)).toBe(true);
      expect(e.context.__serverMessage).toBe(`Transaction ${UNKNOWN} not found`);
    }
    const e = await kitError(
      rpc()
        .getSignaturesForAddress(address(WALLET), { before: signature(CONFIRMED_ONLY), commitment: 'finalized' })
        .send(),
    );
    expect(isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_FILTER_TRANSACTION_NOT_FOUND)).toBe(true);
  });
});

describe('getTransactionsForAddress with @solana/kit', () => {
  const gtfa = (config: Record<string, unknown>) =>
    rpc()
      .getTransactionsForAddress(address(WALLET), config as any)
      .send() as Promise<any>;
  const notFound = async (config: Record<string, unknown>, message: string, data?: string) => {
    const e = await kitError(gtfa(config));
    expect(isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_FILTER_TRANSACTION_NOT_FOUND), `${JSON.stringify(config)}: ${e}`).toBe(
      true,
    );
    expect(e.context.__serverMessage).toBe(message);
    // kit keeps the message only; the data says why, read from the wire.
    if (data !== undefined) {
      const raw = await s.call('getTransactionsForAddress', [WALLET, config]);
      expect(raw.body.error.data).toContain(data);
    }
  };

  it('a signature filter naming no transaction, or one above the commitment or on a lost fork, is -32020', async () => {
    for (const k of ['gt', 'gte', 'lt', 'lte']) {
      await notFound({ commitment: 'finalized', filters: { signature: { [k]: UNKNOWN } } }, `Transaction ${UNKNOWN} not found`);
    }
    await notFound(
      { commitment: 'finalized', filters: { signature: { lt: CONFIRMED_ONLY } } },
      `Transaction ${CONFIRMED_ONLY} not found`,
      'above the newest finalized slot',
    );
    // getTransactionsForAddress leaves out a lost fork's transactions, so it does not locate a cursor there either.
    const forked = sigOf(FORKED, 0);
    await notFound({ commitment: 'confirmed', filters: { signature: { lt: forked } } }, `Transaction ${forked} not found`, 'lost fork');
    const page = await gtfa({ commitment: 'confirmed', limit: 2, filters: { signature: { lt: CONFIRMED_ONLY } } });
    expect(page.data.map((x: any) => x.signature)).toEqual([sigOf(127, 1), sigOf(127, 0)]);
  });

  it('a pagination token at no transaction, above the commitment or on a lost fork is -32020 naming it, not an empty page', async () => {
    // Before the chain, past a block's last transaction, in a skipped slot.
    for (const token of ['99:0', '118:2', '105:0']) {
      await notFound(
        { commitment: 'finalized', paginationToken: token },
        `Transaction at paginationToken "${token}" not found`,
        'no transaction at',
      );
    }
    await notFound(
      { commitment: 'finalized', sortOrder: 'asc', paginationToken: '128:0' },
      'Transaction at paginationToken "128:0" not found',
      'above',
    );
    await notFound(
      { commitment: 'confirmed', paginationToken: `${FORKED}:1` },
      `Transaction at paginationToken "${FORKED}:1" not found`,
      'lost fork',
    );
  });

  it('the tokens a walk hands out all locate: every transaction once, both orders', async () => {
    for (const sortOrder of ['desc', 'asc']) {
      const got: string[] = [];
      let paginationToken: string | null = null;
      do {
        const page: any = await gtfa({ commitment: 'finalized', limit: 7, sortOrder, ...(paginationToken ? { paginationToken } : {}) });
        got.push(...page.data.map((x: any) => x.signature));
        paginationToken = page.paginationToken;
      } while (paginationToken !== null);
      const want = await conn.getSignaturesForAddress(wallet, {}, 'finalized');
      const ordered = want.map((x) => x.signature);
      expect(got).toEqual(sortOrder === 'desc' ? ordered : [...ordered].reverse());
    }
  });
});
