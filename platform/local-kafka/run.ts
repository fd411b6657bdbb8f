// Runs a local Kafka cluster in the foreground until Ctrl-C (or SIGTERM), for development:
//   npx tsx platform/local-kafka/run.ts [--nodes 1|3] [--data-dir .data/kafka] [--heap 1g]
// With --data-dir the data (and the ports, when still free) survive restarts; without it a temp
// folder is used and deleted on exit. Prints `KAFKA_BROKERS=...` for the other roles.
import { parseArgs } from 'node:util';
import { startLocalKafka } from './launcher.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '1' },
    'data-dir': { type: 'string' },
    heap: { type: 'string' },
  },
});
const nodes = Number(values.nodes);
if (nodes !== 1 && nodes !== 3) throw new Error(`--nodes must be 1 or 3, got ${values.nodes}`);

const log = (msg: string, extra?: object): void => {
  process.stderr.write(`[kafka] ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}\n`);
};
const kafka = await startLocalKafka({
  nodes,
  dataDir: values['data-dir'],
  keepData: values['data-dir'] !== undefined,
  heap: values.heap,
  log,
});
process.stdout.write(`KAFKA_BROKERS=${kafka.brokers.join(',')}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  log('stopping');
  kafka.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      log('stop failed', { error: String(err) });
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
