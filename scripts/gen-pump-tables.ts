// Generates the bundled pump.fun / PumpSwap / Pump Fees decoder tables (schemas/pumpfun/tables/*.json, the
// project's compact form: names, discriminators, account lists, arg/field layouts) from the published Anchor
// IDLs. The IDL files themselves are never copied into the repository (their data README says so): only this
// compact form is committed, so a clone decodes without ../shared.
//
//   npx tsx scripts/gen-pump-tables.ts [--data DIR] [--check]
//
// DIR defaults to ../shared/data/mainnet/pump (beside the repository). Each program's IDLs are merged oldest
// first (anchor-idl.ts: the newest layout of each entry, which must extend the older ones; dropped entries kept
// as retired). --check writes nothing and exits 1 when a committed table differs from what the IDLs give.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { findProgramAddress } from '../ingest/sources/sim/pda.js';
import { specFromIdls, type AnchorIdl } from '../schemas/pumpfun/anchor-idl.js';
import { TABLE_FORMAT, type CompactTable } from '../schemas/pumpfun/table-source.js';
import type { PumpProgramName } from '../schemas/pumpfun/program-table.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TABLES_DIR = path.join(REPO, 'schemas/pumpfun/tables');

/** Each program's IDL files, oldest first, with the published commit each is a copy of (data README). */
export const PUMP_IDL_GENERATIONS: Readonly<Record<PumpProgramName, readonly (readonly [file: string, source: string])[]>> = {
  pump: [
    ['idl-pump.json', 'pump-fun/pump-public-docs idl/pump.json @1b822158 (2026-05-19)'],
    ['idl-pump-2026-10.json', 'pump-fun/pump-public-docs idl/pump.json @2293f9a (October 2026)'],
  ],
  pump_amm: [
    ['idl-pump-amm.json', 'pump-fun/pump-public-docs idl/pump_amm.json @1b822158 (2026-05-19)'],
    ['idl-pump-amm-2026-10.json', 'pump-fun/pump-public-docs idl/pump_amm.json @8cda1fa (October 2026)'],
  ],
  pump_fees: [['idl-pump-fees-2026-10.json', 'pump-fun/pump-public-docs idl/pump_fees.json @8cda1fa (October 2026)']],
};

/** The compact table of one program from the IDL files in `dir`. */
export function generateTable(dir: string, program: PumpProgramName): CompactTable {
  const gens = PUMP_IDL_GENERATIONS[program];
  const idls = gens.map(([file]) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as AnchorIdl);
  const programId = idls[idls.length - 1]!.address;
  const eventAuthority = bs58.encode(findProgramAddress([Buffer.from('__event_authority')], bs58.decode(programId)).address);
  const spec = specFromIdls(idls, { eventAuthority });
  return { format: TABLE_FORMAT, sources: gens.map(([, s]) => s), ...spec };
}

/** The text written for a table: stable (sorted entries), one entry per line, prettier-compatible. */
export function tableText(t: CompactTable): string {
  const rows = (rs: readonly (readonly (string | undefined)[])[]) => rs.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  const list = (xs: readonly string[]) => (xs.length === 0 ? '[]' : JSON.stringify(xs));
  const types = Object.entries(t.types)
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n');
  return `{
  "format": ${JSON.stringify(t.format)},
  "sources": ${JSON.stringify(t.sources)},
  "name": ${JSON.stringify(t.name)},
  "programId": ${JSON.stringify(t.programId)},
  "eventAuthority": ${JSON.stringify(t.eventAuthority)},
  "types": {
${types}
  },
  "instructions": [
${rows(t.instructions)}
  ],
  "events": [
${rows(t.events)}
  ],
  "retired": { "instructions": ${list(t.retired?.instructions ?? [])}, "events": ${list(t.retired?.events ?? [])} }
}
`;
}

function main(argv: readonly string[]): number {
  let dir = path.resolve(REPO, '../shared/data/mainnet/pump');
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data' && argv[i + 1] !== undefined) dir = path.resolve(argv[++i]!);
    else if (a === '--check') check = true;
    else {
      console.error(`gen-pump-tables: unknown option ${JSON.stringify(a)} (takes --data DIR, --check)`);
      return 2;
    }
  }
  if (!existsSync(dir)) {
    console.error(`gen-pump-tables: IDL folder ${dir} not found (pass --data DIR)`);
    return 2;
  }
  let stale = 0;
  for (const program of Object.keys(PUMP_IDL_GENERATIONS) as PumpProgramName[]) {
    const text = tableText(generateTable(dir, program));
    const file = path.join(TABLES_DIR, `${program}.json`);
    const same = existsSync(file) && readFileSync(file, 'utf8') === text;
    if (check) {
      if (!same) {
        console.error(`${path.relative(REPO, file)} differs from what the IDLs give`);
        stale++;
      }
    } else if (!same) {
      writeFileSync(file, text);
      console.log(`wrote ${path.relative(REPO, file)}`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exit(main(process.argv.slice(2)));
