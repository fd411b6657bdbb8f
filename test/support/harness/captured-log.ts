// A pino logger whose lines a test can read: to prove that a hostile request leaves no error-level line.
import { pino, type Logger } from 'pino';

export interface CapturedLog {
  log: Logger;
  /** Every line written, parsed. */
  lines: Record<string, unknown>[];
  /** The lines at error level or above (pino: 50 error, 60 fatal). */
  errors(): Record<string, unknown>[];
}

export function capturedLog(level = 'info'): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines, errors: () => lines.filter((l) => (l.level as number) >= 50) };
}
