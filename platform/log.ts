// Structured JSON logs on stderr (stdout stays free for `--out -`).
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name = 'slotstream'): Logger {
  return pino({ name, level, base: { pid: process.pid } }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything: for tests and benchmarks. */
export const silentLogger: Logger = pino({ level: 'silent' });
