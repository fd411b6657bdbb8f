-- Retention enforced by ClickHouse (issue 22, item 4). Every table a window applies to gets the time its row
-- was stored (`written_at`); the projector sets each table's TTL from its config at start
-- (projector/retention.ts), so a window is changed without a migration and is off (no TTL) by default.
--   Account history (account_writes, program_accounts): rows older than the window roll up, per account
--     (per (owner, key) in program_accounts), into the newest of them (TTL ... GROUP BY), so an account's
--     newest state is kept forever and the writes inside the window stay as they were.
--   Blocks and transactions (blocks, block_details, transactions, transaction_index, transaction_records,
--     signatures_by_address, token_balance_changes): rows older than the window are deleted.
-- The projector records the windows in `retention` for the readers (api/views/state.ts): the first block the
-- views answer in full is the oldest block whose row was stored inside the window less a margin.
-- Rows stored before this migration read `written_at` as the default (now) until a merge stores it, so their
-- window starts at their first merge after it.
ALTER TABLE {db}.account_writes ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.program_accounts ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
-- The rollup's order: (slot, write_version) as one number. A TTL applied to one part (a mutation, or a merge of
-- a part with itself) sees duplicate (pubkey, slot) rows that no Replacing merge collapsed yet, so ordering by
-- slot alone would pick any of them (seen in projector/retention.int.test.ts); TTL aggregates take columns only.
ALTER TABLE {db}.account_writes ADD COLUMN IF NOT EXISTS version_key UInt128 MATERIALIZED bitShiftLeft(toUInt128(slot), 64) + write_version;
ALTER TABLE {db}.program_accounts ADD COLUMN IF NOT EXISTS version_key UInt128 MATERIALIZED bitShiftLeft(toUInt128(slot), 64) + write_version;
ALTER TABLE {db}.blocks ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.block_details ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.transactions ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.transaction_index ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.transaction_records ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.signatures_by_address ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();
ALTER TABLE {db}.token_balance_changes ADD COLUMN IF NOT EXISTS written_at DateTime DEFAULT now();

-- The windows the projector applied, in seconds (0: kept forever), by store: 'account_history', 'transactions'.
CREATE TABLE IF NOT EXISTS {db}.retention (
  store LowCardinality(String),
  window_s UInt64,
  updated_at DateTime64(3) DEFAULT now64(3)
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY store;

-- Column codecs where they pay (issue 22, item 3; bench/clickhouse-codecs.ts, figures in bench/README.md): account
-- writes' base64 data, pubkey and owner compress to about half with ZSTD(1) rather than the default LZ4, and slot
-- and write_version, increasing within a pubkey, to almost nothing with Delta first (all columns: -32% a row on the
-- simulator's mix). Codecs are metadata: parts written from now on use them and older parts take them when merged;
-- no data is rewritten here. transaction_records keeps 004's codecs (ZSTD(3) on the record and ZSTD(1) on the
-- signature save 5% a row: not worth the insert CPU of a table the projector writes at every transaction).
ALTER TABLE {db}.account_writes MODIFY COLUMN data String CODEC(ZSTD(1));
ALTER TABLE {db}.account_writes MODIFY COLUMN pubkey String CODEC(ZSTD(1));
ALTER TABLE {db}.account_writes MODIFY COLUMN owner String CODEC(ZSTD(1));
ALTER TABLE {db}.account_writes MODIFY COLUMN slot UInt64 CODEC(Delta, ZSTD(1));
ALTER TABLE {db}.account_writes MODIFY COLUMN write_version UInt64 CODEC(Delta, ZSTD(1));
