// The entry of `slotstream all`'s ingest process (cli/ingest-child.ts): its config comes from the primary
// (SLOTSTREAM_INGEST_CHILD: the primary's config as the ingest role on the brokers in use), it runs that role as
// `slotstream ingest` would, tells the primary its metrics port once the ingest runs, answers its metrics when the
// primary asks, and stops on the primary's word, a signal, or the primary gone. Exit 0 when a bounded source
// finishes (the primary does not restart it), 1 on a failure (it does).
import type { Config } from './config.js';
import { exitCodeOf } from './exit-codes.js';
import { createLogger } from '../platform/log.js';
import { resolveLogFormat } from '../platform/pretty-log.js';
import { answerPrimary, tellFailed, tellServing } from './child-link.js';
import { INGEST_CHILD_ENV } from './ingest-child.js';
import { startRole } from './roles.js';

async function main(): Promise<void> {
  const config = JSON.parse(process.env[INGEST_CHILD_ENV] ?? 'null') as Config | null;
  if (config === null || process.send === undefined) throw new Error(`ingest process: run by slotstream all only (no ${INGEST_CHILD_ENV})`);
  const log = createLogger(config.logLevel, 'slotstream', resolveLogFormat(config.logFormat, process.stderr.isTTY === true)).child({
    ingestProcess: process.pid,
  });
  let running: Awaited<ReturnType<typeof startRole>> | undefined;
  let stopping = false;
  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, 'ingest process stopping');
    void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(code));
  };
  answerPrimary((why) => stop(why, 0));
  try {
    running = await startRole(config, [], log);
  } catch (err) {
    log.fatal({ err }, 'ingest process failed to start');
    tellFailed((err as Error).message);
    process.exit(exitCodeOf(err) ?? 1);
  }
  tellServing({ metrics: running.metricsPort ?? 0 });
  running.done.then(
    () => stop('finished', 0),
    (err: unknown) => {
      log.error({ err }, 'ingest failed');
      stop('failure', 1);
    },
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
