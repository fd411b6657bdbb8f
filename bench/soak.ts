// `npm run bench:soak`: the whole service under a mainnet-shaped load with clients on every interface (issue 22;
// bench/soak/driver.ts). Env: SOAK_MULTIPLE (x mainnet, default 1), SOAK_MINUTES (measured minutes, default 10),
// SOAK_RECORDING_DIR (recordings kept between runs, default .data/soak), SOAK_GRPC_STREAMS (100),
// SOAK_PUBSUB_SUBSCRIPTIONS (100), SOAK_RPC_RPS (20), SOAK_SPEEDUP (replay the recording of SOAK_MULTIPLE/SOAK_SPEEDUP
// this many times faster, default 1), SOAK_RECORDING_SLOTS (slots to record; default: enough for the run), SOAK_SPLIT=1
// (the ingest in a process of its own beside `slotstream all --source none`), SOAK_VOTES=exclude (the ingest drops votes,
// `--votes exclude`; default include), SOAK_PUBLISH=pieces (the ingest's `--yellowstone-publish pieces`; default slots). Prints a line per minute and the summary line; report the
// machine's `uptime` with it (bench/README.md "Soak").
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runSoak } from './soak/driver.js';

const env = (name: string, def: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`bench:soak: ${name} must be a positive number, got ${JSON.stringify(v)}`);
  return n;
};

const votes = process.env.SOAK_VOTES ?? 'include';
if (votes !== 'include' && votes !== 'exclude')
  throw new Error(`bench:soak: SOAK_VOTES must be include or exclude, got ${JSON.stringify(votes)}`);

const publish = process.env.SOAK_PUBLISH ?? 'slots';
if (publish !== 'slots' && publish !== 'pieces')
  throw new Error(`bench:soak: SOAK_PUBLISH must be slots or pieces, got ${JSON.stringify(publish)}`);

const uptime = (): string => execFileSync('uptime').toString().trim();
process.stdout.write(`soak start: ${uptime()}\n`);
await runSoak({
  multiple: env('SOAK_MULTIPLE', 1),
  minutes: env('SOAK_MINUTES', 10),
  recordingDir: process.env.SOAK_RECORDING_DIR ?? fileURLToPath(new URL('../.data/soak', import.meta.url)),
  grpcStreams: env('SOAK_GRPC_STREAMS', 100),
  pubsubSubscriptions: env('SOAK_PUBSUB_SUBSCRIPTIONS', 100),
  rpcPerSecond: env('SOAK_RPC_RPS', 20),
  speedup: env('SOAK_SPEEDUP', 1),
  split: process.env.SOAK_SPLIT === '1',
  votes,
  publish,
  ...(process.env.SOAK_RECORDING_SLOTS ? { recordingSlots: env('SOAK_RECORDING_SLOTS', 0) } : {}),
});
process.stdout.write(`soak end: ${uptime()}\n`);
