-- Narrow index tables for point lookups the JSON-RPC methods of issue 13 make, written by the projector
-- (projector/projections/lookups.ts). Both list candidates only: readers verify them against the state
-- at the request's commitment (account_writes, blocks and slot_status), so rows never need deleting.

-- SPL Token and Token-2022 accounts by the wallet that owns them (the owner field at bytes 32..64 of the
-- token account, not the program): getTokenAccountsByOwner. One row per (wallet, token account) ever seen.
CREATE TABLE IF NOT EXISTS {db}.token_accounts_by_owner (
  owner String,                -- wallet, base58
  program String,              -- token program that owned the account when written
  mint String,
  pubkey String                -- token account
) ENGINE = ReplacingMergeTree
ORDER BY (owner, program, mint, pubkey)
SETTINGS non_replicated_deduplication_window = 10000;

-- Blockhash to its block: isBlockhashValid finds a hash without scanning blocks (ordered by slot).
CREATE TABLE IF NOT EXISTS {db}.blockhashes (
  blockhash String,
  slot UInt64,
  block_height UInt64
) ENGINE = ReplacingMergeTree
ORDER BY (blockhash, slot)
SETTINGS non_replicated_deduplication_window = 10000;
