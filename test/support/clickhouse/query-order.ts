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
  await new Promise((r) => setTimeout(r, 100));
  await short();
  done.push('short');
  await running;
  return done;
}

export const selectOne = (ch: ClickHouseClient) => () => ch.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((rs) => rs.json());
