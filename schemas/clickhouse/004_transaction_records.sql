-- Whole transactions as binary, replacing 003's transaction_bodies (base64 text, 32-row granules), which cost
-- the projector ~15% of its throughput (bench/README.md, Projector). A row holds the TransactionEvent record
-- exactly as the projector read it from Kafka (protobuf bytes; readers base64Encode it on the way out, or
-- decode it), so nothing is re-encoded per transaction and ClickHouse parses, compresses and merges a third
-- fewer bytes. Granules are bounded by bytes (~64 KiB, the size of a compressed block, so a point read
-- decompresses what it did with 32-row granules) instead of 32 rows: the 32-row granules made every insert
-- and merge handle ~30 marks per 1,000 transactions. Same key (slot, position), same readers' rules.
CREATE TABLE IF NOT EXISTS {db}.transaction_records (
  slot UInt64,
  position UInt32,
  signature String,
  record String CODEC(ZSTD(1))   -- the TransactionEvent protobuf (the Kafka record value)
) ENGINE = ReplacingMergeTree
ORDER BY (slot, position)
SETTINGS non_replicated_deduplication_window = 10000, index_granularity = 8192, index_granularity_bytes = 65536;

-- Rows stored before this migration move over (decoded from base64). Re-running after a crash copies them
-- again: the key makes the copies converge and readers take one row per key. The table is created first
-- (empty if a crash came after the drop) so that every statement can run again.
CREATE TABLE IF NOT EXISTS {db}.transaction_bodies (
  slot UInt64,
  position UInt32,
  signature String,
  body String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree
ORDER BY (slot, position)
SETTINGS non_replicated_deduplication_window = 10000, index_granularity = 32;

INSERT INTO {db}.transaction_records (slot, position, signature, record)
SELECT slot, position, signature, base64Decode(body) FROM {db}.transaction_bodies;

DROP TABLE IF EXISTS {db}.transaction_bodies;
