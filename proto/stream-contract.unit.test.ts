// Checks proto/stream.proto against the interface contract, field by field: every message, field
// name, number, type, label, oneof, optional and map of interface.md, plus behaviour.md's extensions.
// The table below is transcribed from the spec, not derived from the .proto; issue 20's additions (new numbers
// only) are frozen here as they were published, so they too can only grow.
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';

const PROTO = fileURLToPath(new URL('./stream.proto', import.meta.url));
const root = new protobuf.Root().loadSync(PROTO, { keepCase: true });
const ns = root.lookup('stream') as protobuf.Namespace;

// name: [number, type, modifiers]; type is a scalar or a message/enum name; modifiers:
// 'repeated', 'optional' (proto3 optional), 'map<K,V>', 'oneof:<name>'.
type Field = [number, string, ...string[]];
const CONTRACT: Record<string, Record<string, Field>> = {
  SubscribeRequest: {
    transactions: [1, 'SubscribeRequestFilterTransactions', 'map<string,SubscribeRequestFilterTransactions>'],
    accounts: [2, 'SubscribeRequestFilterAccounts', 'map<string,SubscribeRequestFilterAccounts>'],
    ping: [4, 'SubscribeRequestPing', 'optional'],
    commitment: [6, 'CommitmentLevel', 'optional'],
    accounts_data_slice: [7, 'SubscribeRequestAccountsDataSlice', 'repeated'],
    from_slot: [11, 'uint64', 'optional'],
    // Issue 23: snapshot, then stream.
    snapshot: [20, 'bool', 'optional'],
    // Issue 23: durable cursor, end slot, replay pace.
    cursor: [30, 'string', 'optional'],
    to_slot: [31, 'uint64', 'optional'],
    pace: [32, 'double', 'optional'],
  },
  SubscribeRequestFilterTransactions: {
    account_include: [1, 'string', 'repeated'],
    account_exclude: [2, 'string', 'repeated'],
    account_required: [3, 'string', 'repeated'],
    vote: [10, 'bool', 'optional'],
    failed: [11, 'bool', 'optional'],
    signature: [12, 'string', 'optional'],
    // Issue 20: instruction conditions.
    instructions: [13, 'SubscribeRequestFilterTransactionsInstruction', 'repeated'],
  },
  SubscribeRequestFilterTransactionsInstruction: {
    program_id: [1, 'string'],
    discriminator: [2, 'bytes', 'oneof:data'],
    memcmp: [3, 'SubscribeRequestFilterTransactionsInstructionMemcmp', 'oneof:data'],
    include_inner: [4, 'bool'],
  },
  SubscribeRequestFilterTransactionsInstructionMemcmp: {
    offset: [1, 'uint64'],
    bytes: [2, 'bytes'],
  },
  SubscribeRequestFilterAccounts: {
    account: [1, 'string', 'repeated'],
    owner: [2, 'string', 'repeated'],
    filters: [3, 'SubscribeRequestFilterAccountsFilter', 'repeated'],
  },
  SubscribeRequestFilterAccountsFilter: {
    memcmp: [1, 'SubscribeRequestFilterAccountsFilterMemcmp', 'oneof:filter'],
    datasize: [2, 'uint64', 'oneof:filter'],
    lamports: [3, 'SubscribeRequestFilterAccountsFilterLamports', 'oneof:filter'],
  },
  SubscribeRequestFilterAccountsFilterMemcmp: {
    offset: [1, 'uint64'],
    bytes: [2, 'bytes', 'oneof:data'],
    base58: [3, 'string', 'oneof:data'],
    base64: [4, 'string', 'oneof:data'],
  },
  SubscribeRequestFilterAccountsFilterLamports: {
    eq: [1, 'uint64', 'oneof:cmp'],
    ne: [2, 'uint64', 'oneof:cmp'],
    lt: [3, 'uint64', 'oneof:cmp'],
    gt: [4, 'uint64', 'oneof:cmp'],
  },
  SubscribeRequestAccountsDataSlice: { offset: [1, 'uint64'], length: [2, 'uint64'] },
  SubscribeRequestPing: { id: [1, 'int32'] },
  SubscribeParsedRequest: {
    ping: [1, 'SubscribeRequestPing', 'optional'],
    // Issue 20: filters, commitment and from_slot.
    programs: [2, 'string', 'repeated'],
    instruction_kinds: [3, 'string', 'repeated'],
    event_kinds: [4, 'string', 'repeated'],
    mints: [5, 'string', 'repeated'],
    users: [6, 'string', 'repeated'],
    include_failed: [7, 'bool', 'optional'],
    instruction_level: [8, 'ParsedInstructionLevel', 'optional'],
    commitment: [9, 'CommitmentLevel', 'optional'],
    from_slot: [10, 'uint64', 'optional'],
    // Issue 23: as SubscribeRequest's.
    cursor: [30, 'string', 'optional'],
    to_slot: [31, 'uint64', 'optional'],
    pace: [32, 'double', 'optional'],
  },
  // Issue 23: listing and deleting durable cursors.
  ListCursorsRequest: { prefix: [30, 'string'] },
  Cursor: { name: [30, 'string'], slot: [31, 'uint64'], updated_at_ms: [32, 'uint64'] },
  ListCursorsResponse: { cursors: [30, 'Cursor', 'repeated'] },
  DeleteCursorRequest: { name: [30, 'string'] },
  DeleteCursorResponse: { deleted: [30, 'bool'] },
  PingRequest: { count: [1, 'int32'] },
  GetVersionRequest: {},
  SubscribeUpdate: {
    filters: [1, 'string', 'repeated'],
    created_at: [2, 'google.protobuf.Timestamp'],
    transaction: [3, 'SubscribeUpdateTransaction', 'oneof:update_oneof'],
    account: [4, 'SubscribeUpdateAccount', 'oneof:update_oneof'],
    ping: [5, 'SubscribeUpdatePing', 'oneof:update_oneof'],
    pong: [6, 'SubscribeUpdatePong', 'oneof:update_oneof'],
  },
  SubscribeUpdateTransaction: { transaction: [1, 'SubscribeUpdateTransactionInfo'], slot: [2, 'uint64'] },
  SubscribeUpdateTransactionInfo: {
    signature: [1, 'bytes'],
    slot: [2, 'uint64'],
    num_required_signatures: [3, 'uint32'],
    num_readonly_signed_accounts: [4, 'uint32'],
    num_readonly_unsigned_accounts: [5, 'uint32'],
    recent_blockhash: [6, 'bytes'],
    signatures: [7, 'bytes', 'repeated'],
    account_keys: [8, 'bytes', 'repeated'],
    instructions: [9, 'CompiledInstruction', 'repeated'],
    address_table_lookups: [10, 'MessageAddressTableLookup', 'repeated'],
  },
  SubscribeUpdateAccount: { account: [1, 'SubscribeUpdateAccountInfo'], slot: [2, 'uint64'], is_startup: [3, 'bool'] },
  SubscribeUpdateAccountInfo: {
    pubkey: [1, 'bytes'],
    lamports: [2, 'uint64'],
    owner: [3, 'bytes'],
    executable: [4, 'bool'],
    rent_epoch: [5, 'uint64'],
    data: [6, 'bytes'],
    write_version: [7, 'uint64'],
    txn_signature: [8, 'bytes', 'optional'],
  },
  SubscribeUpdatePing: {},
  SubscribeUpdatePong: { id: [1, 'int32'] },
  MessageAddressTableLookup: { account_key: [1, 'bytes'], writable_indexes: [2, 'bytes'], readonly_indexes: [3, 'bytes'] },
  CompiledInstruction: { program_id_index: [1, 'uint32'], accounts: [2, 'bytes'], data: [3, 'bytes'] },
  SubscribeUpdateParsedTransaction: {
    signature: [1, 'bytes'],
    slot: [2, 'uint64'],
    account: [3, 'SubscribeUpdateAccount'],
    recent_blockhash: [4, 'bytes'],
    signatures: [5, 'bytes', 'repeated'],
    instructions: [6, 'Instruction', 'repeated'],
    // Issue 20: events, programs, failed, the PumpSwap pool.
    events: [7, 'Event', 'repeated'],
    programs: [8, 'string', 'repeated'],
    failed: [9, 'bool'],
    err: [10, 'string', 'optional'],
    pool: [11, 'SubscribeUpdateAccount'],
  },
  Instruction: {
    initialize: [1, 'Initialize', 'oneof:instruction_oneof'],
    set_params: [2, 'SetParams', 'oneof:instruction_oneof'],
    create: [3, 'Create', 'oneof:instruction_oneof'],
    buy: [4, 'Buy', 'oneof:instruction_oneof'],
    sell: [5, 'Sell', 'oneof:instruction_oneof'],
    withdraw: [6, 'Withdraw', 'oneof:instruction_oneof'],
    // Issue 20: the newer pump.fun and PumpSwap instructions, and where an instruction sits.
    create_v2: [7, 'CreateV2', 'oneof:instruction_oneof'],
    buy_v2: [8, 'BuyV2', 'oneof:instruction_oneof'],
    buy_exact_sol_in: [9, 'BuyExactSolIn', 'oneof:instruction_oneof'],
    buy_exact_quote_in_v2: [10, 'BuyExactQuoteInV2', 'oneof:instruction_oneof'],
    sell_v2: [11, 'SellV2', 'oneof:instruction_oneof'],
    migrate: [12, 'Migrate', 'oneof:instruction_oneof'],
    amm_buy: [13, 'AmmBuy', 'oneof:instruction_oneof'],
    amm_sell: [14, 'AmmSell', 'oneof:instruction_oneof'],
    amm_buy_exact_quote_in: [15, 'AmmBuyExactQuoteIn', 'oneof:instruction_oneof'],
    amm_create_pool: [16, 'AmmCreatePool', 'oneof:instruction_oneof'],
    amm_deposit: [17, 'AmmDeposit', 'oneof:instruction_oneof'],
    amm_withdraw: [18, 'AmmWithdraw', 'oneof:instruction_oneof'],
    other: [19, 'GenericInstruction', 'oneof:instruction_oneof'],
    program: [20, 'string'],
    index: [21, 'uint32'],
    inner_index: [22, 'uint32', 'optional'],
    inner: [23, 'bool'],
    stack_height: [24, 'uint32', 'optional'],
    invoked_by: [25, 'bytes'],
    extra_args: [26, 'DecodedField', 'repeated'],
    accounts: [27, 'bytes', 'repeated'],
    // Issue 34: what no loaded decoder table decodes.
    unknown: [28, 'UndecodedEntry', 'oneof:instruction_oneof'],
  },
  Initialize: {},
  SetParams: {
    fee_recipient: [1, 'bytes'],
    initial_virtual_token_reserves: [2, 'uint64'],
    initial_virtual_sol_reserves: [3, 'uint64'],
    initial_real_token_reserves: [4, 'uint64'],
    token_total_supply: [5, 'uint64'],
    fee_basis_points: [6, 'uint64'],
  },
  Create: { name: [1, 'string'], symbol: [2, 'string'], uri: [3, 'string'] },
  Buy: { amount: [1, 'uint64'], max_sol_cost: [2, 'uint64'] },
  Sell: { amount: [1, 'uint64'], min_sol_output: [2, 'uint64'] },
  Withdraw: {},
  // Issue 20: the messages SubscribeParsed's newer instructions and events are written in.
  GenericInstruction: {
    name: [1, 'string'],
    args: [2, 'DecodedField', 'repeated'],
  },
  GenericEvent: {
    name: [1, 'string'],
    fields: [2, 'DecodedField', 'repeated'],
  },
  DecodedField: {
    name: [1, 'string'],
    u64: [2, 'uint64', 'oneof:value'],
    i64: [3, 'int64', 'oneof:value'],
    u32: [4, 'uint32', 'oneof:value'],
    bool: [5, 'bool', 'oneof:value'],
    pubkey: [6, 'bytes', 'oneof:value'],
    string: [7, 'string', 'oneof:value'],
    big: [8, 'string', 'oneof:value'],
    json: [9, 'string', 'oneof:value'],
  },
  Event: {
    program: [1, 'string'],
    index: [2, 'uint32'],
    inner_index: [3, 'uint32'],
    stack_height: [4, 'uint32', 'optional'],
    trade: [10, 'TradeEvent', 'oneof:event_oneof'],
    create: [11, 'CreateEvent', 'oneof:event_oneof'],
    complete: [12, 'CompleteEvent', 'oneof:event_oneof'],
    amm_buy: [13, 'AmmBuyEvent', 'oneof:event_oneof'],
    amm_sell: [14, 'AmmSellEvent', 'oneof:event_oneof'],
    amm_create_pool: [15, 'AmmCreatePoolEvent', 'oneof:event_oneof'],
    other: [16, 'GenericEvent', 'oneof:event_oneof'],
    unknown: [17, 'UndecodedEntry', 'oneof:event_oneof'],
  },
  UndecodedEntry: {
    kind: [1, 'string'],
    discriminator: [2, 'bytes'],
    data: [3, 'bytes'],
    reason: [4, 'string'],
    name: [5, 'string'],
  },
  Shareholder: {
    address: [1, 'bytes'],
    share_bps: [2, 'uint32'],
  },
  CreateV2: {
    name: [1, 'string', 'optional'],
    symbol: [2, 'string', 'optional'],
    uri: [3, 'string', 'optional'],
    creator: [4, 'bytes', 'optional'],
    is_mayhem_mode: [5, 'bool', 'optional'],
    is_cashback_enabled: [6, 'bool', 'optional'],
  },
  BuyV2: {
    amount: [1, 'uint64', 'optional'],
    max_sol_cost: [2, 'uint64', 'optional'],
  },
  BuyExactSolIn: {
    spendable_sol_in: [1, 'uint64', 'optional'],
    min_tokens_out: [2, 'uint64', 'optional'],
    track_volume: [3, 'bool', 'optional'],
  },
  BuyExactQuoteInV2: {
    spendable_quote_in: [1, 'uint64', 'optional'],
    min_tokens_out: [2, 'uint64', 'optional'],
  },
  SellV2: {
    amount: [1, 'uint64', 'optional'],
    min_sol_output: [2, 'uint64', 'optional'],
  },
  Migrate: {},
  AmmBuy: {
    base_amount_out: [1, 'uint64', 'optional'],
    max_quote_amount_in: [2, 'uint64', 'optional'],
    track_volume: [3, 'bool', 'optional'],
  },
  AmmSell: {
    base_amount_in: [1, 'uint64', 'optional'],
    min_quote_amount_out: [2, 'uint64', 'optional'],
  },
  AmmBuyExactQuoteIn: {
    spendable_quote_in: [1, 'uint64', 'optional'],
    min_base_amount_out: [2, 'uint64', 'optional'],
    track_volume: [3, 'bool', 'optional'],
  },
  AmmCreatePool: {
    index: [1, 'uint32', 'optional'],
    base_amount_in: [2, 'uint64', 'optional'],
    quote_amount_in: [3, 'uint64', 'optional'],
    coin_creator: [4, 'bytes', 'optional'],
    is_mayhem_mode: [5, 'bool', 'optional'],
    is_cashback_coin: [6, 'bool', 'optional'],
  },
  AmmDeposit: {
    lp_token_amount_out: [1, 'uint64', 'optional'],
    max_base_amount_in: [2, 'uint64', 'optional'],
    max_quote_amount_in: [3, 'uint64', 'optional'],
  },
  AmmWithdraw: {
    lp_token_amount_in: [1, 'uint64', 'optional'],
    min_base_amount_out: [2, 'uint64', 'optional'],
    min_quote_amount_out: [3, 'uint64', 'optional'],
  },
  TradeEvent: {
    mint: [1, 'bytes', 'optional'],
    sol_amount: [2, 'uint64', 'optional'],
    token_amount: [3, 'uint64', 'optional'],
    is_buy: [4, 'bool', 'optional'],
    user: [5, 'bytes', 'optional'],
    timestamp: [6, 'int64', 'optional'],
    virtual_sol_reserves: [7, 'uint64', 'optional'],
    virtual_token_reserves: [8, 'uint64', 'optional'],
    real_sol_reserves: [9, 'uint64', 'optional'],
    real_token_reserves: [10, 'uint64', 'optional'],
    fee_recipient: [11, 'bytes', 'optional'],
    fee_basis_points: [12, 'uint64', 'optional'],
    fee: [13, 'uint64', 'optional'],
    creator: [14, 'bytes', 'optional'],
    creator_fee_basis_points: [15, 'uint64', 'optional'],
    creator_fee: [16, 'uint64', 'optional'],
    track_volume: [17, 'bool', 'optional'],
    total_unclaimed_tokens: [18, 'uint64', 'optional'],
    total_claimed_tokens: [19, 'uint64', 'optional'],
    current_sol_volume: [20, 'uint64', 'optional'],
    last_update_timestamp: [21, 'int64', 'optional'],
    ix_name: [22, 'string', 'optional'],
    mayhem_mode: [23, 'bool', 'optional'],
    cashback_fee_basis_points: [24, 'uint64', 'optional'],
    cashback: [25, 'uint64', 'optional'],
    buyback_fee_basis_points: [26, 'uint64', 'optional'],
    buyback_fee: [27, 'uint64', 'optional'],
    shareholders: [28, 'Shareholder', 'repeated'],
    quote_mint: [29, 'bytes', 'optional'],
    quote_amount: [30, 'uint64', 'optional'],
    virtual_quote_reserves: [31, 'uint64', 'optional'],
    real_quote_reserves: [32, 'uint64', 'optional'],
    holder_rewards_bps: [33, 'uint64', 'optional'],
    holder_rewards: [34, 'uint64', 'optional'],
    creator_fee_unclaimed: [35, 'uint64', 'optional'],
  },
  CreateEvent: {
    name: [1, 'string', 'optional'],
    symbol: [2, 'string', 'optional'],
    uri: [3, 'string', 'optional'],
    mint: [4, 'bytes', 'optional'],
    bonding_curve: [5, 'bytes', 'optional'],
    user: [6, 'bytes', 'optional'],
    creator: [7, 'bytes', 'optional'],
    timestamp: [8, 'int64', 'optional'],
    virtual_token_reserves: [9, 'uint64', 'optional'],
    virtual_sol_reserves: [10, 'uint64', 'optional'],
    real_token_reserves: [11, 'uint64', 'optional'],
    token_total_supply: [12, 'uint64', 'optional'],
    token_program: [13, 'bytes', 'optional'],
    is_mayhem_mode: [14, 'bool', 'optional'],
    is_cashback_enabled: [15, 'bool', 'optional'],
    quote_mint: [16, 'bytes', 'optional'],
    virtual_quote_reserves: [17, 'uint64', 'optional'],
  },
  CompleteEvent: {
    user: [1, 'bytes', 'optional'],
    mint: [2, 'bytes', 'optional'],
    bonding_curve: [3, 'bytes', 'optional'],
    timestamp: [4, 'int64', 'optional'],
    quote_mint: [5, 'bytes', 'optional'],
  },
  AmmBuyEvent: {
    timestamp: [1, 'int64', 'optional'],
    base_amount_out: [2, 'uint64', 'optional'],
    max_quote_amount_in: [3, 'uint64', 'optional'],
    user_base_token_reserves: [4, 'uint64', 'optional'],
    user_quote_token_reserves: [5, 'uint64', 'optional'],
    pool_base_token_reserves: [6, 'uint64', 'optional'],
    pool_quote_token_reserves: [7, 'uint64', 'optional'],
    quote_amount_in: [8, 'uint64', 'optional'],
    lp_fee_basis_points: [9, 'uint64', 'optional'],
    lp_fee: [10, 'uint64', 'optional'],
    protocol_fee_basis_points: [11, 'uint64', 'optional'],
    protocol_fee: [12, 'uint64', 'optional'],
    quote_amount_in_with_lp_fee: [13, 'uint64', 'optional'],
    user_quote_amount_in: [14, 'uint64', 'optional'],
    pool: [15, 'bytes', 'optional'],
    user: [16, 'bytes', 'optional'],
    user_base_token_account: [17, 'bytes', 'optional'],
    user_quote_token_account: [18, 'bytes', 'optional'],
    protocol_fee_recipient: [19, 'bytes', 'optional'],
    protocol_fee_recipient_token_account: [20, 'bytes', 'optional'],
    coin_creator: [21, 'bytes', 'optional'],
    coin_creator_fee_basis_points: [22, 'uint64', 'optional'],
    coin_creator_fee: [23, 'uint64', 'optional'],
    track_volume: [24, 'bool', 'optional'],
    total_unclaimed_tokens: [25, 'uint64', 'optional'],
    total_claimed_tokens: [26, 'uint64', 'optional'],
    current_sol_volume: [27, 'uint64', 'optional'],
    last_update_timestamp: [28, 'int64', 'optional'],
    min_base_amount_out: [29, 'uint64', 'optional'],
    ix_name: [30, 'string', 'optional'],
    cashback_fee_basis_points: [31, 'uint64', 'optional'],
    cashback: [32, 'uint64', 'optional'],
    buyback_fee_basis_points: [33, 'uint64', 'optional'],
    buyback_fee: [34, 'uint64', 'optional'],
    virtual_quote_reserves: [35, 'string', 'optional'],
    can_boost: [36, 'bool', 'optional'],
    base_supply: [37, 'uint64', 'optional'],
    holder_rewards_bps: [38, 'uint64', 'optional'],
    holder_rewards: [39, 'uint64', 'optional'],
    creator_fee_unclaimed: [40, 'uint64', 'optional'],
  },
  AmmSellEvent: {
    timestamp: [1, 'int64', 'optional'],
    base_amount_in: [2, 'uint64', 'optional'],
    min_quote_amount_out: [3, 'uint64', 'optional'],
    user_base_token_reserves: [4, 'uint64', 'optional'],
    user_quote_token_reserves: [5, 'uint64', 'optional'],
    pool_base_token_reserves: [6, 'uint64', 'optional'],
    pool_quote_token_reserves: [7, 'uint64', 'optional'],
    quote_amount_out: [8, 'uint64', 'optional'],
    lp_fee_basis_points: [9, 'uint64', 'optional'],
    lp_fee: [10, 'uint64', 'optional'],
    protocol_fee_basis_points: [11, 'uint64', 'optional'],
    protocol_fee: [12, 'uint64', 'optional'],
    quote_amount_out_without_lp_fee: [13, 'uint64', 'optional'],
    user_quote_amount_out: [14, 'uint64', 'optional'],
    pool: [15, 'bytes', 'optional'],
    user: [16, 'bytes', 'optional'],
    user_base_token_account: [17, 'bytes', 'optional'],
    user_quote_token_account: [18, 'bytes', 'optional'],
    protocol_fee_recipient: [19, 'bytes', 'optional'],
    protocol_fee_recipient_token_account: [20, 'bytes', 'optional'],
    coin_creator: [21, 'bytes', 'optional'],
    coin_creator_fee_basis_points: [22, 'uint64', 'optional'],
    coin_creator_fee: [23, 'uint64', 'optional'],
    cashback_fee_basis_points: [24, 'uint64', 'optional'],
    cashback: [25, 'uint64', 'optional'],
    buyback_fee_basis_points: [26, 'uint64', 'optional'],
    buyback_fee: [27, 'uint64', 'optional'],
  },
  AmmCreatePoolEvent: {
    timestamp: [1, 'int64', 'optional'],
    index: [2, 'uint32', 'optional'],
    creator: [3, 'bytes', 'optional'],
    base_mint: [4, 'bytes', 'optional'],
    quote_mint: [5, 'bytes', 'optional'],
    base_mint_decimals: [6, 'uint32', 'optional'],
    quote_mint_decimals: [7, 'uint32', 'optional'],
    base_amount_in: [8, 'uint64', 'optional'],
    quote_amount_in: [9, 'uint64', 'optional'],
    pool_base_amount: [10, 'uint64', 'optional'],
    pool_quote_amount: [11, 'uint64', 'optional'],
    minimum_liquidity: [12, 'uint64', 'optional'],
    initial_liquidity: [13, 'uint64', 'optional'],
    lp_token_amount_out: [14, 'uint64', 'optional'],
    pool_bump: [15, 'uint32', 'optional'],
    pool: [16, 'bytes', 'optional'],
    lp_mint: [17, 'bytes', 'optional'],
    user_base_token_account: [18, 'bytes', 'optional'],
    user_quote_token_account: [19, 'bytes', 'optional'],
    coin_creator: [20, 'bytes', 'optional'],
    is_mayhem_mode: [21, 'bool', 'optional'],
  },
  PongResponse: { count: [1, 'int32'] },
  GetVersionResponse: { version: [1, 'string'] },
  GetSlotResponse: { slot: [1, 'uint64'] },
};

// Issue 34's additions (new numbers and messages only), frozen as published: merged over the entries above.
const ISSUE_34: Record<string, Record<string, Field>> = {
  SubscribeParsedRequest: {
    trade_kinds: [33, 'string', 'repeated'],
    traders: [34, 'string', 'repeated'],
    min_quote_amount: [35, 'uint64', 'optional'],
    min_base_amount: [36, 'uint64', 'optional'],
  },
  SubscribeUpdateParsedTransaction: {
    trades: [12, 'ParsedTrade', 'repeated'],
  },
  ParsedTrade: {
    kind: [1, 'string'],
    program: [2, 'string'],
    venue: [3, 'string'],
    index: [4, 'uint32'],
    events: [5, 'uint32', 'repeated'],
    mint: [6, 'bytes'],
    trader: [7, 'bytes'],
    base_amount: [8, 'uint64'],
    quote_amount: [9, 'uint64'],
    quote_mint: [10, 'bytes'],
    quote: [11, 'string'],
    market: [12, 'bytes'],
    protocol_fee: [13, 'uint64'],
    creator_fee: [14, 'uint64'],
    lp_fee: [15, 'uint64'],
    buyback_fee: [16, 'uint64'],
    fees_kept: [17, 'bool'],
    synthetic_migration: [18, 'bool'],
    hop: [19, 'uint32', 'optional'],
    hops: [20, 'uint32'],
    fee_bucket: [21, 'string'],
  },
  Instruction: {
    buy_v3: [29, 'BuyV3', 'oneof:instruction_oneof'],
    sell_v3: [30, 'SellV3', 'oneof:instruction_oneof'],
    buy_exact_quote_in_v3: [31, 'BuyExactQuoteInV3', 'oneof:instruction_oneof'],
    amm_buy_v2: [32, 'AmmBuyV2', 'oneof:instruction_oneof'],
    amm_sell_v2: [33, 'AmmSellV2', 'oneof:instruction_oneof'],
    amm_buy_exact_quote_in_v2: [34, 'AmmBuyExactQuoteInV2', 'oneof:instruction_oneof'],
    amm_multi_hop_swap: [35, 'AmmMultiHopSwap', 'oneof:instruction_oneof'],
    multi_hop_curve_swap: [36, 'MultiHopCurveSwap', 'oneof:instruction_oneof'],
    sweep_protocol_fee: [37, 'SweepProtocolFee', 'oneof:instruction_oneof'],
    sweep_creator_fee: [38, 'SweepCreatorFee', 'oneof:instruction_oneof'],
    amm_sweep_protocol_fee: [39, 'AmmSweepProtocolFee', 'oneof:instruction_oneof'],
    amm_sweep_creator_fee: [40, 'AmmSweepCreatorFee', 'oneof:instruction_oneof'],
  },
  Event: {
    post_complete_buy: [18, 'PostCompleteBuyEvent', 'oneof:event_oneof'],
    sweep_bonding_curve_fee: [19, 'SweepBondingCurveFeeEvent', 'oneof:event_oneof'],
    amm_sweep_pool_fee: [20, 'AmmSweepPoolFeeEvent', 'oneof:event_oneof'],
  },
  CreateV2: {
    creator_fee_bps: [7, 'uint64', 'optional'],
    is_holder_reward: [8, 'bool', 'optional'],
  },
  BuyV2: {
    partial_fill: [3, 'bool', 'optional'],
  },
  BuyExactSolIn: {
    partial_fill: [4, 'bool', 'optional'],
  },
  BuyExactQuoteInV2: {
    partial_fill: [3, 'bool', 'optional'],
  },
  AmmCreatePool: {
    creator_fee_bps: [7, 'uint64', 'optional'],
    can_edit_creator_fee: [8, 'bool', 'optional'],
    is_holder_reward: [9, 'bool', 'optional'],
  },
  CreateEvent: {
    creator_fee_bps: [18, 'uint64', 'optional'],
    is_holder_reward: [19, 'bool', 'optional'],
    depth: [20, 'uint32', 'optional'],
  },
  AmmSellEvent: {
    virtual_quote_reserves: [28, 'string', 'optional'],
    can_boost: [29, 'bool', 'optional'],
    base_supply: [30, 'uint64', 'optional'],
    holder_rewards_bps: [31, 'uint64', 'optional'],
    holder_rewards: [32, 'uint64', 'optional'],
    creator_fee_unclaimed: [33, 'uint64', 'optional'],
  },
  AmmCreatePoolEvent: {
    creator_fee_bps: [22, 'uint64', 'optional'],
    can_edit_creator_fee: [23, 'bool', 'optional'],
    is_holder_reward: [24, 'bool', 'optional'],
  },
  BuyV3: {
    amount: [1, 'uint64', 'optional'],
    max_sol_cost: [2, 'uint64', 'optional'],
    partial_fill: [3, 'bool', 'optional'],
  },
  SellV3: {
    amount: [1, 'uint64', 'optional'],
    min_sol_output: [2, 'uint64', 'optional'],
  },
  BuyExactQuoteInV3: {
    spendable_quote_in: [1, 'uint64', 'optional'],
    min_tokens_out: [2, 'uint64', 'optional'],
    partial_fill: [3, 'bool', 'optional'],
  },
  AmmBuyV2: {
    base_amount_out: [1, 'uint64', 'optional'],
    max_quote_amount_in: [2, 'uint64', 'optional'],
  },
  AmmSellV2: {
    base_amount_in: [1, 'uint64', 'optional'],
    min_quote_amount_out: [2, 'uint64', 'optional'],
  },
  AmmBuyExactQuoteInV2: {
    spendable_quote_in: [1, 'uint64', 'optional'],
    min_base_amount_out: [2, 'uint64', 'optional'],
  },
  AmmMultiHopSwap: {
    amount_in: [1, 'uint64', 'optional'],
    min_amount_out: [2, 'uint64', 'optional'],
  },
  MultiHopCurveSwap: {
    amount_in: [1, 'uint64', 'optional'],
    hop_fees: [2, 'bytes', 'optional'],
  },
  SweepProtocolFee: {},
  SweepCreatorFee: {},
  AmmSweepProtocolFee: {},
  AmmSweepCreatorFee: {},
  PostCompleteBuyEvent: {
    user: [1, 'bytes', 'optional'],
    mint: [2, 'bytes', 'optional'],
    bonding_curve: [3, 'bytes', 'optional'],
    quote_mint: [4, 'bytes', 'optional'],
    timestamp: [5, 'int64', 'optional'],
    base_out: [6, 'uint64', 'optional'],
    quote_in: [7, 'uint64', 'optional'],
    fee_basis_points: [8, 'uint64', 'optional'],
    fee: [9, 'uint64', 'optional'],
    creator_fee_basis_points: [10, 'uint64', 'optional'],
    creator_fee: [11, 'uint64', 'optional'],
    buyback_fee: [12, 'uint64', 'optional'],
    pool_base_reserves_before: [13, 'uint64', 'optional'],
    pool_quote_reserves_before: [14, 'uint64', 'optional'],
    pool_base_reserves_after: [15, 'uint64', 'optional'],
    pool_quote_reserves_after: [16, 'uint64', 'optional'],
  },
  SweepBondingCurveFeeEvent: {
    timestamp: [1, 'int64', 'optional'],
    mint: [2, 'bytes', 'optional'],
    bonding_curve: [3, 'bytes', 'optional'],
    quote_mint: [4, 'bytes', 'optional'],
    recipient: [5, 'bytes', 'optional'],
    amount: [6, 'uint64', 'optional'],
    bucket: [7, 'uint32', 'optional'],
  },
  AmmSweepPoolFeeEvent: {
    timestamp: [1, 'int64', 'optional'],
    pool: [2, 'bytes', 'optional'],
    base_mint: [3, 'bytes', 'optional'],
    quote_mint: [4, 'bytes', 'optional'],
    recipient: [5, 'bytes', 'optional'],
    payer: [6, 'bytes', 'optional'],
    amount: [7, 'uint64', 'optional'],
    bucket: [8, 'uint32', 'optional'],
  },
};
for (const [message, fields] of Object.entries(ISSUE_34)) CONTRACT[message] = { ...CONTRACT[message], ...fields };

function describeField(f: protobuf.Field): Field {
  const type = f.type.replace(/^(\.?stream\.)/, '');
  if (f instanceof protobuf.MapField) return [f.id, type, `map<${f.keyType},${type}>`];
  const mods: string[] = [];
  if (f.repeated) mods.push('repeated');
  const oneof = f.partOf;
  if (oneof) mods.push(f.options?.proto3_optional ? 'optional' : `oneof:${oneof.name}`);
  return [f.id, type, ...mods];
}

describe('proto/stream.proto against the interface contract', () => {
  it('declares package stream with exactly the contract messages', () => {
    const messages = ns.nestedArray
      .filter((n) => n instanceof protobuf.Type)
      .map((n) => n.name)
      .sort();
    expect(messages).toEqual(Object.keys(CONTRACT).sort());
  });

  for (const [message, fields] of Object.entries(CONTRACT)) {
    it(`${message} has every field with its number, type and modifiers`, () => {
      const type = ns.lookupType(message);
      const actual = Object.fromEntries(type.fieldsArray.map((f) => [f.name, describeField(f)]));
      expect(actual).toEqual(fields);
    });
  }

  it('CommitmentLevel is PROCESSED = 0, CONFIRMED = 1, FINALIZED = 2', () => {
    expect(ns.lookupEnum('CommitmentLevel').values).toEqual({ PROCESSED: 0, CONFIRMED: 1, FINALIZED: 2 });
  });

  it("service Stream has the seed's four calls and issue 23's cursor calls, with their kinds and types", () => {
    const svc = ns.lookupService('Stream');
    const calls = Object.fromEntries(
      svc.methodsArray.map((m) => [m.name, [Boolean(m.requestStream), Boolean(m.responseStream), m.requestType, m.responseType]]),
    );
    expect(calls).toEqual({
      Subscribe: [true, true, 'SubscribeRequest', 'SubscribeUpdate'],
      SubscribeParsed: [true, true, 'SubscribeParsedRequest', 'SubscribeUpdateParsedTransaction'],
      Ping: [false, false, 'PingRequest', 'PongResponse'],
      GetVersion: [false, false, 'GetVersionRequest', 'GetVersionResponse'],
      ListCursors: [false, false, 'ListCursorsRequest', 'ListCursorsResponse'],
      DeleteCursor: [false, false, 'DeleteCursorRequest', 'DeleteCursorResponse'],
    });
  });
});
