// The decoder tables' files (platform/pump-tables.ts; '' for the bundled ones): the roles that decode pump.fun
// (the ingest builds SubscribeParsed's updates; the api checks the request's kinds).
import { defineSection, opt, type Role, type ValuesOf } from './options.js';
import type { PumpTableFiles } from './pump-tables.js';

const DECODE: readonly Role[] = ['ingest', 'api', 'all'];

export const PUMP_TABLE_OPTIONS = {
  pumpIdl: opt({
    kind: 'string',
    env: 'PUMP_IDL',
    default: '',
    roles: DECODE,
    help: "pump.fun's decoder table: an Anchor IDL file (pump-public-docs idl/pump.json) or a compact table (scripts/gen-pump-tables.ts); empty: the bundled one (October 2026). Reloaded on SIGHUP and when the file changes, without a restart.",
  }),
  pumpAmmIdl: opt({
    kind: 'string',
    env: 'PUMP_AMM_IDL',
    default: '',
    roles: DECODE,
    help: "PumpSwap's decoder table (idl/pump_amm.json or a compact table), as --pump-idl.",
  }),
  pumpFeesIdl: opt({
    kind: 'string',
    env: 'PUMP_FEES_IDL',
    default: '',
    roles: DECODE,
    help: "Pump Fees' decoder table (idl/pump_fees.json or a compact table), as --pump-idl.",
  }),
};

export const PUMP_TABLES_SECTION = defineSection(PUMP_TABLE_OPTIONS, (c: ValuesOf<typeof PUMP_TABLE_OPTIONS>): PumpTableFiles => ({
  pump: c.pumpIdl,
  pump_amm: c.pumpAmmIdl,
  pump_fees: c.pumpFeesIdl,
}));
