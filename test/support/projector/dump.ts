// Reads every view in the shapes of expected.ts, the way readers query them (FINAL: converged rows).
import type { ClickHouseClient } from '@clickhouse/client';
import type { ViewDump } from './expected.js';

async function rows(ch: ClickHouseClient, query: string, params: Record<string, unknown> = {}): Promise<string[]> {
  const rs = await ch.query({ query, query_params: params, format: 'JSONCompactEachRow' });
  return (await rs.json<unknown[]>()).map((r) => r.map((v) => (v === null ? 'null' : String(v))).join('|'));
}

export async function dumpViews(ch: ClickHouseClient, db: string, programs: readonly string[]): Promise<ViewDump> {
  const out: ViewDump = {};
  out.transactions = (
    await rows(ch, `SELECT signature, slot, position, err, memo, block_time, is_vote, fee FROM ${db}.transactions FINAL`)
  ).sort();
  out.signatures_by_address = (
    await rows(ch, `SELECT address, slot, position, signature, err, memo, block_time FROM ${db}.signatures_by_address FINAL`)
  ).sort();
  out.blocks = (
    await rows(
      ch,
      `SELECT slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count FROM ${db}.blocks FINAL`,
    )
  ).sort();
  out.slot_status = (await rows(ch, `SELECT slot, status FROM ${db}.slot_status FINAL`)).sort();
  out.epochs = (
    await rows(
      ch,
      `SELECT epoch, first_slot, slots_per_epoch, slots_per_leader, arrayStringConcat(identities, ','), arrayStringConcat(schedule, ',') FROM ${db}.epochs FINAL`,
    )
  ).sort();
  out.slot_offsets = (
    await rows(
      ch,
      `SELECT topic, partition, slot, min(first_offset), max(last_offset) FROM ${db}.slot_offsets GROUP BY topic, partition, slot`,
    )
  ).sort();
  out.heads = (await rows(ch, `SELECT commitment, slot FROM ${db}.heads FINAL WHERE commitment != 'kafka_lag'`)).sort();
  const heads = new Map(out.heads.map((h) => h.split('|') as [string, string]));
  for (const c of ['processed', 'confirmed', 'finalized']) {
    const h = heads.get(c) ?? '0';
    // The state at commitment C: each pubkey's newest write at or below head(C); closed accounts dropped.
    out[`accounts:${c}`] = (
      await rows(
        ch,
        `
      SELECT owner, pubkey, lamports, data, last_slot FROM (
        SELECT pubkey, argMax(owner, (slot, write_version)) AS owner, argMax(lamports, (slot, write_version)) AS lamports,
               argMax(data, (slot, write_version)) AS data, max(slot) AS last_slot
        FROM ${db}.account_writes FINAL WHERE slot <= {h:UInt64} GROUP BY pubkey)
      WHERE lamports > 0`,
        { h },
      )
    ).sort();
    for (const p of programs) {
      // getProgramAccounts: candidates from the owner-keyed writes, verified against the state.
      out[`program:${p}:${c}`] = (
        await rows(
          ch,
          `
        SELECT pubkey FROM (
          SELECT pubkey, argMax(owner, (slot, write_version)) AS owner, argMax(lamports, (slot, write_version)) AS lamports
          FROM ${db}.account_writes FINAL
          WHERE slot <= {h:UInt64} AND pubkey IN (SELECT pubkey FROM ${db}.program_accounts FINAL WHERE owner = {p:String})
          GROUP BY pubkey)
        WHERE owner = {p:String} AND lamports > 0`,
          { h, p },
        )
      ).sort();
    }
  }
  out.performance_samples = await rows(
    ch,
    `SELECT slot, num_slots, num_transactions, num_non_vote_transactions FROM ${db}.performance_samples ORDER BY slot`,
  );
  return out;
}

export async function heads(ch: ClickHouseClient, db: string): Promise<string[]> {
  return (await rows(ch, `SELECT commitment, slot FROM ${db}.heads FINAL WHERE commitment != 'kafka_lag'`)).sort();
}

export async function kafkaLag(ch: ClickHouseClient, db: string): Promise<bigint | undefined> {
  const r = await rows(ch, `SELECT slot FROM ${db}.heads FINAL WHERE commitment = 'kafka_lag'`);
  return r.length === 0 ? undefined : BigInt(r[0]!);
}
