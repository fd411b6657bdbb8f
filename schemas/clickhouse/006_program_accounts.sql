-- Program accounts in the two orders the paged reads need (getProgramAccountsV2, getTokenAccountsByOwnerV2's
-- pages, and getProgramAccounts streamed): every account write again, keyed by its owner first. Written by the
-- projector beside account_writes from the same events (projector/projections/index.ts), with the same dedup
-- tokens and keys, so a re-delivered batch converges. Readers take, per pubkey, the newest write at or below
-- their context slot, and check it against account_writes (the write that decides may name another owner:
-- a closed or reassigned account), so rows never need deleting.
--
-- `key` is the pubkey's 32 bytes: pages are in byte order (the order getProgramAccounts answers in, and the
-- order of the base-58 paginationKey cursor), which base-58 text order is not.

-- By (owner, key, slot): a page is one key range read in order, and the newest write of a pubkey at or below
-- the context slot is the first of its rows in (key, slot DESC) order.
CREATE TABLE IF NOT EXISTS {db}.program_accounts (
  owner String,
  pubkey String,
  slot UInt64,
  write_version UInt64,
  lamports UInt64,
  executable Bool,
  rent_epoch UInt64,
  space UInt32,
  data String,                 -- base64, as account_writes
  key FixedString(32) MATERIALIZED CAST(base58Decode(pubkey) AS FixedString(32))
) ENGINE = ReplacingMergeTree(write_version)
ORDER BY (owner, key, slot)
SETTINGS non_replicated_deduplication_window = 10000;

-- By (slot, owner, key): a recent changedSinceSlot reads only the writes of the slots asked for (the last 100
-- slots of a program with 10 million accounts are a few thousand rows here, not a scan of its 10 million), and the
-- ownership check of those candidates reads the same slots of every owner (a newer write of a candidate, under any
-- owner, lies in them), where account_writes would be one granule per scattered pubkey.
CREATE TABLE IF NOT EXISTS {db}.program_account_changes (
  owner String,
  pubkey String,
  slot UInt64,
  write_version UInt64,
  lamports UInt64,
  executable Bool,
  rent_epoch UInt64,
  space UInt32,
  data String,
  key FixedString(32) MATERIALIZED CAST(base58Decode(pubkey) AS FixedString(32))
) ENGINE = ReplacingMergeTree(write_version)
ORDER BY (slot, owner, key)
SETTINGS non_replicated_deduplication_window = 10000;

-- Writes stored before this migration. Running it again after a crash inserts them again: the keys make the
-- copies converge and readers take one row per (pubkey, slot).
INSERT INTO {db}.program_accounts (owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data)
SELECT owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data FROM {db}.account_writes;

INSERT INTO {db}.program_account_changes (owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data)
SELECT owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data FROM {db}.account_writes;
