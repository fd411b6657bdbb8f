// Checks proto/stream.proto against the interface contract, field by field: every message, field
// name, number, type, label, oneof, optional and map of interface.md, plus behaviour.md's extensions.
// The table below is transcribed from the spec, not derived from the .proto.
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
  SubscribeParsedRequest: { ping: [1, 'SubscribeRequestPing', 'optional'] },
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
  },
  Instruction: {
    initialize: [1, 'Initialize', 'oneof:instruction_oneof'],
    set_params: [2, 'SetParams', 'oneof:instruction_oneof'],
    create: [3, 'Create', 'oneof:instruction_oneof'],
    buy: [4, 'Buy', 'oneof:instruction_oneof'],
    sell: [5, 'Sell', 'oneof:instruction_oneof'],
    withdraw: [6, 'Withdraw', 'oneof:instruction_oneof'],
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
  PongResponse: { count: [1, 'int32'] },
  GetVersionResponse: { version: [1, 'string'] },
  GetSlotResponse: { slot: [1, 'uint64'] },
};

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

  it('service Stream has the four calls with their kinds and types', () => {
    const svc = ns.lookupService('Stream');
    const calls = Object.fromEntries(
      svc.methodsArray.map((m) => [m.name, [Boolean(m.requestStream), Boolean(m.responseStream), m.requestType, m.responseType]]),
    );
    expect(calls).toEqual({
      Subscribe: [true, true, 'SubscribeRequest', 'SubscribeUpdate'],
      SubscribeParsed: [true, true, 'SubscribeParsedRequest', 'SubscribeUpdateParsedTransaction'],
      Ping: [false, false, 'PingRequest', 'PongResponse'],
      GetVersion: [false, false, 'GetVersionRequest', 'GetVersionResponse'],
    });
  });
});
