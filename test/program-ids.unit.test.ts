// Every program id the repository's sources and data name is a real one, or made up on purpose and listed
// below (issue 32, item 3: the file source's example, a test store and a unit test misspelt SPL Token's
// id, so a user asking getTokenAccountsByOwner with the real id found nothing). Three rules over
// the files git tracks:
// 1. near misses: a base58 string that decodes to 32 bytes, is not a known program id, and is within a few
//    edits of one is a misspelling (a made-up key is nowhere near a real id by chance: 4 edits of 43 characters);
// 2. program-id positions in text (`programId: '…'`, a constant or member named `…program…` = '…', `pk('…')`
//    beside it): the id is known or made up on purpose;
// 3. the file source's JSON lines (data): every account's owner and every program a transaction invokes
//    (decoded from its bytes, where a text search cannot see) is known or made up on purpose.
// Known ids come from the published packages where one publishes them (@solana-program/*, @solana/kit's
// sysvars, @solana/web3.js), else from the one place this repository writes them (schemas/programs.ts,
// checked against web3.js and the simulator by ingest/sources/sim/programs.unit.test.ts; the pump tables,
// checked against the official IDLs by test/realdata/program-ids.realdata.test.ts).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  AddressLookupTableProgram,
  BPF_LOADER_DEPRECATED_PROGRAM_ID,
  BPF_LOADER_PROGRAM_ID,
  Ed25519Program,
  SYSVAR_REWARDS_PUBKEY,
  Secp256k1Program,
  VoteProgram,
} from '@solana/web3.js';
import {
  SYSVAR_CLOCK_ADDRESS,
  SYSVAR_EPOCH_REWARDS_ADDRESS,
  SYSVAR_EPOCH_SCHEDULE_ADDRESS,
  SYSVAR_INSTRUCTIONS_ADDRESS,
  SYSVAR_LAST_RESTART_SLOT_ADDRESS,
  SYSVAR_RECENT_BLOCKHASHES_ADDRESS,
  SYSVAR_RENT_ADDRESS,
  SYSVAR_SLOT_HASHES_ADDRESS,
  SYSVAR_SLOT_HISTORY_ADDRESS,
  SYSVAR_STAKE_HISTORY_ADDRESS,
} from '@solana/sysvars';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { STAKE_PROGRAM_ADDRESS } from '@solana-program/stake';
import * as ids from '../schemas/programs.js';
import { MEMO_PROGRAM_V1 } from '../schemas/wire.js';
import { PUMP } from '../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../schemas/pumpfun/pump-amm-table.js';
import { repoFiles } from '../scripts/repo-files.js';
import { decodeBase58Exact } from '../schemas/decode-input.js';
import { PUMP_FEE_PROGRAM, PUMP_MAYHEM_PROGRAM } from '../ingest/sources/sim/programs.js';
import { parseLine } from '../ingest/sources/file/format.js';

// @solana-program/token 0.13 is installed for helius-sdk; its ES module imports a helper @solana/kit 8.4 no longer
// exports, so it is loaded through its CommonJS build (which only reads the helper when it is called).
const splToken = createRequire(import.meta.url)('@solana-program/token') as {
  TOKEN_PROGRAM_ADDRESS: string;
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS: string;
};
const { TOKEN_PROGRAM_ADDRESS, ASSOCIATED_TOKEN_PROGRAM_ADDRESS } = splToken;

/** Published by an installed package. */
const PUBLISHED: readonly string[] = [
  TOKEN_PROGRAM_ADDRESS,
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  SYSTEM_PROGRAM_ADDRESS,
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  STAKE_PROGRAM_ADDRESS,
  SYSVAR_CLOCK_ADDRESS,
  SYSVAR_EPOCH_REWARDS_ADDRESS,
  SYSVAR_EPOCH_SCHEDULE_ADDRESS,
  SYSVAR_INSTRUCTIONS_ADDRESS,
  SYSVAR_LAST_RESTART_SLOT_ADDRESS,
  SYSVAR_RECENT_BLOCKHASHES_ADDRESS,
  SYSVAR_RENT_ADDRESS,
  SYSVAR_SLOT_HASHES_ADDRESS,
  SYSVAR_SLOT_HISTORY_ADDRESS,
  SYSVAR_STAKE_HISTORY_ADDRESS,
  VoteProgram.programId.toBase58(),
  AddressLookupTableProgram.programId.toBase58(),
  BPF_LOADER_PROGRAM_ID.toBase58(),
  BPF_LOADER_DEPRECATED_PROGRAM_ID.toBase58(),
  Ed25519Program.programId.toBase58(),
  Secp256k1Program.programId.toBase58(),
  SYSVAR_REWARDS_PUBKEY.toBase58(),
];

/** Real ids no installed package publishes: where this repository writes them once. */
const WRITTEN_ONCE: readonly string[] = [
  ids.TOKEN_2022_PROGRAM,
  ids.MEMO_PROGRAM,
  MEMO_PROGRAM_V1,
  ids.BPF_LOADER_UPGRADEABLE,
  ids.NATIVE_LOADER,
  ids.METADATA_PROGRAM,
  ids.NATIVE_MINT,
  PUMP.programId,
  PUMP_AMM.programId,
  bs58.encode(PUMP_FEE_PROGRAM),
  bs58.encode(PUMP_MAYHEM_PROGRAM),
  // Typed here, as no installed package publishes them: the feature-gate program (owner of Feature accounts, named by
  // getStakeMinimumDelegation), the sysvar owner and the retired Fees sysvar (api/solana-json/transactions.ts).
  'Feature111111111111111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
];

const KNOWN: ReadonlySet<string> = new Set([...PUBLISHED, ...WRITTEN_ONCE]);

/** Program ids made up on purpose, and why. */
const MADE_UP: ReadonlyMap<string, string> = new Map([
  ['SimRouter1111111111111111111111111111111111', "the simulator's own router program (ingest/sources/sim/programs.ts)"],
]);

const BASE58_RUN = /(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{32,44}(?![1-9A-HJ-NP-Za-km-z])/g;
// A quoted base58 string in a program-id position: `programId: '…'`, `"programId":"…"`, `FOO_PROGRAM = '…'`,
// `FOO_PROGRAM = pk('…')`, `program: new PublicKey('…')`.
const PROGRAM_POSITION =
  /\b\w*(?:program|PROGRAM|Program)\w*["']?\s*[:=]\s*(?:\w+\()?(?:new PublicKey\()?["']([1-9A-HJ-NP-Za-km-z]{32,44})["']/g;

const isKey = (s: string): boolean => decodeBase58Exact(s, 32).ok;

/** Levenshtein distance, given up past `max` (the answer is then max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

const NEAR = 4;

export interface Finding {
  file: string;
  id: string;
  why: string;
}

/** Rule 1 for one base58 string. */
function nearMisses(file: string, s: string): Finding[] {
  if (KNOWN.has(s) || MADE_UP.has(s) || !isKey(s)) return [];
  const near = [...KNOWN].find((k) => editDistance(s, k, NEAR) <= NEAR);
  return near === undefined ? [] : [{ file, id: s, why: `within ${NEAR} edits of the real id ${near}: a misspelling` }];
}

/** Rules 1 and 2 over one text file. */
export function checkText(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(BASE58_RUN)) out.push(...nearMisses(file, m[0]));
  for (const m of text.matchAll(PROGRAM_POSITION)) {
    const s = m[1]!;
    if (KNOWN.has(s) || MADE_UP.has(s) || !isKey(s)) continue;
    out.push({ file, id: s, why: `in a program-id position (${m[0].slice(0, 60)}) but neither a known program id nor made up on purpose` });
  }
  return out;
}

/** Rule 3 over the file source's JSON lines. */
export function checkJsonLines(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  const check = (key: Uint8Array, where: string): void => {
    const id = bs58.encode(key);
    if (!KNOWN.has(id) && !MADE_UP.has(id)) out.push({ file, id, why: `${where} is neither a known program id nor made up on purpose` });
  };
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const r = parseLine(line);
    if (!r.ok) {
      out.push({ file, id: '', why: `line ${i + 1} is not a file-source line: ${r.reason}` });
      continue;
    }
    const e = r.event;
    if (e.kind === 'accounts') check(e.event.owner, `line ${i + 1}: the owner of account ${bs58.encode(e.event.pubkey)}`);
    if (e.kind === 'transactions') {
      const keys = [...e.event.accountKeys, ...e.event.loadedWritable, ...e.event.loadedReadonly];
      // Any key a few edits from a real id (rule 1, on the bytes), then every program invoked, CPIs included.
      for (const k of keys) out.push(...nearMisses(file, bs58.encode(k)).map((f) => ({ ...f, why: `line ${i + 1}: ${f.why}` })));
      const inner = e.event.innerInstructions.flatMap((x) => x.instructions);
      for (const ix of [...e.event.instructions, ...inner]) {
        const program = keys[ix.programIdIndex];
        if (program === undefined) out.push({ file, id: '', why: `line ${i + 1}: program index ${ix.programIdIndex} past the keys` });
        else check(program, `line ${i + 1}: a program the transaction invokes`);
      }
    }
  }
  return out;
}

const listed = (): string[] => repoFiles('.');
const trackedFiles = (): string[] => listed().filter((f) => f !== '' && !f.endsWith('package-lock.json'));

describe('program ids in the repository', () => {
  it('the ids written once in schemas/programs.ts equal the published ones', () => {
    expect(ids.TOKEN_PROGRAM).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(ids.ATA_PROGRAM).toBe(ASSOCIATED_TOKEN_PROGRAM_ADDRESS);
    expect(ids.SYSTEM_PROGRAM).toBe(SYSTEM_PROGRAM_ADDRESS);
    expect(ids.COMPUTE_BUDGET_PROGRAM).toBe(COMPUTE_BUDGET_PROGRAM_ADDRESS);
    expect(ids.SYSVAR_RENT).toBe(SYSVAR_RENT_ADDRESS);
    expect(ids.SYSVAR_CLOCK).toBe(SYSVAR_CLOCK_ADDRESS);
    expect(ids.SYSVAR_SLOT_HASHES).toBe(SYSVAR_SLOT_HASHES_ADDRESS);
    for (const id of [...KNOWN, ...MADE_UP.keys()]) expect(isKey(id), id).toBe(true);
  });

  it('the rules catch the misspelling of issue 32 in text, in a program-id position and in a transaction', () => {
    // Built from the real id so that this file does not spell the misspelling itself.
    const misspelt = TOKEN_PROGRAM_ADDRESS.replace('uBvf9Ss', 'uvvf9ss');
    expect(misspelt).not.toBe(TOKEN_PROGRAM_ADDRESS);
    expect(checkText('x.md', `owned by ${misspelt}.`).map((f) => f.id)).toEqual([misspelt]);
    expect(checkText('x.ts', `const TOKEN_PROGRAM = '${misspelt}';`).length).toBeGreaterThan(0);
    expect(checkText('x.ts', `const OTHER_PROGRAM = '${bs58.encode(Buffer.alloc(32, 7))}';`)).toHaveLength(1);
    expect(checkText('x.ts', `const TOKEN_PROGRAM = '${TOKEN_PROGRAM_ADDRESS}'; const k = '${bs58.encode(Buffer.alloc(32, 7))}';`)).toEqual(
      [],
    );
    const example = readFileSync('ingest/sources/file/example.jsonl', 'utf8');
    expect(example).toContain(TOKEN_PROGRAM_ADDRESS);
    // The same data with the token program's bytes swapped for the misspelt key's, in the transactions' bytes too.
    const swapped = example
      .split('\n')
      .map((line) => {
        const text = line.replaceAll(TOKEN_PROGRAM_ADDRESS, misspelt);
        if (!text.includes('"type":"transaction"')) return text;
        const j = JSON.parse(text) as { tx: string };
        const bytes = Buffer.from(j.tx, 'base64');
        const at = bytes.indexOf(Buffer.from(bs58.decode(TOKEN_PROGRAM_ADDRESS)));
        if (at >= 0) Buffer.from(bs58.decode(misspelt)).copy(bytes, at);
        return JSON.stringify({ ...j, tx: bytes.toString('base64') });
      })
      .join('\n');
    const found = checkJsonLines('example.jsonl', swapped);
    expect(found.some((f) => f.id === misspelt && f.why.includes('invokes'))).toBe(true);
    expect(found.some((f) => f.id === misspelt && f.why.includes('misspelling'))).toBe(true);
    expect(found.some((f) => f.id === misspelt && f.why.includes('owner'))).toBe(true);
  });

  it('every file git tracks names real program ids or ones made up on purpose', () => {
    const findings: Finding[] = [];
    let scanned = 0;
    for (const file of trackedFiles()) {
      const bytes = readFileSync(file);
      if (bytes.includes(0)) continue; // binary (a descriptor set): not text anyone types an id into
      const text = bytes.toString('utf8');
      scanned++;
      findings.push(...checkText(file, text));
      if (file.endsWith('.jsonl')) findings.push(...checkJsonLines(file, text));
    }
    expect(scanned).toBeGreaterThan(500);
    expect(findings).toEqual([]);
  });
});
