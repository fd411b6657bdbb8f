// The ownership check of the paged program reads on real ClickHouse (issue 21 item 1): it decides with the newest
// write of any owner, and reads one small granule per candidate (011_owner_writes.sql), not the whole table a
// page's scattered candidates touch when the check reads account_writes (granules of 8,192 rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '../../platform/clickhouse.js';
import { insertAccountWrites, key, openTestStore, SYSTEM_PROGRAM, type TestStore } from '../../test/support/jsonrpc/store.js';
import { stillOwned, type ProgramAccountRow, type ProgramAccountsRead } from './program-accounts.js';

const ACCOUNTS = 200_000;
const CANDIDATES = 100;
const PROGRAM = key(1, 33);
const SLOT = 5_000n;

let store: TestStore;
let db: string;

beforeAll(async () => {
  store = await openTestStore();
  db = await store.database('owner_check');
  // Every account written once under the program, as the projector stores its owner (keys as test/support's key()).
  await store.ch.command({
    query: `INSERT INTO {db:Identifier}.owner_writes (pubkey, slot, write_version, owner)
      SELECT base58Encode(unhex(concat('07', leftPad(hex(number), 16, '0'), repeat('00', 23)))), 1000 + number % 1000, number, {program:String}
      FROM numbers({n:UInt64})`,
    query_params: { db, program: PROGRAM, n: ACCOUNTS },
  });
  await store.ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT pubkey, slot, write_version, owner, 1, false, 0, 0, '' FROM {db:Identifier}.owner_writes`,
    query_params: { db },
  });
});

afterAll(async () => {
  await store?.close();
});

/** Scattered candidates, as a page's are: every ACCOUNTS / CANDIDATES-th account. */
const candidates = (): ProgramAccountRow[] =>
  Array.from({ length: CANDIDATES }, (_, i) => ({
    pubkey: key(i * (ACCOUNTS / CANDIDATES)),
    owner: PROGRAM,
    lamports: '1',
    executable: false,
    rent_epoch: '0',
    space: 0,
    data: '',
    slot: '1000',
    write_version: '0',
  }));

const read: () => ProgramAccountsRead = () => ({ db, program: PROGRAM, slot: SLOT, filters: [] });

/** The client with a cap on the rows the check's statement may read (over it, ClickHouse refuses the query), put
 * in the statement's own SETTINGS (a SET would stay on the shared engine's session); counts the statements capped. */
function capped(ch: ClickHouseClient, maxRows: number): { ch: ClickHouseClient; capped: () => number } {
  let n = 0;
  const proxy = new Proxy(ch, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
      return (o: Parameters<ClickHouseClient['query']>[0]) => {
        const query = o.query.replace(
          /SETTINGS max_threads = 1\s*$/,
          `SETTINGS max_threads = 1, max_rows_to_read = ${maxRows}, read_overflow_mode = 'throw'`,
        );
        if (query !== o.query) n++;
        return target.query({ ...o, query });
      };
    },
  });
  return { ch: proxy, capped: () => n };
}

describe('stillOwned', () => {
  it('given 100 candidates scattered over 200,000 accounts, when checked, then it reads about one 256-row granule each, not the table', async () => {
    // Two granules of 256 per candidate at most (a key on a granule boundary); account_writes would read all 200,000.
    const c = capped(store.ch, CANDIDATES * 2 * 256);
    const kept = await stillOwned(c.ch, read(), candidates());
    expect(c.capped()).toBe(1);
    expect(kept).toHaveLength(CANDIDATES);
  });

  it('given candidates closed or reassigned after their program write, when checked, then only those still owned stay', async () => {
    const moved = candidates().slice(0, 3);
    await insertAccountWrites(store.ch, db, [
      { pubkey: moved[0]!.pubkey, slot: 2_000, writeVersion: 1, owner: SYSTEM_PROGRAM, lamports: 0, data: new Uint8Array() },
      { pubkey: moved[1]!.pubkey, slot: 2_000, writeVersion: 1, owner: key(2, 33), lamports: 5, data: new Uint8Array() },
      // After the read slot: not yet the state at it.
      { pubkey: moved[2]!.pubkey, slot: Number(SLOT) + 1, writeVersion: 1, owner: SYSTEM_PROGRAM, lamports: 0, data: new Uint8Array() },
    ]);
    const kept = await stillOwned(store.ch, read(), candidates());
    expect(kept.map((k) => k.pubkey)).toEqual(
      candidates()
        .slice(2)
        .map((c) => c.pubkey),
    );
  });
});
