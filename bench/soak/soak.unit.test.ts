import { describe, expect, it } from 'vitest';
import { ingestProcessOf, metricSum, streamProcessesOf } from './driver.js';
import { localBrokers } from './ingest-process.js';
import { Schedule, SPREAD } from './schedule.js';
import { loadShape, MAINNET, slotsFor } from './shape.js';
import { parseSummaryLine, percentile, slope, summaryLine } from './stats.js';

describe('soak arithmetic', () => {
  it('given samples, when percentiles and a slope are taken, then nearest rank and least squares', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 100)]).toEqual([50, 99, 100]);
    expect(percentile([], 99)).toBeNaN();
    expect(
      slope([
        [0, 10],
        [1, 12],
        [2, 14],
      ]),
    ).toBeCloseTo(2);
    expect(slope([[1, 5]])).toBe(0);
  });

  it('given a summary, when printed and parsed back, then the line has the issue-22 fields in order', () => {
    const line = summaryLine({
      multiple: 2,
      minutes: 3,
      ingestLagP99Slots: 1,
      viewsLagP99Slots: 2,
      e2eP99Ms: 150.4,
      cpuCores: 1.234,
      rssSlopeMbPerH: -3.2,
      diskGbPerDay: 512.34,
      cutoffs: 0,
      errors: 0,
      rpcP99Ms: 87.6,
      busiestThread: { process: 'stream_4242', share: 0.914 },
    });
    expect(line).toBe(
      'soak multiple=2 minutes=3 ingest_lag_p99_slots=1 views_lag_p99_slots=2 e2e_p99_ms=150 cpu_cores=1.23 rss_slope_mb_per_h=-3 disk_gb_per_day=512.3 cutoffs=0 errors=0 rpc_p99_ms=88 busiest_thread=stream_4242:0.91',
    );
    expect(parseSummaryLine(`x\n${line}\ny`)).toMatchObject({
      multiple: 2,
      e2e_p99_ms: 150,
      errors: 0,
      rpc_p99_ms: 88,
      busiest_thread: 0.91,
    });
    expect(parseSummaryLine('nothing')).toBeUndefined();
  });

  it("given the upstream's stream start, when a transaction's due time is asked, then slot k starts k slots later, spread over SPREAD", () => {
    const slots = [
      { slot: 5, updates: 10, firstTx: 2, txs: 4 },
      { slot: 6, updates: 2, firstTx: 0, txs: 0 }, // skipped: statuses of other slots only
      { slot: 7, updates: 100, firstTx: 0, txs: 50 },
    ];
    const s = new Schedule(slots, { t0: 1000, fromSlot: 6 }, 400);
    expect(s.transactionDue(5, 0)).toBeUndefined(); // before from_slot
    expect(s.transactionDue(7, 0)).toBe(1400);
    expect(s.transactionDue(7, 10)).toBe(1400 + Math.floor((10 * 400 * SPREAD) / 100));
    expect(s.transactionDue(7, 50)).toBeUndefined();
    expect(s.slotEndDue(6)).toBe(1000 + Math.floor((1 * 400 * SPREAD) / 2));
  });

  it("given a transaction's api read and receive times, when its latency is split, then the slot's wait, the ingest and the serve sum to it", () => {
    const s = new Schedule([{ slot: 7, updates: 100, firstTx: 0, txs: 50 }], { t0: 1000, fromSlot: null }, 400);
    const due = s.transactionDue(7, 10)!;
    const slotEnd = s.slotEndDue(7)!;
    expect(slotEnd).toBe(1000 + Math.floor((99 * 400 * SPREAD) / 100));
    const l = s.transactionLatency(7, 10, slotEnd + 30, slotEnd + 45)!;
    expect(l).toEqual({ e2e: slotEnd + 45 - due, wait: slotEnd - due, ingest: 30, serve: 15 });
    expect(l.wait + l.ingest + l.serve).toBe(l.e2e);
    expect(s.transactionLatency(7, 50, 0, 0)).toBeUndefined();
    // Published in pieces: no slot wait, the time to the api's read is all the ingest's.
    const pieces = new Schedule([{ slot: 7, firstTx: 0, txs: 50, updates: 100 }], { t0: 1000, fromSlot: null }, 400, false);
    expect(pieces.transactionLatency(7, 10, due + 30, due + 45)).toEqual({ e2e: 45, wait: 0, ingest: 30, serve: 15 });
  });

  it('given a multiple, when the shape is made, then mainnet tx/s times it, fast signatures, validators for the vote share', () => {
    const one = loadShape(1, 100);
    expect(one.tps).toBe(3070);
    expect(one.sim).toMatchObject({ fast: true, slotMs: 0, maxSlots: 100, skipRate: MAINNET.skipRate });
    expect(one.sim.validators).toBeGreaterThanOrEqual((one.tps * 0.4 * 2) / 3);
    expect(loadShape(2, 10).tps).toBe(6140);
    expect(() => loadShape(0, 10)).toThrow(/multiple must be a number in \(0, 20\], got 0/);
    expect(() => loadShape(1, 1.5)).toThrow(/slots must be an integer >= 2, got 1.5/);
    expect(slotsFor(2, 30)).toBe(375);
  });

  it("given slotstream all's log, when its stream processes are read, then the live ones with their metrics ports", () => {
    const lines = [
      { msg: 'stream processes are serving', pids: [11, 12, 13], metricsPorts: [9001, 9002, 9003] },
      { msg: 'stream process died: starting another', pid: 12 },
      { msg: 'stream process restarted', pid: 14, metricsPort: 9004 },
    ];
    expect([...streamProcessesOf(lines)]).toEqual([
      [11, 9001],
      [13, 9003],
      [14, 9004],
    ]);
    expect(streamProcessesOf([{ msg: 'api is serving' }]).size).toBe(0);
  });

  it("given slotstream all's log, when its ingest process is read, then the newest one serving with its metrics port", () => {
    const lines = [
      { msg: 'ingest process is serving', pid: 21, metricsPort: 9101 },
      { msg: 'ingest process died: starting another', pid: 21 },
      { msg: 'ingest process is serving', pid: 22, metricsPort: 9102 },
    ];
    expect(ingestProcessOf(lines)).toEqual({ pid: 22, metricsPort: 9102 });
    expect(ingestProcessOf([{ msg: 'api is serving' }])).toBeUndefined();
  });

  it('given a /metrics text, when a metric is summed, then over its label sets only', () => {
    const text = '# HELP a x\na_total{k="1"} 2\na_total{k="2"} 3\na_total_more 7\nb 1\n';
    expect(metricSum(text, 'a_total')).toBe(5);
    expect(metricSum(text, 'c')).toBe(0);
  });
});

describe('localBrokers', () => {
  it('reads the broker `all` started from its JSON log, and names the problem when there is none', () => {
    const log = '{"level":30,"brokers":"127.0.0.1:40123","msg":"KAFKA_BROKERS is unset: started a local Kafka broker"}\n';
    expect(localBrokers(`{"level":30,"msg":"x"}\n${log}`)).toBe('127.0.0.1:40123');
    expect(() => localBrokers('{"level":30,"msg":"api is serving"}\n')).toThrow(/did not log the local broker it started/);
  });
});
