// StreamViews read from ClickHouse (stream-views.ts): the engine process's implementation, and a stream process's
// beside a ClickHouse server (CLICKHOUSE_URL). The statements are the ones the live layer always ran.
import type { ClickHouseClient } from '@clickhouse/client';
import { streamAccountSnapshot } from '../views/account-snapshot.js';
import type { QueryAdmission } from '../views/admission.js';
import { AdmittedQueries } from '../views/query.js';
import { readSignatureStatuses, statusHeads } from '../views/signature-statuses.js';
import { readViewsState, ViewsStateCache } from '../views/state.js';
import type { LogStart, SlotOffsetRow, StreamViews } from './stream-views.js';

const OFFSETS_SQL = `SELECT topic, partition,
              minIf(first_offset, slot >= {from:UInt64}) AS start_raw,
              countIf(slot >= {from:UInt64}) AS n_from,
              max(last_offset) AS indexed
            FROM {db:Identifier}.slot_offsets
            WHERE topic IN {topics:Array(String)}
            GROUP BY topic, partition`;

const FIRST_SLOT_SQL = `SELECT slot, min(first_offset) AS first FROM {db:Identifier}.slot_offsets
                WHERE topic = {topic:String} AND partition = {partition:UInt32} AND last_offset >= {low:UInt64}
                GROUP BY slot ORDER BY slot LIMIT 1`;

/** `admission`: the views' admission control of the process (JSON-RPC's), which the signature look-up shares. */
export function clickHouseViews(ch: ClickHouseClient, database: string, admission?: QueryAdmission): StreamViews {
  let signatureState: ViewsStateCache | undefined;
  return {
    replayOffsets: (topics, fromSlot) => readReplayOffsets(ch, database, topics, fromSlot),
    firstAvailable: (starts) => readFirstAvailable(ch, database, starts),

    async head(commitment) {
      return (await readViewsState(ch, database)).head[commitment];
    },

    accountSnapshot(candidates, slot) {
      return streamAccountSnapshot(ch, database, candidates, slot);
    },

    async signatureStatus(signature, client, signal) {
      signatureState ??= new ViewsStateCache(ch, database);
      // Admitted now, before anything is awaited: a client over its share has its look-up refused.
      const release = admission ? await admission.slot(client, signal) : () => {};
      try {
        // No processed slot in the views yet: nothing can be there (getSignatureStatuses answers -32007).
        const heads = statusHeads(await signatureState.get());
        if (heads === undefined) return undefined;
        // The admitted place covers the look-up; its own queries pass through it (not a second time).
        const [s] = await readSignatureStatuses(new AdmittedQueries(ch, undefined, client, signal), database, [signature], heads, true);
        return s === undefined ? undefined : { slot: s.slot, err: s.err, level: s.level };
      } finally {
        release();
      }
    },
  };
}

async function readReplayOffsets(
  ch: ClickHouseClient,
  database: string,
  topics: readonly string[],
  fromSlot: bigint,
): Promise<SlotOffsetRow[]> {
  const rs = await ch.query({
    query: OFFSETS_SQL,
    query_params: { db: database, topics: [...topics], from: fromSlot.toString() },
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ topic: string; partition: number; start_raw: string; n_from: string; indexed: string }>();
  return rows.map((r) => ({
    topic: r.topic,
    partition: Number(r.partition),
    start: Number(r.n_from) > 0 ? String(r.start_raw) : null,
    indexed: String(r.indexed),
  }));
}

// Per partition whose log start moved, the slot of the first retained record, plus one when that slot's
// records were cut; the newest of those.
async function readFirstAvailable(ch: ClickHouseClient, database: string, starts: readonly LogStart[]): Promise<bigint | undefined> {
  let first: bigint | undefined;
  for (const { topic, partition, low } of starts) {
    const rs = await ch.query({
      query: FIRST_SLOT_SQL,
      query_params: { db: database, topic, partition, low: low.toString() },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ slot: string; first: string }>();
    if (!row) continue;
    const slot = BigInt(row.slot) + (BigInt(row.first) < low ? 1n : 0n);
    if (first === undefined || slot > first) first = slot;
  }
  return first;
}
