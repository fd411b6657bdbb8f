// Human log lines for a terminal: `12:34:56.789Z INFO  message key=value …`, one per entry, no colours
// (readable in any terminal, in a pasted bug report, and with NO_COLOR). pino still builds the JSON line;
// this destination reshapes it on the same thread (no worker-thread transport, whose queued lines
// can be lost when the process exits right after a fatal one).
export type LogFormat = 'json' | 'pretty';

/** `auto` (the config default) is pretty for a person at a terminal and JSON for anything else. */
export function resolveLogFormat(requested: string, stderrIsTTY: boolean): LogFormat {
  if (requested === 'json' || requested === 'pretty') return requested;
  return stderrIsTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every line has (shown in the fixed columns) or that a person does not need on each line. */
const HIDDEN = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'name', 'v']);

/** Longest value shown for one field: a line stays a line even when a field holds a big object. */
const MAX_VALUE_CHARS = 200;

function timeOf(ms: unknown): string {
  const d = typeof ms === 'number' ? new Date(ms) : new Date(NaN);
  return Number.isNaN(d.getTime()) ? '--:--:--.---' : d.toISOString().slice(11, 23) + 'Z';
}

function valueText(v: unknown): string {
  let text: string;
  if (typeof v === 'string') text = /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  else text = JSON.stringify(v) ?? String(v);
  return text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS) + '…' : text;
}

interface SerializedError {
  type?: string;
  message?: string;
  stack?: string;
}

function errorLines(err: SerializedError, withStack: boolean): { field: string; stack: string[] } {
  const field = valueText(err.message ?? err.type ?? '');
  if (!withStack || typeof err.stack !== 'string') return { field, stack: [] };
  return { field, stack: err.stack.split('\n').map((l) => '    ' + l.trim()) };
}

/**
 * One pino JSON line (with or without its trailing newline) as a human line, ending in a newline.
 * Errors show their message inline and, at error level and above, their stack indented below.
 * A line that is not JSON is passed through unchanged.
 */
export function formatPrettyLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine.endsWith('\n') ? jsonLine : jsonLine + '\n';
  }
  if (entry === null || typeof entry !== 'object') return jsonLine.trimEnd() + '\n';
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const label = LEVELS[level] ?? `L${level}`;
  const parts = [timeOf(entry.time), label.padEnd(5), typeof entry.msg === 'string' ? entry.msg : ''];
  let stack: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if ((key === 'err' || key === 'error') && value !== null && typeof value === 'object') {
      const e = errorLines(value, level >= 50);
      parts.push(`${key}=${e.field}`);
      stack = e.stack;
      continue;
    }
    parts.push(`${key}=${valueText(value)}`);
  }
  return [parts.filter((p) => p !== '').join(' '), ...stack].join('\n') + '\n';
}

/** What pino needs from a destination. */
export interface LineSink {
  write(line: string): unknown;
}

/**
 * A pino destination that reshapes each entry and hands it to `target`. pino calls write once per entry,
 * so no line is ever split. Give it a synchronous target (pino.destination({ sync: true })): terminal
 * output is small, and a sync write keeps every line even on process.exit().
 */
export function prettyDestination(target: LineSink): LineSink {
  return { write: (line: string) => target.write(formatPrettyLine(line)) };
}
