// Whether a ClickHouse call waits for a long query already running (embedded chdb runs a session's queries one at
// a time): the order in which the two are answered.
import type { ClickHouseClient } from '../../../platform/clickhouse.js';

/** Seconds of engine time on a 2-core machine (a hash per row): long enough that a short call lands while it runs. */
export const LONG_QUERY = 'SELECT count() AS n FROM numbers(30000000) WHERE sipHash64(number) % 7 = 1';

/** Starts LONG_QUERY on `long`, then `short` once the long one is on its way; which was answered first. */
export async function answerOrder(long: ClickHouseClient, short: () => Promise<unknown>): Promise<('long' | 'short')[]> {
  const done: ('long' | 'short')[] = [];
  const running = long.query({ query: LONG_QUERY, format: 'JSONEachRow' }).then(async (rs) => {
    await rs.json();
    done.push('long');
  });
  // The long query must have reached the engine before the short call is made: with 100 ms the short read won
  // once on one session, with the int tier's other files loading the cores (2026-11-27). The long query takes
  // ~2 s, longer under load, so 500 ms still lands the short call while it runs.
  await new Promise((r) => setTimeout(r, 500));
  await short();
  done.push('short');
  await running;
  return done;
}

export const selectOne = (ch: ClickHouseClient) => () => ch.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((rs) => rs.json());
