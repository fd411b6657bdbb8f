// Rules that span several options (each option alone is checked by parseConfig). Pure: the CLI runs them,
// with the file checks of cli/validate.ts, before it starts anything, so a mistake costs a second and
// not a broker start (issue 10: "config errors that can be known before starting anything"). Each part's
// own rules live in its section (ingest/options.ts, api/options.ts, ...); here are the role's sections chosen
// and the rules that span parts (positionals, ports).
import { API_SECTION } from '../api/options.js';
import { INGEST_SECTION } from '../ingest/options.js';
import { compressionOf } from '../platform/kafka/options.js';
import { ConfigError, flagOf, type Config, type Role } from './config.js';

/** Positional arguments each role accepts (`projector rebuild`). */
const POSITIONALS: Readonly<Record<Role, readonly string[]>> = {
  projector: ['rebuild'],
  ingest: [],
  api: [],
  all: [],
  kafka: [],
};

const hasIngest = (role: Role) => role === 'ingest' || role === 'all';
const hasApi = (role: Role) => role === 'api' || role === 'all';

export function checkConfigRules(config: Config, positionals: readonly string[]): void {
  checkPositionals(config.role, positionals);
  if (config.role === 'kafka' && config.kafkaNodes !== 1 && config.kafkaNodes !== 3) {
    throw new ConfigError(`option ${flagOf('kafkaNodes')}: must be 1 or 3 (got ${config.kafkaNodes})`);
  }
  if (hasIngest(config.role)) INGEST_SECTION.check(config);
  if (config.role !== 'kafka') compressionOf(config);
  if (hasApi(config.role)) API_SECTION.check(config);
  checkPorts(config);
}

function checkPositionals(role: Role, positionals: readonly string[]): void {
  const allowed = POSITIONALS[role];
  const extra = positionals.length > 1 ? positionals[1] : positionals.find((p) => !allowed.includes(p));
  if (extra === undefined) return;
  const expected = allowed.length > 0 ? ` (expected: ${allowed.join(', ')})` : '';
  throw new ConfigError(`unexpected argument ${JSON.stringify(extra)} for role ${role}${expected}`);
}

/** Servers of one process cannot share a port (0 = any free port, always fine). */
function checkPorts(config: Config): void {
  if (config.role === 'kafka') return;
  const ports: [string, number][] = [['metricsPort', config.metricsPort]];
  if (hasApi(config.role)) ports.push(['grpcPort', config.grpcPort], ['rpcPort', config.rpcPort], ['pubsubPort', config.pubsubPort]);
  if (config.role === 'api' && config.viewsPort > 0) ports.push(['viewsPort', config.viewsPort]);
  const seen = new Map<number, string>();
  for (const [name, port] of ports) {
    if (port === 0) continue;
    const other = seen.get(port);
    if (other !== undefined) throw new ConfigError(`options ${flagOf(other)} and ${flagOf(name)} both use port ${port}`);
    seen.set(port, name);
  }
}
