// pump.fun's bonding-curve program (IDL name `pump`): every instruction and every event of its IDL, in the
// project's own compact form (program-table.ts says how to read it). Derived from the official IDL at
// pump-fun/pump-public-docs 1b822158 (`idl/pump.json`), which test/realdata checks this table against, plus the
// event fields later layouts appended (TradeEvent's holder_rewards_bps, holder_rewards, creator_fee_unclaimed,
// from pump-public-docs 8cda1fa3, seen on mainnet in Oct 2026).
import { defineProgram } from './program-table.js';

/** Accounts of the admin settings (add_quote_mint, set_params, toggle_*, …). */
const ADMIN_ACCOUNTS = 'global authority event_authority program';
/** Accounts of buy, buy_exact_sol_in. */
const BUY_ACCOUNTS =
  'global fee_recipient mint bonding_curve associated_bonding_curve associated_user user system_program token_program creator_vault event_authority program global_volume_accumulator user_volume_accumulator fee_config fee_program';
/** Accounts of buy_exact_quote_in_v2, buy_v2. */
const BUY_V2_ACCOUNTS =
  'global base_mint quote_mint base_token_program quote_token_program associated_token_program fee_recipient associated_quote_fee_recipient buyback_fee_recipient associated_quote_buyback_fee_recipient bonding_curve associated_base_bonding_curve associated_quote_bonding_curve user associated_base_user associated_quote_user creator_vault associated_creator_vault sharing_config global_volume_accumulator user_volume_accumulator associated_user_volume_accumulator fee_config fee_program system_program event_authority program';

export const PUMP = defineProgram({
  name: 'pump',
  programId: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P',
  eventAuthority: 'Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1',
  types: {
    // A one-field tuple struct: decodes to [bool].
    OptionBool: 'bool',
    Shareholder: 'address:pubkey share_bps:u16',
  },
  // [name, discriminator, args, accounts, newer args]
  instructions: [
    ['add_quote_mint', '6f79153828185ed1', 'quote_mint:pubkey', ADMIN_ACCOUNTS],
    [
      'admin_set_creator',
      '4519ab8e39ef0d04',
      'creator:pubkey',
      'admin_set_creator_authority global mint bonding_curve event_authority program',
    ],
    [
      'admin_set_idl_authority',
      '08d960e79068c005',
      'idl_authority:pubkey',
      'authority global idl_account system_program program_signer event_authority program',
    ],
    [
      'admin_update_token_incentives',
      'd10b7357d5177ccc',
      'start_time:i64 end_time:i64 seconds_in_a_day:i64 day_number:u64 pump_token_supply_per_day:u64',
      'authority global global_volume_accumulator mint global_incentive_token_account associated_token_program system_program token_program event_authority program',
    ],
    ['buy', '66063d1201daebea', 'amount:u64 max_sol_cost:u64 track_volume:OptionBool', BUY_ACCOUNTS],
    ['buy_exact_quote_in_v2', 'c2ab1c46684d5b2f', 'spendable_quote_in:u64 min_tokens_out:u64', BUY_V2_ACCOUNTS],
    ['buy_exact_sol_in', '38fc74089edfcd5f', 'spendable_sol_in:u64 min_tokens_out:u64 track_volume:OptionBool', BUY_ACCOUNTS],
    ['buy_v2', 'b817ee6167c5d33d', 'amount:u64 max_sol_cost:u64', BUY_V2_ACCOUNTS],
    ['claim_cashback', '253a237ebe35e4c5', '', 'user user_volume_accumulator system_program event_authority program'],
    [
      'claim_cashback_v2',
      '7af3cc415e741d37',
      '',
      'user user_volume_accumulator quote_mint quote_token_program associated_token_program associated_user_volume_accumulator associated_quote_user system_program event_authority program',
    ],
    [
      'claim_token_incentives',
      '1004471ccc01281b',
      '',
      'user user_ata global_volume_accumulator global_incentive_token_account user_volume_accumulator mint token_program system_program associated_token_program event_authority program payer',
    ],
    ['close_user_volume_accumulator', 'f945a4da9667548a', '', 'user user_volume_accumulator event_authority program'],
    ['collect_creator_fee', '1416567bc61cdb84', '', 'creator creator_vault system_program event_authority program'],
    [
      'collect_creator_fee_v2',
      'cf118af204221338',
      '',
      'creator creator_token_account creator_vault creator_vault_token_account quote_mint quote_token_program associated_token_program system_program event_authority program',
    ],
    [
      'create',
      '181ec828051c0777',
      'name:string symbol:string uri:string creator:pubkey',
      'mint mint_authority bonding_curve associated_bonding_curve global mpl_token_metadata metadata user system_program token_program associated_token_program rent event_authority program',
    ],
    [
      'create_v2',
      'd6904cec5f8b31b4',
      'name:string symbol:string uri:string creator:pubkey is_mayhem_mode:bool is_cashback_enabled:OptionBool',
      'mint mint_authority bonding_curve associated_bonding_curve global user system_program token_program associated_token_program mayhem_program_id global_params sol_vault mayhem_state mayhem_token_vault event_authority program',
    ],
    [
      'distribute_creator_fees',
      'a572670079cef751',
      '',
      'mint bonding_curve sharing_config creator_vault system_program event_authority program',
    ],
    [
      'distribute_creator_fees_v2',
      'ffcb134ff444089f',
      'initialize_ata:bool',
      'payer mint bonding_curve sharing_config creator_vault system_program event_authority program creator_vault_quote_token_account quote_mint quote_token_program associated_token_program',
    ],
    ['extend_account', 'ea66c2cb96483ee5', '', 'account user system_program event_authority program'],
    ['get_minimum_distributable_fee', '75e17fca865f4423', '', 'mint bonding_curve sharing_config creator_vault'],
    ['init_user_volume_accumulator', '5e06ca73ff60e8b7', '', 'payer user user_volume_accumulator system_program event_authority program'],
    ['initialize', 'afaf6d1f0d989bed', '', 'global user system_program'],
    [
      'migrate',
      '9beae792ec9ea21e',
      '',
      'global withdraw_authority mint bonding_curve associated_bonding_curve user system_program token_program pump_amm pool pool_authority pool_authority_mint_account pool_authority_wsol_account amm_global_config wsol_mint lp_mint user_pool_token_account pool_base_token_account pool_quote_token_account token_2022_program associated_token_program pump_amm_event_authority event_authority program rent',
    ],
    ['migrate_bonding_curve_creator', '577c34bf3426d6e8', '', 'mint bonding_curve sharing_config event_authority program'],
    [
      'migrate_v2',
      'bbcb121fceedfe29',
      '',
      'global withdraw_authority base_mint quote_mint bonding_curve associated_base_bonding_curve associated_quote_bonding_curve user system_program pump_amm pool pool_authority pool_authority_mint_account pool_authority_quote_account amm_global_config lp_mint user_pool_token_account pool_base_token_account pool_quote_token_account base_token_program quote_token_program token_2022_program associated_token_program pump_amm_event_authority rent event_authority program',
    ],
    ['remove_quote_mint', 'b141df2658d19e9b', 'quote_mint:pubkey', ADMIN_ACCOUNTS],
    [
      'sell',
      '33e685a4017f83ad',
      'amount:u64 min_sol_output:u64',
      'global fee_recipient mint bonding_curve associated_bonding_curve associated_user user system_program creator_vault token_program event_authority program fee_config fee_program',
    ],
    [
      'sell_v2',
      '5df6823ce7e940b2',
      'amount:u64 min_sol_output:u64',
      'global base_mint quote_mint base_token_program quote_token_program associated_token_program fee_recipient associated_quote_fee_recipient buyback_fee_recipient associated_quote_buyback_fee_recipient bonding_curve associated_base_bonding_curve associated_quote_bonding_curve user associated_base_user associated_quote_user creator_vault associated_creator_vault sharing_config user_volume_accumulator associated_user_volume_accumulator fee_config fee_program system_program event_authority program',
    ],
    [
      'set_creator',
      'fe94ff70cf8eaaa5',
      'creator:pubkey',
      'set_creator_authority global mint metadata bonding_curve event_authority program',
    ],
    [
      'set_mayhem_virtual_params',
      '3da9bcbf99952a61',
      '',
      'sol_vault_authority mayhem_token_vault mint global bonding_curve token_program event_authority program',
    ],
    ['set_metaplex_creator', '8a60aed93055c5f6', '', 'mint metadata bonding_curve event_authority program'],
    [
      'set_params',
      '1beab2349302bb8d',
      'initial_virtual_token_reserves:u64 initial_virtual_sol_reserves:u64 initial_real_token_reserves:u64 token_total_supply:u64 fee_basis_points:u64 withdraw_authority:pubkey enable_migrate:bool pool_migration_fee:u64 creator_fee_basis_points:u64 set_creator_authority:pubkey admin_set_creator_authority:pubkey',
      ADMIN_ACCOUNTS,
    ],
    ['set_reserved_fee_recipients', '6faca2e87259d58e', 'whitelist_pda:pubkey', ADMIN_ACCOUNTS],
    ['set_virtual_quote_reserves', '6587bf6809581460', 'initial_virtual_quote_reserves:u64', ADMIN_ACCOUNTS],
    [
      'sync_user_volume_accumulator',
      '561fc057a3574fee',
      '',
      'user global_volume_accumulator user_volume_accumulator event_authority program',
    ],
    ['toggle_cashback_enabled', '7367e0ffbd5956c3', 'enabled:bool', ADMIN_ACCOUNTS],
    ['toggle_create_v2', '1cffe6f0ac6bcbab', 'enabled:bool', ADMIN_ACCOUNTS],
    ['toggle_mayhem_mode', '01096fd0641fffa3', 'enabled:bool', ADMIN_ACCOUNTS],
    ['update_buyback_config', 'fbe0ab92a01a71e9', 'buyback_basis_points:option<u64>', ADMIN_ACCOUNTS],
    ['update_global_authority', 'e3b54ac4d01561d5', '', 'global authority new_authority event_authority program'],
  ],
  // [name, discriminator, fields, newer fields (appended after the pinned IDL's; see the data README)]
  events: [
    [
      'AdminSetCreatorEvent',
      '4045c0681d1e196b',
      'timestamp:i64 admin_set_creator_authority:pubkey mint:pubkey bonding_curve:pubkey old_creator:pubkey new_creator:pubkey',
    ],
    ['AdminSetIdlAuthorityEvent', 'f53b46224bb96d5c', 'idl_authority:pubkey'],
    [
      'AdminUpdateTokenIncentivesEvent',
      '93fa6c78f71d43de',
      'start_time:i64 end_time:i64 day_number:u64 token_supply_per_day:u64 mint:pubkey seconds_in_a_day:i64 timestamp:i64',
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
    ['CollectCreatorFeeEvent', '7a027f010ebf0caf', 'timestamp:i64 creator:pubkey creator_fee:u64 quote_mint:pubkey'],
    ['CompleteEvent', '5f72619cd42e9808', 'user:pubkey mint:pubkey bonding_curve:pubkey timestamp:i64 quote_mint:pubkey'],
    [
      'CompletePumpAmmMigrationEvent',
      'bde95db95c94ea94',
      'user:pubkey mint:pubkey mint_amount:u64 sol_amount:u64 pool_migration_fee:u64 bonding_curve:pubkey timestamp:i64 pool:pubkey quote_mint:pubkey',
    ],
    [
      'CreateEvent',
      '1b72a94ddeeb6376',
      'name:string symbol:string uri:string mint:pubkey bonding_curve:pubkey user:pubkey creator:pubkey timestamp:i64 virtual_token_reserves:u64 virtual_sol_reserves:u64 real_token_reserves:u64 token_total_supply:u64 token_program:pubkey is_mayhem_mode:bool is_cashback_enabled:bool quote_mint:pubkey virtual_quote_reserves:u64',
    ],
    [
      'DistributeCreatorFeesEvent',
      'a537817004b3ca28',
      'timestamp:i64 mint:pubkey bonding_curve:pubkey sharing_config:pubkey admin:pubkey shareholders:vec<Shareholder> distributed:u64 quote_mint:pubkey',
    ],
    ['ExtendAccountEvent', '6161d7905d92167c', 'account:pubkey user:pubkey current_size:u64 new_size:u64 timestamp:i64'],
    ['InitUserVolumeAccumulatorEvent', '86240d48e86582d8', 'payer:pubkey user:pubkey timestamp:i64'],
    [
      'MigrateBondingCurveCreatorEvent',
      '9ba768dcd56cf303',
      'timestamp:i64 mint:pubkey bonding_curve:pubkey sharing_config:pubkey old_creator:pubkey new_creator:pubkey',
    ],
    ['MinimumDistributableFeeEvent', 'a8d884efebb63134', 'minimum_required:u64 distributable_fees:u64 can_distribute:bool'],
    ['ReservedFeeRecipientsEvent', '2bbcfa12dd4bbb5f', 'timestamp:i64 reserved_fee_recipient:pubkey reserved_fee_recipients:[pubkey;7]'],
    ['SetCreatorEvent', 'ed347b25f5fb48d2', 'timestamp:i64 mint:pubkey bonding_curve:pubkey creator:pubkey'],
    ['SetMetaplexCreatorEvent', '8ecb06207f69bfa2', 'timestamp:i64 mint:pubkey bonding_curve:pubkey metadata:pubkey creator:pubkey'],
    [
      'SetParamsEvent',
      'dfc39ff63e308f83',
      'initial_virtual_token_reserves:u64 initial_virtual_sol_reserves:u64 initial_real_token_reserves:u64 final_real_sol_reserves:u64 token_total_supply:u64 fee_basis_points:u64 withdraw_authority:pubkey enable_migrate:bool pool_migration_fee:u64 creator_fee_basis_points:u64 fee_recipients:[pubkey;8] timestamp:i64 set_creator_authority:pubkey admin_set_creator_authority:pubkey',
    ],
    [
      'SyncUserVolumeAccumulatorEvent',
      'c57aa77c74515bff',
      'user:pubkey total_claimed_tokens_before:u64 total_claimed_tokens_after:u64 timestamp:i64',
    ],
    [
      'TradeEvent',
      'bddb7fd34ee661ee',
      'mint:pubkey sol_amount:u64 token_amount:u64 is_buy:bool user:pubkey timestamp:i64 virtual_sol_reserves:u64 virtual_token_reserves:u64 real_sol_reserves:u64 real_token_reserves:u64 fee_recipient:pubkey fee_basis_points:u64 fee:u64 creator:pubkey creator_fee_basis_points:u64 creator_fee:u64 track_volume:bool total_unclaimed_tokens:u64 total_claimed_tokens:u64 current_sol_volume:u64 last_update_timestamp:i64 ix_name:string mayhem_mode:bool cashback_fee_basis_points:u64 cashback:u64 buyback_fee_basis_points:u64 buyback_fee:u64 shareholders:vec<Shareholder> quote_mint:pubkey quote_amount:u64 virtual_quote_reserves:u64 real_quote_reserves:u64',
      'holder_rewards_bps:u64 holder_rewards:u64 creator_fee_unclaimed:u64',
    ],
    ['UpdateGlobalAuthorityEvent', 'b6c3892a23cecff7', 'global:pubkey authority:pubkey new_authority:pubkey timestamp:i64'],
    [
      'UpdateMayhemVirtualParamsEvent',
      '757be4b6a1a8dcd6',
      'timestamp:i64 mint:pubkey virtual_token_reserves:u64 virtual_sol_reserves:u64 new_virtual_token_reserves:u64 new_virtual_sol_reserves:u64 real_token_reserves:u64 real_sol_reserves:u64',
    ],
  ],
});
