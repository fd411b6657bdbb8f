// The soak's upstream, a child process of its own (its CPU is not the service's): the local Yellowstone test
// server (test/support/yellowstone/replay-server.ts) replaying a recording (recording.ts) at the chain's pace.
// Slot k of a stream starts k x slotMs after the stream's first request and its updates are spread over the
// first 90% of the slot, as a validator streams a block while it builds it; a late server sends at once and
// says how late it was. A stream asking for from_slot starts there, on a new schedule.
// IPC (bench/support/workers.ts): -> { ready, port } | { started: { t0, fromSlot } } (each new stream);
// <- { cmd: 'stats' } -> { stats: UpstreamStats } (since the last ask); <- { cmd: 'stop' }.
import { startReplayServer } from '../../test/support/yellowstone/replay-server.js';
import { readRecording } from './recording.js';
import { SPREAD, type UpstreamStats } from './schedule.js';

const file = process.env.SOAK_RECORDING ?? '';
const slotMs = Number(process.env.SOAK_SLOT_MS ?? 400);
const send = (m: object): void => void process.send?.(m);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let tip = -1;
let sent = 0;
let ended = false;
let late: number[] = [];

async function* feed(fromSlot: bigint | undefined): AsyncGenerator<Uint8Array> {
  const t0 = Date.now();
  send({ started: { t0, fromSlot: fromSlot === undefined ? null : Number(fromSlot) } });
  let k = 0;
  for await (const s of readRecording(file, fromSlot === undefined ? undefined : Number(fromSlot))) {
    const start = t0 + k * slotMs;
    k++;
    const wait = start - Date.now();
    if (wait > 0) await sleep(wait);
    tip = s.slot;
    const n = s.updates.length;
    for (let i = 0; i < n; i++) {
      const due = start + Math.floor((i * slotMs * SPREAD) / n);
      const ahead = due - Date.now();
      if (ahead > 2) await sleep(ahead);
      sent++;
      yield s.updates[i]!;
    }
    late.push(Math.max(0, Date.now() - (start + slotMs * SPREAD)));
  }
  ended = true;
}

async function main(): Promise<void> {
  if (!file) throw new Error('bench/soak/upstream.ts: SOAK_RECORDING (the recording file) is not set');
  const server = await startReplayServer({ feed });
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'stats') {
      const stats: UpstreamStats = { tip, sent, ended, lateMs: late };
      late = [];
      send({ stats });
    } else if (m.cmd === 'stop') {
      void server.close().finally(() => process.exit(0));
    }
  });
  send({ ready: true, port: Number(new URL(server.url).port) });
}

main().catch((err: Error) => {
  process.stderr.write(`[soak upstream] ${err.stack ?? err.message}\n`);
  process.exit(1);
});
