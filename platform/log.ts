// Logs on stderr (stdout stays free for `--out -`): JSON lines for machines, or one readable line per
// entry for a person at a terminal (./pretty-log.ts); the CLI picks with --log-format.
import { pino, type Logger } from 'pino';
import { prettyDestination, type LogFormat } from './pretty-log.js';

export type { Logger, LogFormat };

export function createLogger(level: string, name = 'slotstream', format: LogFormat = 'json'): Logger {
  const options = { name, level, base: { pid: process.pid } };
  if (format === 'pretty') return pino(options, prettyDestination(pino.destination({ fd: 2, sync: true })));
  return pino(options, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything: for tests and benchmarks. */
export const silentLogger: Logger = pino({ level: 'silent' });
