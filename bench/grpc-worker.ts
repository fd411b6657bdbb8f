// Child process of bench/grpc.ts: runs the api (gRPC only), the ingest role, counting clients or filtered
// (latency) clients in its own process, so the api's CPU can be measured on its own and clients can use the
// other core. Talks to the parent over IPC:
//   parent -> { cmd: 'cpu' } | { cmd: 'pause', paused } | { cmd: 'count' } | { cmd: 'stop' } | { cmd: 'streams' } (api: open streams by method)
//             | { cmd: 'open', port, filters, base } | { cmd: 'counting', on } | { cmd: 'take' } | { cmd: 'close' }
//   child  -> { ready: true, port? } | { cpu: { user, system } (µs) } | { count: { n, first, last } } | { stopped: true } | { streams: { [method]: n } }
//             | { opened } | { counting } | { take: { delivered, received } } | { closed }
import { DEFAULT_FILTER_LIMITS } from '../api/filters/index.js';
import { DEFAULT_GEYSER_LIMITS } from '../api/filters/from-geyser.js';
import { geyserService } from '../api/grpc/geyser/service.js';
import { openStreams } from '../api/grpc/metrics.js';
import { startGrpc } from '../api/grpc/server.js';
import { streamService } from '../api/grpc/stream/service.js';
import { LiveLayer } from '../api/live/index.js';
import { startIngest } from '../ingest/run.js';
import { openAccess } from '../cli/wire-access.js';
import { StopList } from '../cli/stop-list.js';
import { makeConfig } from '../cli/config.js';
import { apiSection } from '../cli/config-sections.js';
import { createKafka } from '../platform/kafka/index.js';
import { createLogger } from '../platform/log.js';
import { topicNames } from '../schemas/topics.js';
import { ingestSection } from '../cli/config-sections.js';

const role = process.argv[2];
const brokers = (process.env.BENCH_BROKERS ?? '').split(',');
const prefix = process.env.BENCH_PREFIX ?? 'bench';
const log = createLogger(process.env.LOG_LEVEL ?? 'warn', `bench-${role}`);
const send = (m: object): void => void process.send?.(m);

async function main(): Promise<void> {
  let stop: () => Promise<void>;
  let pause: (paused: boolean) => void = () => undefined;
  if (role === 'api') {
    const kafka = createKafka({ brokers, clientId: 'bench-api', log });
    const queueSize = Number(process.env.BENCH_QUEUE ?? 200_000);
    const live = await LiveLayer.start({
      kafka,
      topics: topicNames(prefix),
      pingIntervalMs: 10_000,
      // BENCH_LIVE_READ=committed: the live tail waits for the ingest's commits (the baseline of the fast path).
      read: process.env.BENCH_LIVE_READ === 'committed' ? 'committed' : 'uncommitted',
      // BENCH_LIVE_TOPICS: the topics the live layer reads besides slots (--live-topics; e.g. `parsed` for a replica
      // serving only SubscribeParsed), checked as the CLI checks it.
      kinds: process.env.BENCH_LIVE_TOPICS
        ? apiSection(makeConfig('api', { liveTopics: process.env.BENCH_LIVE_TOPICS.split(',') })).live.kinds
        : undefined,
      log,
    });
    // BENCH_KEYS_FILE (set by bench/grpc.ts under BENCH_KEYS=1): the access check of `--keys-file`, wired as the api
    // role wires it (keys file watcher, usage metrics); clients then send BENCH_API_KEY as x-token.
    const accessStops = new StopList(log);
    const keysFile = process.env.BENCH_KEYS_FILE;
    const access = keysFile ? openAccess({ keysFile }, accessStops, log) : undefined;
    const server = await startGrpc({
      services: [
        streamService({ live, limits: DEFAULT_FILTER_LIMITS, queueSize, log }),
        geyserService({ live, limits: DEFAULT_GEYSER_LIMITS, queueSize, log }),
      ],
      host: '127.0.0.1',
      port: 0,
      ...(access ? { access } : {}),
      log,
    });
    pause = (p) => live.setPaused(p);
    process.on('message', (m: { cmd: string }) => {
      if (m.cmd !== 'streams') return;
      void openStreams.get().then((g) => send({ streams: Object.fromEntries(g.values.map((v) => [String(v.labels.method), v.value])) }));
    });
    stop = async () => {
      await server.close();
      await accessStops.stopAll();
      await live.close();
      await kafka.close();
    };
    send({ ready: true, port: server.port });
  } else if (role === 'ingest') {
    const cfg = makeConfig('ingest', {
      kafkaBrokers: brokers,
      topicPrefix: prefix,
      partitions: 4,
      retentionMs: -1,
      tps: Number(process.env.BENCH_TPS ?? 5000),
      slotMs: 400,
      fast: true,
      seed: 7,
      metricsPort: 0,
    });
    const kafka = createKafka({ brokers, clientId: 'bench-ingest', log });
    const ingest = await startIngest(ingestSection(cfg), log, { kafka, topics: topicNames(prefix) });
    stop = async () => {
      await ingest.stop();
      await kafka.close();
    };
    send({ ready: true });
  } else if (role === 'clients') {
    // Match-all Subscribe streams that count updates without decoding them (bench phase 3).
    const clients = await import('./grpc-clients.js');
    const counter = clients.openCounting(Number(process.env.BENCH_PORT), Number(process.env.BENCH_N ?? 1));
    stop = async () => counter.close();
    await counter.ready;
    process.on('message', (m: { cmd: string }) => {
      if (m.cmd === 'count') send({ count: counter.stats() });
    });
    send({ ready: true });
  } else if (role === 'parsed-clients') {
    // SubscribeParsed streams with the default request (BENCH_FROM_SLOT: replaying from there) that count updates without
    // decoding them (bench/parsed.ts).
    const clients = await import('./grpc-clients.js');
    const from = process.env.BENCH_FROM_SLOT;
    const counter = clients.openParsedCounting(
      Number(process.env.BENCH_PORT),
      Number(process.env.BENCH_N ?? 1),
      from ? BigInt(from) : undefined,
    );
    stop = async () => counter.close();
    process.on('message', (m: { cmd: string }) => {
      if (m.cmd === 'count') send({ count: counter.stats() });
    });
    send({ ready: true });
  } else if (role === 'filter-clients') {
    // Filtered, decoding Subscribe streams stamping each update in the receive callback (bench phases 1-2):
    // stream.Stream, or geyser.Geyser with BENCH_SERVICE=geyser.
    const clients = process.env.BENCH_SERVICE === 'geyser' ? await import('./grpc-geyser-clients.js') : await import('./grpc-clients.js');
    let streams: ReturnType<typeof clients.openFiltered> | undefined;
    stop = async () => streams?.close();
    process.on('message', (m: { cmd: string; port?: number; filters?: string[][]; base?: number; on?: boolean }) => {
      if (m.cmd === 'open') {
        streams?.close();
        streams = clients.openFiltered(m.port!, m.filters!, m.base ?? 0);
        send({ opened: true });
      } else if (m.cmd === 'counting') {
        streams?.setCounting(m.on === true);
        send({ counting: m.on === true });
      } else if (m.cmd === 'take') {
        send({ take: streams?.take() ?? { delivered: 0, received: [] } });
      } else if (m.cmd === 'close') {
        streams?.close();
        streams = undefined;
        send({ closed: true });
      }
    });
    send({ ready: true });
  } else {
    throw new Error(`bench/grpc-worker.ts: unknown role ${JSON.stringify(role)} (api, ingest, clients, parsed-clients or filter-clients)`);
  }
  process.on('message', (m: { cmd: string; paused?: boolean }) => {
    if (m.cmd === 'cpu') {
      const u = process.cpuUsage();
      send({ cpu: { user: u.user, system: u.system } });
    } else if (m.cmd === 'pause') {
      pause(m.paused === true);
      send({ paused: m.paused });
    } else if (m.cmd === 'stop') {
      void stop().finally(() => {
        send({ stopped: true });
        process.exit(0);
      });
    }
  });
}

main().catch((err: Error) => {
  process.stderr.write(`[bench:grpc ${role}] ${err.stack ?? err.message}\n`);
  process.exit(1);
});
