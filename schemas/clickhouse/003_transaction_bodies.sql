-- Whole transactions (message and meta) and block details for getTransaction and getBlock, written by the
-- projector (projector/projections/bodies.ts). A transaction is stored once, as the TransactionEvent the
-- projector read (protobuf, base64: the event model's own compatibility rules apply, and a shaper decodes
-- it in microseconds), in slot order so a block is one key range. Signatures reach it through a narrow
-- index. Readers check slots against slot_status and the heads, so rows of a lost fork are never served.

-- Signature to (slot, position): the point lookup of getTransaction. Keyed by (signature, slot), not by
-- signature alone: a transaction that landed in a fork that died and again on the chain keeps both rows,
-- and the reader picks the one whose slot is alive. Small granules: one lookup reads ~1024 narrow rows.
CREATE TABLE IF NOT EXISTS {db}.transaction_index (
  signature String,
  slot UInt64,
  position UInt32
) ENGINE = ReplacingMergeTree
ORDER BY (signature, slot, position)
SETTINGS non_replicated_deduplication_window = 10000, index_granularity = 1024;

-- The transactions themselves, one row per (slot, position). index_granularity 32: a point read
-- decompresses ~32 bodies (~30 KB), not 8192; a block of 3000 transactions is ~100 adjacent granules.
-- getBlock with transactionDetails "signatures" reads the signature column only.
CREATE TABLE IF NOT EXISTS {db}.transaction_bodies (
  slot UInt64,
  position UInt32,
  signature String,
  body String CODEC(ZSTD(1))   -- base64 of the TransactionEvent protobuf
) ENGINE = ReplacingMergeTree
ORDER BY (slot, position)
SETTINGS non_replicated_deduplication_window = 10000, index_granularity = 32;

-- What getBlock needs beyond the blocks row: previous blockhash, block rewards, reward partitions.
CREATE TABLE IF NOT EXISTS {db}.block_details (
  slot UInt64,
  previous_blockhash String,   -- base58; '' when the source did not record it (then the parent's blockhash is used)
  rewards String CODEC(ZSTD(1)),  -- base64 of a BlockMeta protobuf holding only the rewards
  num_partitions Nullable(UInt64)
) ENGINE = ReplacingMergeTree
ORDER BY slot
SETTINGS non_replicated_deduplication_window = 10000;
