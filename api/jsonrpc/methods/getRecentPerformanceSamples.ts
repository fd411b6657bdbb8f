// getRecentPerformanceSamples: 60-second windows of block time (the performance_samples view), newest
// first. Only complete windows are sampled (a block at or after the window's end exists), as Agave only
// records a sample once its 60 s have passed; the window still filling is left out.
import { invalidParams } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { defineMethod } from '../method.js';
import { parseUsize, positional } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';

export const MAX_SAMPLES = 720;
export const SAMPLE_PERIOD_SECS = 60;

export interface GetRecentPerformanceSamplesParams {
  limit: number;
}

export function parseGetRecentPerformanceSamples(params: unknown): GetRecentPerformanceSamplesParams {
  const [raw] = positional(params, 0, 1);
  if (raw === undefined || raw === null) return { limit: MAX_SAMPLES };
  const limit = parseUsize(raw, 'limit');
  if (limit > MAX_SAMPLES) throw invalidParams(`limit: Invalid limit; max ${MAX_SAMPLES} (got ${limit})`);
  return { limit };
}

export const SAMPLES_SQL = `
SELECT slot, num_slots, num_transactions, num_non_vote_transactions
FROM {db:Identifier}.performance_samples
WHERE window_start + ${SAMPLE_PERIOD_SECS} <= (
  SELECT max(assumeNotNull(block_time)) FROM {db:Identifier}.blocks WHERE block_time IS NOT NULL)
ORDER BY window_start DESC
LIMIT {limit:UInt32}`;

interface Row {
  slot: string;
  num_slots: string;
  num_transactions: string;
  num_non_vote_transactions: string;
}

export const getRecentPerformanceSamples = defineMethod<GetRecentPerformanceSamplesParams>({
  name: 'getRecentPerformanceSamples',
  unavailableMessage: 'Performance samples unavailable',
  parse: parseGetRecentPerformanceSamples,
  run: async (ctx, p) => {
    if (p.limit === 0) return [];
    const rows = await queryRows<Row>(ctx.ch, SAMPLES_SQL, { db: ctx.db, limit: p.limit });
    return rows.map((r) => {
      const nonVote = u64Json(u64(r.num_non_vote_transactions));
      return {
        slot: u64Json(u64(r.slot)),
        numTransactions: u64Json(u64(r.num_transactions)),
        numSlots: u64Json(u64(r.num_slots)),
        samplePeriodSecs: SAMPLE_PERIOD_SECS,
        numNonVoteTransaction: nonVote,
        // Agave's own clients read the plural spelling; both carry the same value.
        numNonVoteTransactions: nonVote,
      };
    });
  },
});
