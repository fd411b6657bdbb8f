// PumpSwap, pump.fun's AMM (IDL name `pump_amm`): every instruction and every event of its IDL, in the project's
// own compact form (program-table.ts says how to read it). Derived from the official IDL at
// pump-fun/pump-public-docs 1b822158 (`idl/pump_amm.json`), which test/realdata checks this table against, plus
// the event fields later layouts appended (BuyEvent's last six, from pump-public-docs 8cda1fa3).
import { defineProgram } from './program-table.js';

/** Accounts of buy, buy_exact_quote_in. */
const BUY_ACCOUNTS =
  'pool user global_config base_mint quote_mint user_base_token_account user_quote_token_account pool_base_token_account pool_quote_token_account protocol_fee_recipient protocol_fee_recipient_token_account base_token_program quote_token_program system_program associated_token_program event_authority program coin_creator_vault_ata coin_creator_vault_authority global_volume_accumulator user_volume_accumulator fee_config fee_program';
/** Accounts of deposit, withdraw. */
const LIQUIDITY_ACCOUNTS =
  'pool global_config user base_mint quote_mint lp_mint user_base_token_account user_quote_token_account user_pool_token_account pool_base_token_account pool_quote_token_account token_program token_2022_program event_authority program';
/** Accounts of the admin settings (disable, toggle_*, update_fee_config, …). */
const ADMIN_ACCOUNTS = 'admin global_config event_authority program';

export const PUMP_AMM = defineProgram({
  name: 'pump_amm',
  programId: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA',
  eventAuthority: 'GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR',
  types: {
    // A one-field tuple struct: decodes to [bool].
    OptionBool: 'bool',
  },
  // [name, discriminator, args, accounts, newer args]
  instructions: [
    [
      'admin_set_coin_creator',
      'f228759149606968',
      'coin_creator:pubkey',
      'admin_set_coin_creator_authority global_config pool event_authority program',
    ],
    [
      'admin_update_token_incentives',
      'd10b7357d5177ccc',
      'start_time:i64 end_time:i64 seconds_in_a_day:i64 day_number:u64 token_supply_per_day:u64',
      'admin global_config global_volume_accumulator mint global_incentive_token_account associated_token_program system_program token_program event_authority program',
    ],
    ['buy', '66063d1201daebea', 'base_amount_out:u64 max_quote_amount_in:u64 track_volume:OptionBool', BUY_ACCOUNTS],
    ['buy_exact_quote_in', 'c62e1552b4d9e870', 'spendable_quote_in:u64 min_base_amount_out:u64 track_volume:OptionBool', BUY_ACCOUNTS],
    [
      'claim_cashback',
      '253a237ebe35e4c5',
      '',
      'user user_volume_accumulator quote_mint quote_token_program user_volume_accumulator_wsol_token_account user_wsol_token_account system_program event_authority program',
    ],
    [
      'claim_token_incentives',
      '1004471ccc01281b',
      '',
      'user user_ata global_volume_accumulator global_incentive_token_account user_volume_accumulator mint token_program system_program associated_token_program event_authority program payer',
    ],
    ['close_user_volume_accumulator', 'f945a4da9667548a', '', 'user user_volume_accumulator event_authority program'],
    [
      'collect_coin_creator_fee',
      'a039592ab58b2b42',
      '',
      'quote_mint quote_token_program coin_creator coin_creator_vault_authority coin_creator_vault_ata coin_creator_token_account event_authority program',
    ],
    [
      'create_config',
      'c9cff3724b6f2fbd',
      'lp_fee_basis_points:u64 protocol_fee_basis_points:u64 protocol_fee_recipients:[pubkey;8] coin_creator_fee_basis_points:u64 admin_set_coin_creator_authority:pubkey',
      'admin global_config system_program event_authority program',
    ],
    [
      'create_pool',
      'e992d18ecf6840bc',
      'index:u16 base_amount_in:u64 quote_amount_in:u64 coin_creator:pubkey is_mayhem_mode:bool is_cashback_coin:OptionBool',
      'pool global_config creator base_mint quote_mint lp_mint user_base_token_account user_quote_token_account user_pool_token_account pool_base_token_account pool_quote_token_account system_program token_2022_program base_token_program quote_token_program associated_token_program event_authority program',
    ],
    ['deposit', 'f223c68952e1f2b6', 'lp_token_amount_out:u64 max_base_amount_in:u64 max_quote_amount_in:u64', LIQUIDITY_ACCOUNTS],
    [
      'disable',
      'b9adbb5ad80feee9',
      'disable_create_pool:bool disable_deposit:bool disable_withdraw:bool disable_buy:bool disable_sell:bool',
      ADMIN_ACCOUNTS,
    ],
    ['extend_account', 'ea66c2cb96483ee5', '', 'account user system_program event_authority program'],
    ['init_user_volume_accumulator', '5e06ca73ff60e8b7', '', 'payer user user_volume_accumulator system_program event_authority program'],
    ['migrate_pool_coin_creator', 'd0089f044aaf103a', '', 'pool sharing_config event_authority program'],
    [
      'sell',
      '33e685a4017f83ad',
      'base_amount_in:u64 min_quote_amount_out:u64',
      'pool user global_config base_mint quote_mint user_base_token_account user_quote_token_account pool_base_token_account pool_quote_token_account protocol_fee_recipient protocol_fee_recipient_token_account base_token_program quote_token_program system_program associated_token_program event_authority program coin_creator_vault_ata coin_creator_vault_authority fee_config fee_program',
    ],
    ['set_coin_creator', 'd295802dbc3a4eaf', '', 'pool metadata bonding_curve event_authority program'],
    ['set_reserved_fee_recipients', '6faca2e87259d58e', 'whitelist_pda:pubkey', 'global_config admin event_authority program'],
    [
      'sync_user_volume_accumulator',
      '561fc057a3574fee',
      '',
      'user global_volume_accumulator user_volume_accumulator event_authority program',
    ],
    ['toggle_cashback_enabled', '7367e0ffbd5956c3', 'enabled:bool', ADMIN_ACCOUNTS],
    ['toggle_mayhem_mode', '01096fd0641fffa3', 'enabled:bool', ADMIN_ACCOUNTS],
    [
      'transfer_creator_fees_to_pump',
      '8b348655e4e56cf1',
      '',
      'wsol_mint token_program system_program associated_token_program coin_creator coin_creator_vault_authority coin_creator_vault_ata pump_creator_vault event_authority program',
    ],
    [
      'transfer_creator_fees_to_pump_v2',
      '01214eb921432c5c',
      '',
      'payer quote_mint token_program system_program associated_token_program coin_creator coin_creator_vault_authority coin_creator_vault_ata pump_creator_vault pump_creator_vault_ata event_authority program',
    ],
    ['update_admin', 'a1b028d53cb8b3e4', '', 'admin global_config new_admin event_authority program'],
    ['update_buyback_config', 'fbe0ab92a01a71e9', 'buyback_basis_points:option<u64>', ADMIN_ACCOUNTS],
    [
      'update_fee_config',
      '68b867f258976b14',
      'lp_fee_basis_points:u64 protocol_fee_basis_points:u64 protocol_fee_recipients:[pubkey;8] coin_creator_fee_basis_points:u64 admin_set_coin_creator_authority:pubkey',
      ADMIN_ACCOUNTS,
    ],
    ['withdraw', 'b712469c946da122', 'lp_token_amount_in:u64 min_base_amount_out:u64 min_quote_amount_out:u64', LIQUIDITY_ACCOUNTS],
  ],
  // [name, discriminator, fields, newer fields (appended after the pinned IDL's; see the data README)]
  events: [
    [
      'AdminSetCoinCreatorEvent',
      '2ddc5d181961ac68',
      'timestamp:i64 admin_set_coin_creator_authority:pubkey base_mint:pubkey pool:pubkey old_coin_creator:pubkey new_coin_creator:pubkey',
    ],
    [
      'AdminUpdateTokenIncentivesEvent',
      '93fa6c78f71d43de',
      'start_time:i64 end_time:i64 day_number:u64 token_supply_per_day:u64 mint:pubkey seconds_in_a_day:i64 timestamp:i64',
    ],
    [
      'BuyEvent',
      '67f4521f2cf57777',
      'timestamp:i64 base_amount_out:u64 max_quote_amount_in:u64 user_base_token_reserves:u64 user_quote_token_reserves:u64 pool_base_token_reserves:u64 pool_quote_token_reserves:u64 quote_amount_in:u64 lp_fee_basis_points:u64 lp_fee:u64 protocol_fee_basis_points:u64 protocol_fee:u64 quote_amount_in_with_lp_fee:u64 user_quote_amount_in:u64 pool:pubkey user:pubkey user_base_token_account:pubkey user_quote_token_account:pubkey protocol_fee_recipient:pubkey protocol_fee_recipient_token_account:pubkey coin_creator:pubkey coin_creator_fee_basis_points:u64 coin_creator_fee:u64 track_volume:bool total_unclaimed_tokens:u64 total_claimed_tokens:u64 current_sol_volume:u64 last_update_timestamp:i64 min_base_amount_out:u64 ix_name:string cashback_fee_basis_points:u64 cashback:u64 buyback_fee_basis_points:u64 buyback_fee:u64',
      'virtual_quote_reserves:i128 can_boost:bool base_supply:u64 holder_rewards_bps:u64 holder_rewards:u64 creator_fee_unclaimed:u64',
    ],
    ['ClaimCashbackEvent', 'e2d6f62107f293e5', 'user:pubkey amount:u64 timestamp:i64 total_claimed:u64 total_cashback_earned:u64'],
    [
      'ClaimTokenIncentivesEvent',
      '4facf631cd5bcee8',
      'user:pubkey mint:pubkey amount:u64 timestamp:i64 total_claimed_tokens:u64 current_sol_volume:u64',
    ],
    [
      'CloseUserVolumeAccumulatorEvent',
      '929fbdac925838f4',
      'user:pubkey timestamp:i64 total_unclaimed_tokens:u64 total_claimed_tokens:u64 current_sol_volume:u64 last_update_timestamp:i64',
    ],
    [
      'CollectCoinCreatorFeeEvent',
      'e8f5c2eeeada3a59',
      'timestamp:i64 coin_creator:pubkey coin_creator_fee:u64 coin_creator_vault_ata:pubkey coin_creator_token_account:pubkey',
    ],
    [
      'CreateConfigEvent',
      '6b34598137e25116',
      'timestamp:i64 admin:pubkey lp_fee_basis_points:u64 protocol_fee_basis_points:u64 protocol_fee_recipients:[pubkey;8] coin_creator_fee_basis_points:u64 admin_set_coin_creator_authority:pubkey',
    ],
    [
      'CreatePoolEvent',
      'b1310cd2a076a774',
      'timestamp:i64 index:u16 creator:pubkey base_mint:pubkey quote_mint:pubkey base_mint_decimals:u8 quote_mint_decimals:u8 base_amount_in:u64 quote_amount_in:u64 pool_base_amount:u64 pool_quote_amount:u64 minimum_liquidity:u64 initial_liquidity:u64 lp_token_amount_out:u64 pool_bump:u8 pool:pubkey lp_mint:pubkey user_base_token_account:pubkey user_quote_token_account:pubkey coin_creator:pubkey is_mayhem_mode:bool',
    ],
    [
      'DepositEvent',
      '78f83d531f8e6b90',
      'timestamp:i64 lp_token_amount_out:u64 max_base_amount_in:u64 max_quote_amount_in:u64 user_base_token_reserves:u64 user_quote_token_reserves:u64 pool_base_token_reserves:u64 pool_quote_token_reserves:u64 base_amount_in:u64 quote_amount_in:u64 lp_mint_supply:u64 pool:pubkey user:pubkey user_base_token_account:pubkey user_quote_token_account:pubkey user_pool_token_account:pubkey',
    ],
    [
      'DisableEvent',
      '6bfdc14ce4ca1b68',
      'timestamp:i64 admin:pubkey disable_create_pool:bool disable_deposit:bool disable_withdraw:bool disable_buy:bool disable_sell:bool',
    ],
    ['ExtendAccountEvent', '6161d7905d92167c', 'timestamp:i64 account:pubkey user:pubkey current_size:u64 new_size:u64'],
    ['InitUserVolumeAccumulatorEvent', '86240d48e86582d8', 'payer:pubkey user:pubkey timestamp:i64'],
    [
      'MigratePoolCoinCreatorEvent',
      'aadd52c793a5f72e',
      'timestamp:i64 base_mint:pubkey pool:pubkey sharing_config:pubkey old_coin_creator:pubkey new_coin_creator:pubkey',
    ],
    ['ReservedFeeRecipientsEvent', '2bbcfa12dd4bbb5f', 'timestamp:i64 reserved_fee_recipient:pubkey reserved_fee_recipients:[pubkey;7]'],
    [
      'SellEvent',
      '3e2f370aa503dc2a',
      'timestamp:i64 base_amount_in:u64 min_quote_amount_out:u64 user_base_token_reserves:u64 user_quote_token_reserves:u64 pool_base_token_reserves:u64 pool_quote_token_reserves:u64 quote_amount_out:u64 lp_fee_basis_points:u64 lp_fee:u64 protocol_fee_basis_points:u64 protocol_fee:u64 quote_amount_out_without_lp_fee:u64 user_quote_amount_out:u64 pool:pubkey user:pubkey user_base_token_account:pubkey user_quote_token_account:pubkey protocol_fee_recipient:pubkey protocol_fee_recipient_token_account:pubkey coin_creator:pubkey coin_creator_fee_basis_points:u64 coin_creator_fee:u64 cashback_fee_basis_points:u64 cashback:u64 buyback_fee_basis_points:u64 buyback_fee:u64',
    ],
    [
      'SetBondingCurveCoinCreatorEvent',
      'f2e7eb664163bdd3',
      'timestamp:i64 base_mint:pubkey pool:pubkey bonding_curve:pubkey coin_creator:pubkey',
    ],
    ['SetMetaplexCoinCreatorEvent', '966bc77b7ccf66e4', 'timestamp:i64 base_mint:pubkey pool:pubkey metadata:pubkey coin_creator:pubkey'],
    [
      'SyncUserVolumeAccumulatorEvent',
      'c57aa77c74515bff',
      'user:pubkey total_claimed_tokens_before:u64 total_claimed_tokens_after:u64 timestamp:i64',
    ],
    ['UpdateAdminEvent', 'e198ab57f63f42ea', 'timestamp:i64 admin:pubkey new_admin:pubkey'],
    [
      'UpdateFeeConfigEvent',
      '5a1741233ef4bcd0',
      'timestamp:i64 admin:pubkey lp_fee_basis_points:u64 protocol_fee_basis_points:u64 protocol_fee_recipients:[pubkey;8] coin_creator_fee_basis_points:u64 admin_set_coin_creator_authority:pubkey',
    ],
    [
      'WithdrawEvent',
      '1609851aa02c47c0',
      'timestamp:i64 lp_token_amount_in:u64 min_base_amount_out:u64 min_quote_amount_out:u64 user_base_token_reserves:u64 user_quote_token_reserves:u64 pool_base_token_reserves:u64 pool_quote_token_reserves:u64 base_amount_out:u64 quote_amount_out:u64 lp_mint_supply:u64 pool:pubkey user:pubkey user_base_token_account:pubkey user_quote_token_account:pubkey user_pool_token_account:pubkey',
    ],
  ],
});
