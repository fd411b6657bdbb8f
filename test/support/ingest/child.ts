// Runs the ingest role in its own process for the restart test (test/ingest.int.test.ts), which
// SIGKILLs it mid-run. Options come as the CLI's flags, e.g. `--kafka-brokers ... --max-slots 600`.
import { parseConfig } from '../../../cli/config.js';
import { createLogger } from '../../../platform/log.js';
import { startIngest } from '../../../ingest/run.js';
import { connectKafka } from '../../../cli/infrastructure.js';
import { ingestSection } from '../../../cli/config-sections.js';

const { config } = parseConfig('ingest', process.argv.slice(2), {});
const log = createLogger(config.logLevel, 'ingest-child');
const infra = await connectKafka(config, log);
const ingest = await startIngest(ingestSection(config), log, infra);
await ingest.done;
// The Kafka clients' native handles keep the process alive until they are closed.
await infra.kafka.close();
log.info('ingest-child: done');
