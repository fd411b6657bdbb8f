-- The views JSON-RPC answers from and the replay index, all written by the projector.
-- Keys and signatures are base58 strings (what JSON-RPC speaks); account data is base64 (the default
-- encoding of getProgramAccounts). Every table dedups re-delivered inserts by the projector's
-- insert_deduplication_token (topic/partition/offset range) and converges by ReplacingMergeTree keys,
-- so a crash and re-delivery never double counts.

-- Transactions by signature.
CREATE TABLE IF NOT EXISTS {db}.transactions (
  signature String,
  slot UInt64,
  position UInt32,
  err Nullable(String),        -- Agave JSON form, NULL on success
  memo Nullable(String),       -- "[len] text" joined by "; ", NULL without memo
  block_time Nullable(Int64),
  is_vote Bool,
  fee UInt64
) ENGINE = ReplacingMergeTree
ORDER BY signature
SETTINGS non_replicated_deduplication_window = 10000;

-- Signatures by address (static keys and lookup-loaded addresses), for "newest N before X" scans.
CREATE TABLE IF NOT EXISTS {db}.signatures_by_address (
  address String,
  slot UInt64,
  position UInt32,
  signature String,
  err Nullable(String),
  memo Nullable(String),
  block_time Nullable(Int64)
) ENGINE = ReplacingMergeTree
ORDER BY (address, slot, position)
SETTINGS non_replicated_deduplication_window = 10000;

-- Produced blocks (from the PROCESSED slot record, which carries block meta). Skipped slots have no row.
CREATE TABLE IF NOT EXISTS {db}.blocks (
  slot UInt64,
  parent_slot UInt64,
  blockhash String,
  block_height UInt64,
  block_time Nullable(Int64),
  leader String,
  transaction_count UInt32,
  vote_transaction_count UInt32
) ENGINE = ReplacingMergeTree
ORDER BY slot
SETTINGS non_replicated_deduplication_window = 10000;

-- Status per slot; the highest status wins: 0 processed < 1 confirmed < 2 finalized; 3 skipped
-- (the SlotStatus numbers of events.proto).
CREATE TABLE IF NOT EXISTS {db}.slot_status (
  slot UInt64,
  status UInt8
) ENGINE = ReplacingMergeTree(status)
ORDER BY slot
SETTINGS non_replicated_deduplication_window = 10000;

-- Freshness: the newest slot per commitment ('processed', 'confirmed', 'finalized') the views hold,
-- plus 'kafka_lag' (records the projector group still has to read, in `slot`), for health and -32007.
CREATE TABLE IF NOT EXISTS {db}.heads (
  commitment LowCardinality(String),
  slot UInt64,
  updated_at DateTime64(3) DEFAULT now64(3)
) ENGINE = ReplacingMergeTree(updated_at)
ORDER BY commitment;

-- Every account write, one row per (pubkey, slot): the state at commitment C is the newest row with
-- slot <= head(C). Closed accounts (0 lamports) and owner changes are resolved at query time.
CREATE TABLE IF NOT EXISTS {db}.account_writes (
  pubkey String,
  slot UInt64,
  write_version UInt64,
  owner String,
  lamports UInt64,
  executable Bool,
  rent_epoch UInt64,
  space UInt32,
  data String                  -- base64
) ENGINE = ReplacingMergeTree(write_version)
ORDER BY (pubkey, slot)
SETTINGS non_replicated_deduplication_window = 10000;

-- Which pubkeys an owner ever had: the candidates of getProgramAccounts, verified against account_writes.
CREATE TABLE IF NOT EXISTS {db}.account_owners (
  owner String,
  pubkey String
) ENGINE = ReplacingMergeTree
ORDER BY (owner, pubkey)
SETTINGS non_replicated_deduplication_window = 10000;

-- Leader schedule per epoch, compact as in EpochEvent: run i of slots_per_leader slots from
-- first_slot is led by identities[schedule[i] + 1] (ClickHouse arrays are 1-based).
CREATE TABLE IF NOT EXISTS {db}.epochs (
  epoch UInt64,
  first_slot UInt64,
  slots_per_epoch UInt64,
  slots_per_leader UInt32,
  identities Array(String),
  schedule Array(UInt32)
) ENGINE = ReplacingMergeTree
ORDER BY epoch
SETTINGS non_replicated_deduplication_window = 10000;

-- Slot to Kafka offsets per topic and partition, for from_slot replay: the first offset of a slot in
-- a partition is min(first_offset) over its rows (a slot's records may span projector batches).
CREATE TABLE IF NOT EXISTS {db}.slot_offsets (
  topic LowCardinality(String),
  partition UInt32,
  slot UInt64,
  first_offset UInt64,
  last_offset UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (topic, partition, slot, first_offset)
SETTINGS non_replicated_deduplication_window = 10000;

-- Performance samples: 60-second windows of block time over produced blocks. numSlots counts the
-- slots the chain advanced (skipped ones included): the window's highest slot minus the previous one's.
CREATE VIEW IF NOT EXISTS {db}.performance_samples AS
SELECT
  window_start,
  max_slot AS slot,
  max_slot - lagInFrame(max_slot, 1, toUInt64(min_slot - 1)) OVER (ORDER BY window_start ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS num_slots,
  num_transactions,
  num_non_vote_transactions
FROM (
  SELECT
    intDiv(assumeNotNull(block_time), 60) * 60 AS window_start,
    max(slot) AS max_slot,
    min(slot) AS min_slot,
    sum(transaction_count) AS num_transactions,
    sum(transaction_count - vote_transaction_count) AS num_non_vote_transactions
  FROM {db}.blocks FINAL
  WHERE block_time IS NOT NULL
  GROUP BY window_start
);
