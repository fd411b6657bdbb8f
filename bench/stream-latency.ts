// npm run bench:stream-latency — the gRPC streams' clock bounds, moved out of the integration tests (issue 32:
// `npm test` must pass beside a running `slotstream all`; the tests keep the behaviour, on conditions). Each phase
// runs the scenario its test runs (test/support/grpc/), on its own topics and server, the server and the clients in
// this process unless said otherwise, and checks the bound the issue named:
//   open   (api/grpc/open-headers.int.test.ts, issue 18 item 1): with nothing published, 20 geyser.Geyser streams
//          through the Yellowstone client and 10 Subscribe + 10 SubscribeParsed stream.Stream calls opened together,
//          BENCH_OPEN_ROUNDS (3) times: every one open (subscribe() resolved / response headers) within 200 ms.
//   geyser (the former api/grpc/geyser/slow-client-latency.int.test.ts): a geyser.Geyser client that stopped reading
//          backs up and is cut off while a reading one (the Yellowstone client in its own process) gets ~2,000 ~2 KB
//          updates/s; the reading client's api-internal latency (the api's read of the record, created_at, -> its
//          receive callback; behaviour.md) p99 over the 6,000 updates during the back-up <= 50 ms. Also printed: the
//          same figure with both clients reading (the same-session control).
//   stream (api/grpc/stream/slow-client.int.test.ts): after a stream.Stream client that stopped reading was cut off,
//          one more update reaches the reading client within 1,000 ms (publication -> receive callback).
//   pace   (api/grpc/bounded-replay.int.test.ts, issue 23 item 3): a pace-2 replay of ~4 s of recorded chain time
//          (20 ms slots) takes the recorded time / 2 within 10% (first to last matching update's arrival).
// Prints one line per phase (`stream_latency phase=<p> ... bound=<b> ok=<true|false>`), then the machine and its
// load; exits 1 when a bound is exceeded. Env: BENCH_PHASES (comma-separated, default all), BENCH_OPEN_ROUNDS,
// BENCH_KAFKA_BROKERS (else a local broker is started).
import { cpus, loadavg, totalmem } from 'node:os';
import bs58 from 'bs58';
import { benchBrokers } from './support/brokers.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { cursorsTopic, topicNames, type TopicNames } from '../schemas/topics.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder } from '../test/support/geyser/client.js';
import { LatencyClientProcess } from '../test/support/geyser/latency-process.js';
import { key, newClient, readTopics, TestPublisher } from '../test/support/grpc/clients.js';
import { FAR_PING_MS, openGeyserStreams, openStreamCalls } from '../test/support/grpc/open-streams.js';
import { LAST, FIRST, pacedReplay, publishRecordedRange } from '../test/support/grpc/recorded-range.js';
import { startTestGrpc, type TestGrpc } from '../test/support/grpc/server.js';
import { bigTransactions, cutoffs, percentiles, publishPaced, streamSlowClient } from '../test/support/grpc/slow-client.js';
import { uniquePrefix, waitFor } from '../test/support/harness/kafka.js';

const PHASES = (process.env.BENCH_PHASES ?? 'open,geyser,stream,pace').split(',').filter(Boolean);
const OPEN_ROUNDS = Number(process.env.BENCH_OPEN_ROUNDS ?? 3);
const say = (msg: string): void => void process.stderr.write(`[bench:stream-latency] ${msg}\n`);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const f = (ms: number): string => ms.toFixed(1);

interface Phase {
  line: string;
  ok: boolean;
}

/** A server on fresh topics for one phase, and its publisher; `stop` takes everything down. */
async function phaseServer(
  kafka: Kafka,
  name: string,
  o: { partitions: number; queueSize: number; pingIntervalMs: number },
  before?: (pub: TestPublisher, topics: TopicNames) => Promise<void>,
): Promise<{ server: TestGrpc; pub: TestPublisher; topics: TopicNames; stop(): Promise<void> }> {
  const topics = topicNames(uniquePrefix(`bench-${name}`));
  await kafka.admin().ensureTopics(topics, { partitions: o.partitions, retentionMs: -1, replicationFactor: 1 });
  const pub = await TestPublisher.start(kafka, topics);
  await before?.(pub, topics);
  const server = await startTestGrpc({
    kafka,
    topics,
    database: 'unused',
    host: '127.0.0.1',
    port: 0,
    pingIntervalMs: o.pingIntervalMs,
    queueSize: o.queueSize,
    log: silentLogger,
  });
  return {
    server,
    pub,
    topics,
    async stop() {
      await server.close();
      await pub.stop();
      await kafka
        .admin()
        .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
        .catch(() => undefined);
    },
  };
}

async function openPhase(kafka: Kafka): Promise<Phase> {
  const BOUND = 200;
  const s = await phaseServer(kafka, 'open', { partitions: 1, queueSize: 1000, pingIntervalMs: FAR_PING_MS });
  const client = newClient(s.server.port);
  try {
    const geyser = await connectGeyser(s.server.port);
    // The channels are connected before anything is timed (connection set-up is not the stream's opening).
    await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 10_000, (e?: Error) => (e ? reject(e) : resolve())));
    (await openGeyserStreams(geyser, 1, 10_000)).forEach((o) => o.destroy());
    const g: number[] = [];
    const st: number[] = [];
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      const opened = await openGeyserStreams(geyser, 20, 5_000);
      g.push(...opened.map((o) => o.ms));
      for (const o of opened) o.destroy();
      const calls = await openStreamCalls(client, 10, 5_000);
      st.push(...calls.ms);
      calls.cancel();
    }
    const gp = percentiles(g);
    const sp = percentiles(st);
    const ok = gp.max < BOUND && sp.max < BOUND;
    return {
      ok,
      line:
        `stream_latency phase=open rounds=${OPEN_ROUNDS} geyser_streams=${g.length} geyser_p50_ms=${f(gp.p50)} geyser_max_ms=${f(gp.max)} ` +
        `stream_calls=${st.length} stream_p50_ms=${f(sp.p50)} stream_max_ms=${f(sp.max)} bound_ms=${BOUND} ok=${ok}`,
    };
  } finally {
    client.close();
    await s.stop();
  }
}

async function geyserPhase(kafka: Kafka): Promise<Phase> {
  const BOUND = 50;
  const s = await phaseServer(kafka, 'geyser-slow', { partitions: 2, queueSize: 500, pingIntervalMs: 10_000 });
  const a = key();
  let fast: LatencyClientProcess | undefined;
  let slow: GeyserRecorder | undefined;
  try {
    // The reading client in its own process (as clients are), so its receive callbacks do not wait on the api's loop.
    fast = await LatencyClientProcess.start(s.server.port, bs58.encode(a));
    slow = await GeyserRecorder.open(await connectGeyser(s.server.port));
    await slow.request(
      geyserRequest({ transactions: { a: { accountInclude: [bs58.encode(a)], accountExclude: [], accountRequired: [] } } }),
    );
    // Control: the same traffic while both clients read.
    const control = 2_000;
    await publishPaced(s.pub, bigTransactions(a, 40_000n, control));
    await waitFor(async () => (await fast!.count()) >= control && slow!.of('transaction').length >= control, {
      what: 'control traffic on both clients',
      timeoutMs: 120_000,
    });
    const base = percentiles(await fast.take());

    slow.stream.pause(); // stops reading: the client's buffers, then HTTP/2 flow control, back up to the server
    const before = await cutoffs();
    const n = 6_000;
    let cutAt = -1;
    await publishPaced(s.pub, bigTransactions(a, 40_000n + BigInt(control), n), {
      each: async (published) => {
        if (cutAt < 0 && (await cutoffs()) > before) cutAt = published;
      },
    });
    await waitFor(async () => (await fast!.count()) >= control + n, { what: 'the fast client got everything', timeoutMs: 120_000 });
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 120_000 });
    const latencies = (await fast.take()).slice(control);
    const m = percentiles(latencies);
    slow.stream.resume();
    await waitFor(() => slow!.error !== undefined, { what: 'the slow client sees the status', timeoutMs: 60_000 });
    // The figure counts only when the cut-off happened while the fast client was measured.
    const cutDuring = cutAt > 0 && cutAt < n;
    const ok = cutDuring && m.p99 <= BOUND;
    return {
      ok,
      line:
        `stream_latency phase=geyser updates=${n} p50_ms=${m.p50} p99_ms=${m.p99} max_ms=${m.max} control_p50_ms=${base.p50} ` +
        `control_p99_ms=${base.p99} control_max_ms=${base.max} cut_off_after=${cutAt} status="${errorText(slow.error).slice(0, 60)}" ` +
        `bound_p99_ms=${BOUND} ok=${ok}`,
    };
  } finally {
    slow?.close();
    await fast?.stop();
    await s.stop();
  }
}

async function streamPhase(kafka: Kafka): Promise<Phase> {
  const BOUND = 1_000;
  const s = await phaseServer(kafka, 'stream-slow', { partitions: 2, queueSize: 1_000, pingIntervalMs: 10_000 });
  try {
    const run = await streamSlowClient(s.server.port, s.pub);
    run.close();
    const ok = run.probe.ms < BOUND;
    return { ok, line: `stream_latency phase=stream updates=${run.n} probe_ms=${f(run.probe.ms)} bound_ms=${BOUND} ok=${ok}` };
  } finally {
    await s.stop();
  }
}

async function pacePhase(kafka: Kafka): Promise<Phase> {
  const s = await phaseServer(kafka, 'pace', { partitions: 1, queueSize: 100_000, pingIntervalMs: 60_000 }, (pub) =>
    publishRecordedRange(pub),
  );
  const client = newClient(s.server.port);
  try {
    const contents = await readTopics(kafka, s.topics);
    const { r, want, got, recorded, taken } = await pacedReplay(client, contents, 2);
    r.cancel();
    const complete =
      r.error === undefined && got.length === want.size && new Set(got).size === got.length && got.every((id) => want.has(id));
    const off = (taken - recorded / 2) / (recorded / 2);
    const ok = complete && Math.abs(off) < 0.1;
    return {
      ok,
      line:
        `stream_latency phase=pace slots=${FIRST}-${LAST} pace=2 recorded_ms=${recorded} taken_ms=${f(taken)} want_ms=${f(recorded / 2)} ` +
        `off_pct=${(off * 100).toFixed(1)} complete=${complete} bound_pct=10 ok=${ok}`,
    };
  } finally {
    client.close();
    await s.stop();
  }
}

async function main(): Promise<number> {
  const { brokers, local } = await benchBrokers(say);
  const kafka = createKafka({ brokers, clientId: 'bench-stream-latency' });
  const phases: Record<string, (k: Kafka) => Promise<Phase>> = {
    open: openPhase,
    geyser: geyserPhase,
    stream: streamPhase,
    pace: pacePhase,
  };
  let failed = 0;
  try {
    for (const name of PHASES) {
      const phase = phases[name];
      if (!phase) throw new Error(`BENCH_PHASES: unknown phase ${name} (known: ${Object.keys(phases).join(', ')})`);
      say(`phase ${name}, load avg ${load()}`);
      const p = await phase(kafka);
      console.log(p.line);
      if (!p.ok) failed++;
    }
    say(
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; load avg at end ${load()}`,
    );
  } finally {
    await kafka.close();
    await local?.stop();
  }
  if (failed > 0) say(`${failed} phase(s) over their bound`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    say(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(2);
  },
);
