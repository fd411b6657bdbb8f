// One typed, frozen config object for every role, built from command-line flags and environment variables
// (flags win). Each part declares its own options in its section (platform/options.ts's machinery: flag,
// environment variable, default, bounds, help); this file composes them into the one table that
// `slotstream <role> --help` prints and that an unknown or malformed option fails against, naming it.
import { API_LIMIT_OPTIONS, API_SERVING_OPTIONS } from '../api/options.js';
import { INGEST_OPTIONS } from '../ingest/options.js';
import { CLICKHOUSE_OPTIONS } from '../platform/clickhouse-options.js';
import { KAFKA_OPTIONS } from '../platform/kafka/options.js';
import { composeOptions, ConfigError, isRole, optionsHelp, parseOptions, ROLES, type Role, type ValuesOf } from '../platform/options.js';
import { PROCESS_OPTIONS } from '../platform/process-options.js';
import { PUMP_TABLE_OPTIONS } from '../platform/pump-tables-options.js';
import { PROJECTOR_OPTIONS } from '../projector/options.js';

export { ConfigError, flagOf, isRole, ROLES, type Role } from '../platform/options.js';

/** Every section's options, in --help's order (the pump tables sit between the api's serving options and its limits). */
export const OPTIONS = composeOptions(
  KAFKA_OPTIONS,
  CLICKHOUSE_OPTIONS,
  INGEST_OPTIONS,
  PROJECTOR_OPTIONS,
  API_SERVING_OPTIONS,
  PUMP_TABLE_OPTIONS,
  API_LIMIT_OPTIONS,
  PROCESS_OPTIONS,
);

export type Config = ValuesOf<typeof OPTIONS> & { readonly role: Role };

export interface ParsedArgs {
  config: Config;
  /** Positional arguments after the role (e.g. `projector rebuild`). */
  positionals: string[];
  help: boolean;
}

/**
 * Builds the config of a role from argv (after the role) and env. Flags: `--name value` or `--name=value`;
 * a bool flag alone means true. Env variables apply only to options of the role.
 */
export function parseConfig(role: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  if (!isRole(role)) throw new ConfigError(`unknown role ${JSON.stringify(role)}: expected one of ${ROLES.join(', ')}`);
  const { values, positionals, help } = parseOptions(OPTIONS, role, argv, env);
  return { config: Object.freeze({ ...values, role }) as Config, positionals, help };
}

/** Config for tests and embedding: defaults plus overrides, validated like the CLI's. */
export function makeConfig(role: Role, overrides: Partial<Omit<Config, 'role'>> = {}): Config {
  for (const name of Object.keys(overrides)) {
    if (!(name in OPTIONS)) throw new ConfigError(`unknown option ${name}`, name);
  }
  const base = parseConfig(role, [], {}).config;
  return Object.freeze({ ...base, ...overrides });
}

export const helpText = (role: Role): string => optionsHelp(OPTIONS, role);
