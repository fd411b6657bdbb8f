// Usage per key, for operators and billing (issue 36): Prometheus metrics labelled by key id, read from the
// tenants' plain counters when scraped (nothing on the hot path but additions), and the usage records: one JSON
// line per key per interval, appended to a file, each the difference since the key's previous line. The last
// line of a run is written on close, so a file's lines add up to everything the keys were served.
import { createWriteStream, type WriteStream } from 'node:fs';
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../platform/metrics.js';
import type { AccessControl, Tenant, Usage } from './access.js';
import { INTERFACES, type AccessInterface } from './keys-file.js';

/** The access controls of this process (one per api process; tests start several). */
const sources = new Set<AccessControl>();

/** Makes an access control's tenants visible in the metrics; the returned function removes it. */
export function addUsageMetrics(access: AccessControl): () => void {
  sources.add(access);
  return () => sources.delete(access);
}

type UsageField = keyof Usage;

/** A counter set from the tenants' cumulative counts at each scrape (prom-client: reset, then inc to the total). */
function usageCounter(name: string, help: string, field: UsageField): Counter<'key' | 'interface'> {
  return new Counter({
    name,
    help,
    labelNames: ['key', 'interface'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const a of sources)
        for (const t of a.all())
          for (const i of INTERFACES) {
            const v = t.usage[i][field];
            if (v > 0) this.inc({ key: t.id, interface: i }, v);
          }
    },
  });
}

usageCounter(
  'slotstream_key_requests_total',
  'Requests by API key id and interface (gRPC calls, JSON-RPC requests, PubSub requests).',
  'requests',
);
usageCounter(
  'slotstream_key_updates_total',
  'Stream updates sent by API key id and interface (gRPC messages with a slot, PubSub notifications).',
  'updates',
);
usageCounter(
  'slotstream_key_sent_bytes_total',
  'Bytes sent by API key id and interface (gRPC messages before compression, PubSub notifications, JSON-RPC answers).',
  'bytes',
);

new Gauge({
  name: 'slotstream_key_open_streams',
  help: 'Open gRPC streams and PubSub connections by API key id and interface.',
  labelNames: ['key', 'interface'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const a of sources)
      for (const t of a.all()) for (const i of INTERFACES) if (t.open[i] > 0) this.set({ key: t.id, interface: i }, t.open[i]);
  },
});

new Counter({
  name: 'slotstream_key_refusals_total',
  help: 'Requests refused by the access check, by API key id ("" when no key matched) and reason: missing, invalid, interface, or the limit hit (streams, connections, filtersPerStream, keysPerStream, replaySlots, rpcPerSecond, streamBytesPerSecond).',
  labelNames: ['key', 'reason'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const a of sources) {
      for (const [reason, n] of Object.entries(a.unauthenticated)) if (n > 0) this.inc({ key: '', reason }, n);
      for (const t of a.all()) for (const [reason, n] of t.refusals) this.inc({ key: t.id, reason }, n);
    }
  },
});

/** One line of the usage records (api/access/README.md). */
export interface UsageRecord {
  /** The interval: [start, end), ISO 8601 UTC. */
  start: string;
  end: string;
  key: string;
  requests: number;
  updates: number;
  bytes: number;
  /** At the end of the interval. */
  openStreams: number;
  openConnections: number;
  /** The same three counts by interface, for those with any. */
  interfaces: Partial<Record<AccessInterface, Usage>>;
}

const copy = (t: Tenant): Record<AccessInterface, Usage> =>
  Object.fromEntries(INTERFACES.map((i) => [i, { ...t.usage[i] }])) as Record<AccessInterface, Usage>;

/** Pure: the record of a tenant between two snapshots of its usage; undefined for a revoked key with nothing new. */
export function usageRecord(
  t: Tenant,
  before: Record<AccessInterface, Usage> | undefined,
  start: number,
  end: number,
): UsageRecord | undefined {
  const rec: UsageRecord = {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    key: t.id,
    requests: 0,
    updates: 0,
    bytes: 0,
    openStreams: t.open.stream + t.open.geyser,
    openConnections: t.open.pubsub,
    interfaces: {},
  };
  for (const i of INTERFACES) {
    const d: Usage = {
      requests: t.usage[i].requests - (before?.[i].requests ?? 0),
      updates: t.usage[i].updates - (before?.[i].updates ?? 0),
      bytes: t.usage[i].bytes - (before?.[i].bytes ?? 0),
    };
    if (d.requests === 0 && d.updates === 0 && d.bytes === 0) continue;
    rec.interfaces[i] = d;
    rec.requests += d.requests;
    rec.updates += d.updates;
    rec.bytes += d.bytes;
  }
  const idle = rec.requests === 0 && rec.updates === 0 && rec.bytes === 0 && rec.openStreams === 0 && rec.openConnections === 0;
  return t.revoked && idle ? undefined : rec;
}

/** Appends a usage record per key every `intervalMs` to `path` (JSON lines), and a last one on close. */
export class UsageRecorder {
  private readonly out: WriteStream;
  private readonly seen = new Map<Tenant, Record<AccessInterface, Usage>>();
  private readonly timer: NodeJS.Timeout;
  private start: number;

  constructor(
    private readonly access: AccessControl,
    path: string,
    intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.out = createWriteStream(path, { flags: 'a' });
    this.start = now();
    this.timer = setInterval(() => this.write(), intervalMs);
    this.timer.unref();
  }

  /** Writes one line per key for the interval that ends now. */
  write(): void {
    const end = this.now();
    let text = '';
    for (const t of this.access.all()) {
      const rec = usageRecord(t, this.seen.get(t), this.start, end);
      this.seen.set(t, copy(t));
      if (rec !== undefined) text += JSON.stringify(rec) + '\n';
    }
    this.start = end;
    if (text !== '') this.out.write(text);
  }

  /** The last interval's lines, then the file is closed. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.write();
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
