// Row shapes of the view tables (schemas/clickhouse/001_views.sql) and the column list of every
// insert. u64 values travel as decimal strings so nothing past 2^53 is rounded on the way in.

export interface TransactionRow {
  signature: string;
  slot: string;
  position: number;
  err: string | null;
  memo: string | null;
  block_time: string | null;
  is_vote: boolean;
  fee: string;
}

export interface SignatureByAddressRow {
  address: string;
  slot: string;
  position: number;
  signature: string;
  err: string | null;
  memo: string | null;
  block_time: string | null;
}

export interface BlockRow {
  slot: string;
  parent_slot: string;
  blockhash: string;
  block_height: string;
  block_time: string | null;
  leader: string;
  transaction_count: number;
  vote_transaction_count: number;
}

export interface SlotStatusRow {
  slot: string;
  status: number;
}

export interface AccountWriteRow {
  pubkey: string;
  slot: string;
  write_version: string;
  owner: string;
  lamports: string;
  executable: boolean;
  rent_epoch: string;
  space: number;
  data: string;
}

export interface EpochRow {
  epoch: string;
  first_slot: string;
  slots_per_epoch: string;
  slots_per_leader: number;
  identities: string[];
  schedule: number[];
}

export interface SlotOffsetRow {
  topic: string;
  partition: number;
  slot: string;
  first_offset: string;
  last_offset: string;
}

/** getTokenAccountsByOwner candidates (002_lookups.sql). */
export interface TokenAccountByOwnerRow {
  owner: string;
  program: string;
  mint: string;
  pubkey: string;
}

/** getTokenLargestAccounts candidates (008_token_account_keys.sql). */
export interface TokenAccountByMintRow {
  mint: string;
  program: string;
  pubkey: string;
}

/** getTokenAccountsByDelegate candidates (008_token_account_keys.sql). */
export interface TokenAccountByDelegateRow {
  delegate: string;
  program: string;
  mint: string;
  pubkey: string;
}

/** isBlockhashValid lookups (002_lookups.sql). */
export interface BlockhashRow {
  blockhash: string;
  slot: string;
  block_height: string;
}

/** getTransaction's signature index (003_transaction_bodies.sql). */
export interface TransactionIndexRow {
  signature: string;
  slot: string;
  position: number;
}

/** Whole transactions: the TransactionEvent protobuf, binary (004_transaction_records.sql). */
export interface TransactionRecordRow {
  slot: string;
  position: number;
  signature: string;
  /** The Kafka record value as read (projector/tsv.ts writes it escaped, byte for byte). */
  record: Buffer;
}

/** Transactions that changed a token account's balance (007_address_history.sql): signatures_by_address's
 * columns, keyed by the token account. */
export interface TokenBalanceChangeRow extends Omit<SignatureByAddressRow, 'address'> {
  account: string;
}

/** getBlock's block meta beyond the blocks view (003_transaction_bodies.sql). */
export interface BlockDetailRow {
  slot: string;
  previous_blockhash: string;
  rewards: string;
  num_partitions: string | null;
}

export interface TableRows {
  transactions: TransactionRow;
  signatures_by_address: SignatureByAddressRow;
  blocks: BlockRow;
  slot_status: SlotStatusRow;
  account_writes: AccountWriteRow;
  /** The ownership check's narrow copy of account_writes (011_owner_writes.sql): pubkey, slot, write_version, owner. */
  owner_writes: AccountWriteRow;
  /** Every account write again, by owner (006_program_accounts.sql): paged and streamed program reads. */
  program_accounts: AccountWriteRow;
  program_account_changes: AccountWriteRow;
  epochs: EpochRow;
  slot_offsets: SlotOffsetRow;
  token_accounts_by_owner: TokenAccountByOwnerRow;
  blockhashes: BlockhashRow;
  transaction_index: TransactionIndexRow;
  transaction_records: TransactionRecordRow;
  block_details: BlockDetailRow;
  token_balance_changes: TokenBalanceChangeRow;
  token_accounts_by_mint: TokenAccountByMintRow;
  token_accounts_by_delegate: TokenAccountByDelegateRow;
}

export type ViewTable = keyof TableRows;

/** Rows of one or more events, per table. */
export type Rows = { [T in ViewTable]: TableRows[T][] };

/** The tables the projector writes, in insert order, with the columns each insert lists. */
export const VIEW_COLUMNS: { readonly [T in ViewTable]: readonly (keyof TableRows[T])[] } = {
  transactions: ['signature', 'slot', 'position', 'err', 'memo', 'block_time', 'is_vote', 'fee'],
  signatures_by_address: ['address', 'slot', 'position', 'signature', 'err', 'memo', 'block_time'],
  blocks: ['slot', 'parent_slot', 'blockhash', 'block_height', 'block_time', 'leader', 'transaction_count', 'vote_transaction_count'],
  account_writes: ['pubkey', 'slot', 'write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
  owner_writes: ['pubkey', 'slot', 'write_version', 'owner'],
  program_accounts: ['pubkey', 'slot', 'write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
  program_account_changes: ['pubkey', 'slot', 'write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
  epochs: ['epoch', 'first_slot', 'slots_per_epoch', 'slots_per_leader', 'identities', 'schedule'],
  slot_offsets: ['topic', 'partition', 'slot', 'first_offset', 'last_offset'],
  token_accounts_by_owner: ['owner', 'program', 'mint', 'pubkey'],
  blockhashes: ['blockhash', 'slot', 'block_height'],
  transaction_index: ['signature', 'slot', 'position'],
  transaction_records: ['slot', 'position', 'signature', 'record'],
  block_details: ['slot', 'previous_blockhash', 'rewards', 'num_partitions'],
  token_balance_changes: ['account', 'slot', 'position', 'signature', 'err', 'memo', 'block_time'],
  token_accounts_by_mint: ['mint', 'program', 'pubkey'],
  token_accounts_by_delegate: ['delegate', 'program', 'mint', 'pubkey'],
  // Last: a slot's status is stored only after the rows of the same batch (heads read slot_status).
  slot_status: ['slot', 'status'],
};

export const VIEW_TABLES = Object.keys(VIEW_COLUMNS) as ViewTable[];

/** Columns holding free text taken from transactions (errors, memos). Every other string column holds
 * base58, base64, decimal digits or a Kafka topic name, which never need TabSeparated escaping, except
 * transaction_records.record (bytes: projector/tsv.ts escapes them). */
export const FREE_TEXT_COLUMNS: ReadonlySet<string> = new Set(['err', 'memo']);

export function emptyRows(): Rows {
  return {
    transactions: [],
    signatures_by_address: [],
    blocks: [],
    slot_status: [],
    account_writes: [],
    owner_writes: [],
    program_accounts: [],
    program_account_changes: [],
    epochs: [],
    slot_offsets: [],
    token_accounts_by_owner: [],
    blockhashes: [],
    transaction_index: [],
    transaction_records: [],
    block_details: [],
    token_balance_changes: [],
    token_accounts_by_mint: [],
    token_accounts_by_delegate: [],
  };
}

/** Appends every row of `from` to `into` (no copy of `from`'s rows). */
export function appendRows(into: Rows, from: Partial<Rows>): void {
  for (const t of VIEW_TABLES) {
    const src = from[t] as unknown[] | undefined;
    if (!src) continue;
    const dst = into[t] as unknown[];
    // A loop, not push(...src): batches can hold more rows than a call may take arguments.
    for (let i = 0; i < src.length; i++) dst.push(src[i]);
  }
}

export function rowCount(rows: Partial<Rows>): number {
  let n = 0;
  for (const t of VIEW_TABLES) n += rows[t]?.length ?? 0;
  return n;
}
