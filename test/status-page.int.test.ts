// The api's live status page in a real headless browser (Debian's chromium over the DevTools Protocol): `slotstream
// all` (the simulator, on the test's broker) serves /status on its JSON-RPC port; the page shows the chain tip at
// each commitment, the lag of every role, throughput, open streams and the upstream, and updates without a reload
// (the tip moves, the page's load time stays). A PubSub client holds a slot subscription, which the page counts.
// SLOTSTREAM_STATUS_SCREENSHOT=<file> keeps the screenshot (docs/status-page.png was made so).
// One process (--stream-processes 0): the page counts the streams of the process that serves it, and with stream
// processes those are in the workers (a known limit, README "Known limits").
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { launchChromium, type Browser } from './support/browser/chromium.js';
import { startAll, type AllProcess } from './support/cli/all-process.js';
import { waitFor } from './support/harness/kafka.js';
import { onRunBroker } from './support/cli/run-broker.js';

let dataDir: string;
let all: AllProcess | undefined;
let browser: Browser | undefined;
let pubsub: WebSocket | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'slotstream-status-'));
  all = await startAll(dataDir, [...onRunBroker('status'), '--slot-ms', '200', '--tps', '40', '--stream-processes', '0']);
});

afterAll(async () => {
  pubsub?.close();
  await browser?.close();
  await all?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface PageState {
  loadedAt: number;
  polls: number;
  tip: string;
  views: Record<string, string>;
  lag: Record<string, string>;
  streams: string[];
  upstreams: string[];
  rates: Record<string, string>;
}

const READ_PAGE = `(() => {
  const f = (n) => document.querySelector('[data-field="' + n + '"]');
  const rowsOf = (n) => [...f(n).querySelectorAll('tr')].map((tr) => [...tr.children].map((td) => td.textContent).join(' | '));
  return {
    loadedAt: window.statusPageLoadedAt,
    polls: window.statusPolls,
    tip: f('tip').textContent,
    views: Object.fromEntries(['processed', 'confirmed', 'finalized'].map((c) => [c, f('views.' + c).textContent])),
    lag: Object.fromEntries([...f('lag').querySelectorAll('tr')].map((tr) => [tr.children[0].dataset.role, tr.children[1].textContent])),
    streams: rowsOf('streams'),
    upstreams: rowsOf('upstreams'),
    rates: Object.fromEntries(['slotsPerSecond', 'ingestRecordsPerSecond', 'projectorEventsPerSecond'].map((k) => [k, f('throughput.' + k).textContent])),
  };
})()`;

describe('the status page', () => {
  it('shows tips, lags, throughput, streams (per key too) and the upstream, and updates without a reload', async () => {
    const p = all!.ports;
    // A PubSub client with a slot subscription: an open stream the page must count.
    pubsub = new WebSocket(`ws://127.0.0.1:${p.pubsub}/`);
    await new Promise((resolve, reject) => pubsub!.once('open', resolve).once('error', reject));
    pubsub.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' }));

    browser = await launchChromium();
    const page = await browser.open(`http://127.0.0.1:${p.rpc}/status`);
    const read = () => page.evaluate<PageState>(READ_PAGE);
    const first = await waitFor(
      async () => {
        const s = await read().catch(() => undefined);
        return s !== undefined && /^\d+$/.test(s.tip) && /^\d+$/.test(s.views.finalized ?? '') ? s : undefined;
      },
      { what: 'the page showing the chain tip and the finalized head', timeoutMs: 300_000, intervalMs: 250 },
    );
    // The chain moves on; the page follows by polling, without loading again.
    const later = await waitFor(
      async () => {
        const s = await read();
        return BigInt(s.tip) > BigInt(first.tip) && s.polls > first.polls && /^\d/.test(s.rates.slotsPerSecond ?? '') ? s : undefined;
      },
      { what: 'the tip to move on the page', timeoutMs: 300_000, intervalMs: 250 },
    );
    expect(later.loadedAt).toBe(first.loadedAt);
    // The views trail the tip and never lead it; every role has its row (all roles run in this process).
    expect(BigInt(later.views.processed!)).toBeLessThanOrEqual(BigInt(later.tip) + 1n);
    expect(BigInt(later.views.finalized!)).toBeLessThanOrEqual(BigInt(later.views.processed!));
    expect(Object.keys(later.lag).sort()).toEqual(['api', 'ingest', 'projector']);
    expect(later.lag.projector).toMatch(/^\d+$/);
    expect(Number(later.rates.slotsPerSecond)).toBeGreaterThan(0);
    expect(later.streams).toContain('PubSub connections | 1');
    expect(later.streams).toContain('PubSub slot subscriptions | 1');
    // Open streams per key (no keys file here: the one tenant is `anonymous`).
    expect(later.streams).toContain('key anonymous | 1');
    expect(later.upstreams).toHaveLength(1);
    expect(later.upstreams[0]).toMatch(/^simulator or file \| /);
    // What the page shows is what /status.json says (one poll apart at most: the JSON's tip is at least the page's).
    const json = (await (await fetch(`http://127.0.0.1:${p.rpc}/status.json`)).json()) as { chain: { tip: string } };
    expect(BigInt(json.chain.tip)).toBeGreaterThanOrEqual(BigInt(later.tip));

    const png = await page.screenshot();
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeGreaterThan(10_000);
    if (process.env.SLOTSTREAM_STATUS_SCREENSHOT) await writeFile(process.env.SLOTSTREAM_STATUS_SCREENSHOT, png);
  });
});
