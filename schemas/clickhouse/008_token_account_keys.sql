-- Token accounts by mint and by delegate (issue 21, item 5), written by the projector
-- (projector/projections/lookups.ts) beside 002's token_accounts_by_owner and, like it, candidates only:
-- readers verify each against the state at their commitment (still the program's, open, that mint, that
-- delegate), so rows never need deleting. getTokenLargestAccounts reads the first, getTokenAccountsByDelegate
-- the second; without them both would scan every token account.

-- One row per (mint, token account) ever seen.
CREATE TABLE IF NOT EXISTS {db}.token_accounts_by_mint (
  mint String,
  program String,              -- token program that owned the account when written
  pubkey String                -- token account
) ENGINE = ReplacingMergeTree
ORDER BY (mint, program, pubkey)
SETTINGS non_replicated_deduplication_window = 10000;

-- One row per (delegate, token account) ever seen with that delegate set (the COption at bytes 72..108).
CREATE TABLE IF NOT EXISTS {db}.token_accounts_by_delegate (
  delegate String,
  program String,
  mint String,
  pubkey String
) ENGINE = ReplacingMergeTree
ORDER BY (delegate, program, mint, pubkey)
SETTINGS non_replicated_deduplication_window = 10000;

-- Views filled before this migration get their rows from what they already hold (a re-run after a crash
-- inserts the same rows again; the keys make them converge). Same candidate rule as the projection:
-- token program, open, 165 bytes or Token-2022's account type byte 2, initialized.
INSERT INTO {db}.token_accounts_by_mint (mint, program, pubkey)
SELECT mint, program, pubkey FROM {db}.token_accounts_by_owner;

INSERT INTO {db}.token_accounts_by_delegate (delegate, program, mint, pubkey)
SELECT base58Encode(substring(d, 77, 32)), owner, base58Encode(substring(d, 1, 32)), pubkey
FROM (SELECT pubkey, owner, base64Decode(data) AS d FROM {db}.account_writes
      WHERE owner IN ('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb') AND lamports > 0)
WHERE (length(d) = 165 OR (length(d) > 165 AND length(d) != 355 AND substring(d, 166, 1) = char(2)))
  AND substring(d, 109, 1) != char(0)
  AND substring(d, 73, 4) = unhex('01000000');
