// The soak driver (bench/soak/driver.ts, `npm run bench:soak`) for a short time at a small multiple, so it cannot
// rot: the whole service fed by the local Yellowstone upstream (a recording made for the test), clients on every
// interface in processes of their own; the summary line comes out and its figures are sane (every role's trail
// finite, end-to-end latency measured, no error, dead letter or cut-off, disk and CPU measured).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSoak } from '../../bench/soak/driver.js';
import { parseSummaryLine } from '../../bench/soak/stats.js';

const dir = mkdtempSync(join(tmpdir(), 'slotstream-soak-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench:soak', () => {
  it('given 0.05x mainnet for 10 s with clients on every interface, when run, then one sane summary line', async () => {
    const lines: string[] = [];
    const r = await runSoak({
      multiple: 0.05,
      minutes: 1 / 6,
      // Slots of 100 ms: the views reach a finalized slot (the warm-up's end) 4x sooner than at the chain's pace.
      speedup: 4,
      recordingDir: dir,
      grpcStreams: 10,
      pubsubSubscriptions: 10,
      rpcPerSecond: 5,
      spareSeconds: 45,
      log: (l) => lines.push(l),
    });
    const out = lines.join('\n');
    const s = parseSummaryLine(out);
    expect(s, out).toBeDefined();
    expect(Object.keys(s!)).toEqual([
      'multiple',
      'minutes',
      'ingest_lag_p99_slots',
      'views_lag_p99_slots',
      'e2e_p99_ms',
      'cpu_cores',
      'rss_slope_mb_per_h',
      'disk_gb_per_day',
      'cutoffs',
      'errors',
      'rpc_p99_ms',
      'busiest_thread',
    ]);
    expect(s!.multiple).toBe(0.05);
    for (const k of [
      'ingest_lag_p99_slots',
      'views_lag_p99_slots',
      'e2e_p99_ms',
      'cpu_cores',
      'rss_slope_mb_per_h',
      'disk_gb_per_day',
      'rpc_p99_ms',
      'busiest_thread',
    ]) {
      expect(Number.isFinite(s![k]), `${k} in ${out}`).toBe(true);
    }
    expect(s!.ingest_lag_p99_slots, out).toBeGreaterThanOrEqual(0);
    expect(s!.views_lag_p99_slots, out).toBeGreaterThanOrEqual(0);
    expect(s!.cpu_cores, out).toBeGreaterThan(0);
    expect(r.disk.kafkaBytes, out).toBeGreaterThan(0);
    expect(r.disk.clickhouseBytes, out).toBeGreaterThan(0);
    expect({ errors: s!.errors, cutoffs: s!.cutoffs, deadLetters: r.deadLetters, texts: r.errorTexts }).toEqual({
      errors: 0,
      cutoffs: 0,
      deadLetters: 0,
      texts: [],
    });
    // Every interface saw the chain: a trail for each.
    expect(Object.keys(r.minutes[0]!.trail).sort(), out).toEqual(['geyser', 'ingest', 'pubsub', 'stream', 'views']);
    // Every Node process of the service (the engine, its stream processes and its ingest process) has its main
    // thread's busy share and its event loop lag, and CPU apart from the broker's (issue 33, item 5).
    const streams = Object.keys(r.mainThreadBusy).filter((k) => k.startsWith('stream_'));
    expect(streams.length, out).toBeGreaterThan(0);
    for (const k of ['service', 'ingest', ...streams]) {
      expect(r.mainThreadBusy[k], `${k} in ${out}`).toBeGreaterThan(0);
      expect(r.mainThreadBusy[k], `${k} in ${out}`).toBeLessThanOrEqual(1);
      expect(r.minutes[0]!.loopLagP99Ms[k], `${k} in ${out}`).toBeGreaterThan(0);
      expect(r.cpuCores[k], `${k} in ${out}`).toBeGreaterThan(0);
    }
    expect(r.cpuCores.kafka, out).toBeGreaterThan(0);
    expect(out).toMatch(/busiest_thread=(service|ingest|stream_\d+):\d\.\d\d/);
  });
});
