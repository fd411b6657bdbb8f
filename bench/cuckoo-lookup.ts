// CPU cost of one cuckoo filter lookup (api/filters/cuckoo.ts: Yellowstone's compressed address sets), for a
// 100,000-key set built by the package's CompressedAccountFilterSet and for a 10M-key-sized one (2^22 buckets,
// 32 MiB): the cost must not grow with the set. Every key of an event is one lookup per cuckoo filter that the
// index cannot skip (api/filters/filter-index.ts). Usage: npx tsx bench/cuckoo-lookup.ts
import { randomBytes } from 'node:crypto';
import { CompressedAccountFilterSet } from '@triton-one/yellowstone-grpc';
import { CuckooSet } from '../api/filters/cuckoo.js';
import { keyId } from '../api/filters/key-id.js';

const built = new CompressedAccountFilterSet(100_000);
for (let i = 0; i < 100_000; i++) built.insert(randomBytes(32));
const sets = {
  '100k keys (2^15 buckets)': CuckooSet.fromMessage(built.toProto(), Infinity),
  '10M-key size (2^22 buckets, 32 MiB)': CuckooSet.fromMessage(
    { data: randomBytes(2 ** 22 * 8), bucketCount: 2 ** 22, entriesPerBucket: 4, fingerprintBits: 16, hashSeed: '1', hashAlgorithm: 0 },
    Infinity,
  ),
};
const probes = Array.from({ length: 200_000 }, () => keyId(randomBytes(32)));
for (let round = 0; round < 2; round++) {
  for (const [name, set] of Object.entries(sets)) {
    const c = process.cpuUsage();
    let hits = 0;
    for (const p of probes) if (set.has(p)) hits++;
    const u = process.cpuUsage(c);
    const ns = ((u.user + u.system) * 1000) / probes.length;
    if (round === 1) console.log(`cuckoo-lookup ${name}: ${ns.toFixed(0)} ns CPU per lookup (${hits} hits of ${probes.length})`);
  }
}
