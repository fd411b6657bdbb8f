// Regenerates ./example.jsonl: a few simulated slots around an epoch boundary, past the genesis
// snapshot (thousands of startup accounts), written by the same writer as `--out`.
// Run: npx tsx ingest/sources/file/make-example.ts
import { fileURLToPath } from 'node:url';
import { createSimSource } from '../sim/index.js';
import { createJsonlWriter } from './writer.js';

const path = fileURLToPath(new URL('./example.jsonl', import.meta.url));
const source = createSimSource({
  seed: 4,
  slotMs: 0,
  tps: 5,
  skipRate: 0.2,
  slotsPerEpoch: 32,
  validators: 2,
  fast: false,
  maxSlots: 102,
  entries: false,
  deadRate: 0,
});
const writer = createJsonlWriter(path);
// Slot 96 starts epoch 3, so the file holds an epoch record and its leader schedule.
for await (const batch of source.batches({ afterSlot: 95n })) await writer.write(batch);
await writer.close();
console.error(`wrote ${writer.lines} lines to ${path}`);
