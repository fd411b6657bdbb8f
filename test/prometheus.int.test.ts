// The alert rules in deploy/prometheus/ run in a real Prometheus (Debian's package) scraping a running slotstream:
// `slotstream ingest --source rpc` (the CLI, as deployed) following a local JSON-RPC node, and `slotstream api`, both
// on the test's Kafka broker. The repository's rules are loaded as they are except their `for:` durations (2 s here,
// with scrapes and evaluations every second). The node's tip moves (the ingest keeps up: no alert), stops (the
// ingest turns behind: SlotstreamIngestBehind fires), and moves again (the alert clears).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import { SlotStatus, type SlotEvent } from '../schemas/codec.js';
import { blockToConfirmedBlock } from '../schemas/yellowstone/index.js';
import { startApi, type ApiProcess } from './support/cli/api-process.js';
import { startIngestCli, type IngestCliProcess } from './support/cli/ingest-cli-process.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { startPrometheus, type PrometheusServer } from './support/prometheus/server.js';
import { startTestRpcServer, type TestRpcServer, type TestSlot } from './support/rpc/test-server.js';

const RULES = new URL('../deploy/prometheus/slotstream.rules.yml', import.meta.url);
const ALERT = 'SlotstreamIngestBehind';

interface RuleFile {
  groups: { name: string; rules: { alert?: string; for?: string }[] }[];
}

/** The repository's rules with every `for:` shortened (the expressions untouched). */
async function rulesWithShortFor(forDuration: string): Promise<string> {
  const doc = parse(await readFile(RULES, 'utf8')) as RuleFile;
  for (const g of doc.groups) for (const r of g.rules) if (r.for !== undefined) r.for = forDuration;
  return stringify(doc);
}

let rpcServer: TestRpcServer;
let ingest: IngestCliProcess | undefined;
let api: ApiProcess | undefined;
let prometheus: PrometheusServer | undefined;
let dataDir: string;
let ticker: NodeJS.Timeout | undefined;
let lastSlot = 0;

/** The node's tip moves one slot every 200 ms (a live chain, 2x Solana's pace) until `stopTip`. */
function moveTip(): void {
  ticker = setInterval(() => {
    if (rpcServer.tip.confirmed < lastSlot) {
      rpcServer.tip.confirmed += 1;
      rpcServer.tip.finalized = Math.max(1, rpcServer.tip.confirmed - 2);
    }
  }, 200);
}
function stopTip(): void {
  clearInterval(ticker);
  ticker = undefined;
}

beforeAll(async () => {
  // 600 slots of a simulated chain served as Agave's JSON-RPC answers (2 minutes of tip movement).
  const sim = createSimSource({
    ...DEFAULT_SIM_OPTIONS,
    seed: 36,
    slotMs: 0,
    tps: 10,
    skipRate: 0.05,
    deadRate: 0,
    slotsPerEpoch: 64,
    validators: 4,
    fast: true,
    maxSlots: 600,
  });
  const slots = new Map<number, TestSlot>();
  for await (const b of sim.batches({})) {
    const processed = b.events.find(
      (e) => e.kind === 'slots' && e.event.slot === b.slot && e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block,
    );
    if (!processed) continue;
    const txs = b.events.filter((e) => e.kind === 'transactions').map((e) => e.event);
    slots.set(Number(b.slot), { kind: 'block', block: blockToConfirmedBlock({ slot: processed.event as SlotEvent, transactions: txs }) });
    lastSlot = Math.max(lastSlot, Number(b.slot));
  }
  const identities = [1, 2, 3, 4].map((i) => Buffer.alloc(32, i));
  rpcServer = await startTestRpcServer({ slots, slotsPerEpoch: 64, identities, tip: { confirmed: 10, finalized: 8 } });
  dataDir = await mkdtemp(join(tmpdir(), 'slotstream-prometheus-api-'));
});

afterAll(async () => {
  stopTip();
  await prometheus?.stop();
  await ingest?.stop();
  await api?.kill();
  await rpcServer?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('deploy/prometheus rules in a real Prometheus', () => {
  // Its waits add up to more than the default 180 s on a loaded machine (each is on a condition, none on the clock).
  it('SlotstreamIngestBehind fires when the upstream stalls and clears when it moves on', async () => {
    const prefix = uniquePrefix('prometheus');
    moveTip();
    ingest = await startIngestCli(testBrokers(), [
      '--topic-prefix',
      prefix,
      '--partitions',
      '2',
      '--source',
      'rpc',
      '--rpc-url',
      rpcServer.url,
      '--from-slot',
      '5',
      '--rpc-poll-ms',
      '100',
      '--rpc-concurrency',
      '4',
      // Behind only when the tip stops (4 s), never for the slots it trails on a busy machine.
      '--ingest-stall-ms',
      '4000',
      '--ingest-max-lag-slots',
      '1000',
    ]);
    api = await startApi({ brokers: testBrokers(), topicPrefix: prefix, dataDir });
    prometheus = await startPrometheus({
      jobs: [
        { job: 'slotstream-ingest', targets: [`127.0.0.1:${ingest.metricsPort}`] },
        { job: 'slotstream-api', targets: [`127.0.0.1:${api.metricsPort}`] },
      ],
      rules: [await rulesWithShortFor('2s')],
      interval: '1s',
    });
    const p = prometheus;
    const ingestInstance = `127.0.0.1:${ingest.metricsPort}`;
    const behindAlert = async () => (await p.alerts()).find((a) => a.labels.alertname === ALERT && a.labels.instance === ingestInstance);

    // Both roles scraped; the ingest publishes and is not behind: no alert.
    await waitFor(async () => (await p.targets()).filter((t) => t.health === 'up').length === 2, {
      what: 'both targets up',
      timeoutMs: 300_000,
      intervalMs: 250,
    });
    await waitFor(async () => ((await p.query('slotstream_ingest_last_slot'))[0]?.value ?? 0) > 10, {
      what: 'the ingest publishing (as Prometheus sees it)',
      timeoutMs: 300_000,
      intervalMs: 250,
    });
    await waitFor(async () => (await p.query('slotstream_ingest_behind == 0')).length === 1, {
      what: 'behind 0 scraped',
      timeoutMs: 300_000,
      intervalMs: 250,
    });
    expect(await behindAlert()).toBeUndefined();
    // The api's own series are there too (what the dashboards read).
    expect((await p.query('slotstream_pubsub_connections')).map((s) => s.metric.job)).toEqual(['slotstream-api']);

    // The upstream stalls: the ingest's /health turns behind after 4 s, the alert pends for 2 s, then fires.
    stopTip();
    const stalledAt = rpcServer.tip.confirmed;
    const firing = await waitFor(async () => ((await behindAlert())?.state === 'firing' ? await behindAlert() : undefined), {
      what: `${ALERT} firing`,
      timeoutMs: 300_000,
      intervalMs: 250,
    });
    expect(firing.labels).toMatchObject({ severity: 'page', instance: ingestInstance });
    expect(firing.annotations.summary).toBe(`Ingest ${ingestInstance} is behind its upstream`);
    expect(rpcServer.tip.confirmed).toBe(stalledAt);
    // No other page meanwhile: the api is up and scraped.
    expect((await p.alerts()).filter((a) => a.labels.alertname === 'SlotstreamTargetDown')).toEqual([]);

    // The upstream moves on: the ingest catches up, behind returns to 0, the alert clears.
    moveTip();
    await waitFor(async () => (await behindAlert()) === undefined, { what: `${ALERT} cleared`, timeoutMs: 300_000, intervalMs: 250 });
    expect(rpcServer.tip.confirmed).toBeGreaterThan(stalledAt);
    expect((await p.query(`slotstream_ingest_behind{instance="${ingestInstance}"}`))[0]?.value).toBe(0);
  });
});
