// What every process has: its metrics server and its logs.
import { choice, defineSection, opt, ROLES, SERVICE_ROLES, type ValuesOf } from './options.js';

export const PROCESS_OPTIONS = {
  metricsPort: opt({
    kind: 'int',
    env: 'METRICS_PORT',
    default: 9090,
    min: 0,
    max: 65535,
    roles: SERVICE_ROLES,
    help: 'Prometheus /metrics and /health port (0 = any free port).',
  }),
  logLevel: choice({
    env: 'LOG_LEVEL',
    default: 'info',
    oneOf: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
    roles: ROLES,
    help: 'Log level (logs go to stderr).',
  }),
  logFormat: choice({
    env: 'LOG_FORMAT',
    default: 'auto',
    oneOf: ['auto', 'json', 'pretty'],
    roles: ROLES,
    help: 'Log format: json (one JSON object per line), pretty (one readable line per entry), auto (pretty when stderr is a terminal, else json).',
  }),
};

type ProcessValues = ValuesOf<typeof PROCESS_OPTIONS>;
export type LogLevel = ProcessValues['logLevel'];
export type LogFormatOption = ProcessValues['logFormat'];

export interface ProcessSection {
  metrics: { host: string; port: number };
  log: { level: LogLevel; format: LogFormatOption };
}

/** `host`: the address the api's servers bind to (api/options.ts), the metrics server's too. */
export const PROCESS_SECTION = defineSection(PROCESS_OPTIONS, (c: ProcessValues & { host: string }): ProcessSection => ({
  metrics: { host: c.host, port: c.metricsPort },
  log: { level: c.logLevel, format: c.logFormat },
}));
