// Child process of bench/pubsub.ts: the api (live layer + PubSub, readAt in notifications) or a set of
// PubSub client connections, each in its own process. IPC:
//   parent -> { cmd: 'pause', paused } | { cmd: 'cpu' } | { cmd: 'stop' }                         (api)
//             { cmd: 'open', port, conns: {method, params}[][] } | { cmd: 'reset' } | { cmd: 'take' } (clients)
//   child  -> { ready, port? } | { paused } | { cpu: {user, system} } | { opened } | { reset }
//             | { take: { n, first, last, latencies, program, methods } }
// Clients stamp each notification in the receive callback with Date.now() (the wall clock every process
// on the machine shares) and subtract the `readAt` the api wrote (Date.now() when it read the record).
import WebSocket from 'ws';
import { LiveLayer } from '../api/live/index.js';
import { startPubSub } from '../api/pubsub/server.js';
import { createKafka } from '../platform/kafka/index.js';
import { createLogger } from '../platform/log.js';
import { topicNames } from '../schemas/topics.js';

const role = process.argv[2];
const log = createLogger(process.env.LOG_LEVEL ?? 'warn', `bench-pubsub-${role}`);
const send = (m: object): void => void process.send?.(m);

async function api(): Promise<void> {
  const kafka = createKafka({ brokers: (process.env.BENCH_BROKERS ?? '').split(','), clientId: 'bench-pubsub-api', log });
  const live = await LiveLayer.start({
    kafka,
    topics: topicNames(process.env.BENCH_PREFIX),
    pingIntervalMs: 10_000,
    log,
  });
  const server = await startPubSub({
    live,
    host: '127.0.0.1',
    port: 0,
    maxConnections: 10_000,
    maxSubscriptionsPerConnection: 1_000,
    maxMessageBytes: 65536,
    maxBufferedBytes: 256 * 1024 * 1024,
    pingIntervalMs: 30_000,
    readAtDebug: true,
    log,
  });
  process.on('message', async (m: { cmd: string; paused?: boolean }) => {
    if (m.cmd === 'pause') {
      live.setPaused(m.paused!);
      send({ paused: m.paused });
    } else if (m.cmd === 'cpu') send({ cpu: process.cpuUsage() });
    else if (m.cmd === 'stop') {
      await server.close();
      await live.close();
      await kafka.close();
      process.exit(0);
    }
  });
  send({ ready: true, port: server.port });
}

interface Sub {
  method: string;
  params: unknown[];
}

const READ_AT = /"readAt":(\d+)\}\}$/;
/** Where a notification's method name starts: `{"jsonrpc":"2.0","method":"`. */
const METHOD_AT = '{"jsonrpc":"2.0","method":"'.length;

async function clients(): Promise<void> {
  let sockets: WebSocket[] = [];
  let n = 0;
  let first = 0;
  let last = 0;
  let latencies: number[] = [];
  /** programNotification latencies (latencies: the others). */
  let program: number[] = [];
  /** Per notification method, when the connections were opened with byMethod. */
  let byMethod = false;
  let methods: Record<string, number[]> = {};
  const onMessage = (data: Buffer): void => {
    const now = Date.now();
    const text = data.toString('latin1');
    const m = READ_AT.exec(text);
    if (!m) return; // a subscribe answer
    if (n === 0) first = now;
    n++;
    last = now;
    if (latencies.length < 2_000_000) (text.startsWith('{"jsonrpc":"2.0","method":"p') ? program : latencies).push(now - Number(m[1]));
    if (byMethod) {
      const method = text.slice(METHOD_AT, text.indexOf('"', METHOD_AT));
      const l = (methods[method] ??= []);
      if (l.length < 1_000_000) l.push(now - Number(m[1]));
    }
  };
  process.on('message', async (m: { cmd: string; port?: number; conns?: Sub[][]; byMethod?: boolean }) => {
    if (m.cmd === 'open') {
      byMethod = m.byMethod ?? false;
      for (const s of sockets) s.terminate();
      sockets = await Promise.all(
        m.conns!.map(
          (subs) =>
            new Promise<WebSocket>((resolve, reject) => {
              const ws = new WebSocket(`ws://127.0.0.1:${m.port}/`, { perMessageDeflate: false });
              let answered = 0;
              ws.on('message', (data: Buffer) => {
                if (answered < subs.length && data.toString('latin1').startsWith('{"jsonrpc":"2.0","result"')) {
                  if (++answered === subs.length) resolve(ws);
                  return;
                }
                onMessage(data);
              });
              ws.once('error', reject);
              ws.once('open', () =>
                subs.forEach((s, i) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: s.method, params: s.params }))),
              );
            }),
        ),
      );
      send({ opened: sockets.length });
    } else if (m.cmd === 'reset') {
      n = 0;
      latencies = [];
      program = [];
      methods = {};
      send({ reset: true });
    } else if (m.cmd === 'take') {
      send({ take: { n, first, last, latencies, program, methods } });
    } else if (m.cmd === 'stop') {
      for (const s of sockets) s.terminate();
      process.exit(0);
    }
  });
  send({ ready: true });
}

(role === 'api' ? api() : clients()).catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
