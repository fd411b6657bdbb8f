-- getTransactionsForAddress's token-account history (issue 21, item 2): the transactions in which an SPL
-- Token or Token-2022 account's balance changed (some meta pre/postTokenBalances entry of the account
-- differs; a missing entry counts as 0), written by the projector (projector/projections/token-balance-changes.ts).
-- An address's own transactions, ordered for both directions, are signatures_by_address (001, key
-- (address, slot, position): ClickHouse reads a key range forwards or backwards); the token accounts a wallet
-- owns are token_accounts_by_owner (002), verified against account_writes at the request's slot. This table
-- adds what neither holds: which of a token account's transactions moved its balance (`balanceChanged`).
-- Same columns as signatures_by_address, so a page is read from it without a join. Rows only list
-- candidates: readers check slots against the heads and slot_status. Views projected before this migration
-- hold no rows for older transactions: `slotstream projector rebuild` fills them from the topics.
CREATE TABLE IF NOT EXISTS {db}.token_balance_changes (
  account String,              -- the token account, base58
  slot UInt64,
  position UInt32,
  signature String,
  err Nullable(String),
  memo Nullable(String),
  block_time Nullable(Int64)
) ENGINE = ReplacingMergeTree
ORDER BY (account, slot, position)
SETTINGS non_replicated_deduplication_window = 10000;
