// Prepares the local Kafka broker at install time (scripts/setup.sh): its jars from Maven and its class-data-sharing
// archive (platform/local-kafka/launcher.ts, prepareLocalKafka), so that a fresh clone's first `npm test` or
// `npm start` neither fetches nor dumps. Prints what it did; a failure (no Java, no Maven) is reported by setup.sh
// and left to the first run, which tries again and names the cause.
import { kafkaCacheRoot, prepareLocalKafka } from '../platform/local-kafka/launcher.js';

const started = Date.now();
const done = await prepareLocalKafka((msg) => process.stderr.write(`setup: ${msg}\n`));
process.stderr.write(`setup: local Kafka broker ${done} in ${kafkaCacheRoot()} (${Date.now() - started} ms)\n`);
