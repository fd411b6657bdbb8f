// A projector in its own process, for crash tests (chdb binds one data folder per process).
// Env: BROKERS, PREFIX, DATA_DIR, DATABASE, GROUP, BATCH_ROWS; KILL_AFTER_INSERTS=n makes the process
// SIGKILL itself right after its n-th table insert (inserted, not yet committed: mid-batch);
// DUMP=<file> waits until the group reached the end of every topic, then writes the views there and exits.
import { writeFileSync } from 'node:fs';
import { createClickHouse } from '../../../platform/clickhouse.js';
import { createKafka } from '../../../platform/kafka/index.js';
import { createLogger } from '../../../platform/log.js';
import { applyMigrations } from '../../../platform/migrations.js';
import { RECORD_KINDS, topicNames } from '../../../schemas/topics.js';
import { catchUp } from '../../../projector/rebuild.js';
import { endOffsets } from '../../../projector/offsets.js';
import { startViewWriter } from '../../../projector/writer.js';
import { PROGRAMS } from './chain.js';
import { dumpViews } from './dump.js';
import { b58 } from './events.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`child: ${name} is not set`);
  return v;
};
const database = env('DATABASE');
const groupId = env('GROUP');
const ch = await createClickHouse({ dataDir: env('DATA_DIR'), database });
await applyMigrations(ch, database);
const log = createLogger(process.env.LOG_LEVEL ?? 'info', 'projector-child');
const kafka = createKafka({ brokers: env('BROKERS').split(','), clientId: 'projector-child', log });
const topics = topicNames(env('PREFIX'));
const killAfter = Number(process.env.KILL_AFTER_INSERTS ?? 0);
let inserts = 0;
const writer = await startViewWriter({
  kafka,
  ch,
  topics,
  database,
  groupId,
  log,
  batchRows: Number(process.env.BATCH_ROWS ?? 300),
  batchMs: 50,
  sessionTimeoutMs: 6_000,
  afterInsert: (table) => {
    inserts++;
    process.stdout.write(`insert ${inserts} ${table}\n`);
    if (killAfter > 0 && inserts >= killAfter) process.kill(process.pid, 'SIGKILL');
  },
});
const dump = process.env.DUMP;
if (dump) {
  const admin = kafka.admin();
  const names = RECORD_KINDS.map((k) => topics[k]);
  await catchUp(admin, groupId, names, await endOffsets(admin, names), 120_000);
  await writer.updateHeads();
  await writer.updateHeads();
  await writer.stop();
  await kafka.close();
  writeFileSync(
    dump,
    JSON.stringify(
      await dumpViews(
        ch,
        database,
        PROGRAMS.map((p) => b58(p)),
      ),
    ),
  );
  await ch.close();
  process.exit(0);
}
