-- The ownership check of the paged program reads (issue 21): a candidate from program_accounts (the newest write
-- of a pubkey under the program) is the account's state only when no newer write of that pubkey names another
-- owner (closed to the system program, reassigned). Asked of account_writes, the 1,000 candidates of a page are
-- scattered over the whole key space: one granule of 8,192 rows each, ~25 ms CPU a page over 10 M accounts. This
-- table holds only what the check reads, one row per write (pubkey, slot, write_version, owner), in granules of
-- 256 rows: the same 1,000 look-ups read 1/32 of the rows, of four narrow columns (bench/jsonrpc-gpa.ts).
-- Written by the projector beside account_writes from the same rows (projector/projections/index.ts), with the
-- same dedup tokens and keys, so a re-delivered batch converges; under the account-history window as
-- account_writes (projector/retention.ts: rolled up per pubkey into its newest write).
CREATE TABLE IF NOT EXISTS {db}.owner_writes (
  pubkey String,
  slot UInt64,
  write_version UInt64,
  owner String,
  written_at DateTime DEFAULT now(),
  version_key UInt128 MATERIALIZED bitShiftLeft(toUInt128(slot), 64) + write_version
) ENGINE = ReplacingMergeTree(write_version)
ORDER BY (pubkey, slot)
SETTINGS index_granularity = 256, non_replicated_deduplication_window = 10000;

-- Writes stored before this migration (running it again after a crash inserts them again: the keys converge).
INSERT INTO {db}.owner_writes (pubkey, slot, write_version, owner, written_at)
SELECT pubkey, slot, write_version, owner, written_at FROM {db}.account_writes;

-- account_owners (001: which pubkeys an owner ever had) has had no reader since 006 (program_accounts gives a
-- program's pubkeys in key order) and cost the projector one insert per batch: no longer written.
DROP TABLE IF EXISTS {db}.account_owners;
