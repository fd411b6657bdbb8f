// The generic machinery of options: how one option is declared (flag, environment variable, default, bounds,
// help), how a part groups its options into a section with a typed value, and how a table of options is parsed
// from argv and the environment and printed for --help. Each part declares its own section next to its Options
// type (e.g. ingest/sources/sim/options.ts); cli/config.ts composes them. Nothing here knows a role's options.
import { SlotstreamError } from '../schemas/errors.js';

export type Role = 'ingest' | 'projector' | 'api' | 'all' | 'kafka';
export const ROLES: readonly Role[] = ['ingest', 'projector', 'api', 'all', 'kafka'];
export const isRole = (s: string): s is Role => ROLES.some((r) => r === s);

/** The roles that run a service (every role but the local broker alone). */
export const SERVICE_ROLES: readonly Role[] = ['ingest', 'projector', 'api', 'all'];

type Kind = 'string' | 'int' | 'number' | 'bool' | 'list';

/** V: the values of a one-of string option (a literal union), or string for a free one. */
export interface OptionSpec<K extends Kind = Kind, V extends string = string> {
  kind: K;
  env: string;
  default: K extends 'int' | 'number' ? number : K extends 'bool' ? boolean : K extends 'list' ? string[] : V;
  help: string;
  /** Allowed values for string options. */
  oneOf?: readonly V[];
  min?: number;
  max?: number;
  /** The roles the option applies to: its flag and environment variable are refused (flag) or ignored (env) elsewhere. */
  roles: readonly Role[];
}

/** Options by name (the config field; the flag is the name in kebab case, see flagOf). */
export type OptionTable = Record<string, OptionSpec>;

export const opt = <K extends Kind>(spec: OptionSpec<K>): OptionSpec<K> => spec;

/** A one-of string option: its config value is typed as the union of its values, so no consumer casts it. */
export const choice = <const V extends string>(
  spec: Omit<OptionSpec<'string', V>, 'kind' | 'default' | 'oneOf'> & { default: NoInfer<V>; oneOf: readonly V[] },
): OptionSpec<'string', V> => ({ kind: 'string', ...spec });

/** The typed value of one option. */
export type ValueOf<S> =
  S extends OptionSpec<infer K, infer V>
    ? K extends 'int' | 'number'
      ? number
      : K extends 'bool'
        ? boolean
        : K extends 'list'
          ? readonly string[]
          : V
    : never;

/** The typed values of a table of options. */
export type ValuesOf<O extends OptionTable> = Readonly<{ [N in keyof O]: ValueOf<O[N]> }>;

/**
 * A part's options, how their values (with `C`, whatever else of the config it reads: another section's
 * values, the role) become the typed section its consumer takes, and the rules that span them (each option
 * alone is checked by parseOptions; `check` throws a ConfigError naming the options). The part declares it
 * beside its Options type; cli/ composes every section's options into one table, runs the checks of the
 * role's sections before anything starts, and calls `value` on the parsed config.
 */
export interface Section<O extends OptionTable, C, T> {
  readonly options: O;
  readonly value: (config: C) => T;
  readonly check: (config: C) => void;
}

export const defineSection = <const O extends OptionTable, C extends ValuesOf<O>, T>(
  options: O,
  value: (config: C) => T,
  check: (config: C) => void = () => undefined,
): Section<O, C, T> => ({ options, value, check });

/** The defaults of a table, as its values. */
export const defaultsOf = <O extends OptionTable>(options: O): ValuesOf<O> =>
  Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, spec.default])) as ValuesOf<O>;

/** Several tables as one, in order; a name or environment variable declared twice fails at load. */
export function composeOptions<const T extends readonly OptionTable[]>(...tables: T): UnionToIntersection<T[number]> {
  const out: OptionTable = {};
  const envs = new Set<string>();
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table)) {
      if (name in out) throw new Error(`option ${name} is declared twice`);
      if (envs.has(spec.env)) throw new Error(`environment variable ${spec.env} is declared twice`);
      envs.add(spec.env);
      out[name] = spec;
    }
  }
  return out as UnionToIntersection<T[number]>;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * A configuration mistake (catalogue code SLOTSTREAM_CONFIG_INVALID, or SLOTSTREAM_CONFIG_UNKNOWN_OPTION when
 * `option` names an option that does not exist or does not apply); the CLI maps the codes to its exit code
 * (2, the message alone). Every part's config mistakes are this one type.
 */
export class ConfigError extends SlotstreamError<'SLOTSTREAM_CONFIG_INVALID' | 'SLOTSTREAM_CONFIG_UNKNOWN_OPTION'> {
  override name = 'ConfigError';
  constructor(message: string, option?: string) {
    if (option === undefined) super('SLOTSTREAM_CONFIG_INVALID', message, {});
    else super('SLOTSTREAM_CONFIG_UNKNOWN_OPTION', message, { option });
  }
}

/** `--kafka-brokers` for `kafkaBrokers`. */
export const flagOf = (name: string): string => '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

function parseValue(name: string, spec: OptionSpec, raw: string, origin: string): unknown {
  const bad = (why: string) => new ConfigError(`${origin}: ${why} (got ${JSON.stringify(raw)})`);
  switch (spec.kind) {
    case 'string':
      if (spec.oneOf && !spec.oneOf.includes(raw)) throw bad(`must be one of ${spec.oneOf.join(', ')}`);
      return raw;
    case 'bool':
      if (['true', '1', 'yes', ''].includes(raw)) return true;
      if (['false', '0', 'no'].includes(raw)) return false;
      throw bad('must be true or false');
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    case 'int':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw bad('must be a number');
      if (spec.kind === 'int' && !Number.isSafeInteger(n)) throw bad('must be a whole number');
      if (spec.min !== undefined && n < spec.min) throw bad(`must be at least ${spec.min}`);
      if (spec.max !== undefined && n > spec.max) throw bad(`must be at most ${spec.max}`);
      return n;
    }
  }
  throw new ConfigError(`option ${name} has no parser`);
}

export interface ParsedOptions {
  /** Every option of the table: its default, the environment's value, or the flag's. */
  values: Record<string, unknown>;
  /** Positional arguments after the role (e.g. `projector rebuild`). */
  positionals: string[];
  help: boolean;
}

/**
 * Parses argv (after the role) and env against a table. Flags: `--name value` or `--name=value`; a bool flag
 * alone means true. Env variables apply only to options of the role; a flag of another role or none fails.
 */
export function parseOptions(table: OptionTable, role: Role, argv: readonly string[], env: NodeJS.ProcessEnv): ParsedOptions {
  const byFlag = new Map<string, string>();
  for (const name of Object.keys(table)) byFlag.set(flagOf(name), name);
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    values[name] = spec.default;
    const raw = env[spec.env];
    if (raw !== undefined && spec.roles.includes(role)) values[name] = parseValue(name, spec, raw, `environment ${spec.env}`);
  }
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const name = byFlag.get(flag);
    if (name === undefined) throw new ConfigError(`unknown option ${flag} for role ${role} (see slotstream ${role} --help)`, flag);
    const spec = table[name]!;
    if (!spec.roles.includes(role)) throw new ConfigError(`option ${flag} does not apply to role ${role}`, flag);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (spec.kind === 'bool' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'))) raw = 'true';
    else if (argv[i + 1] === undefined) throw new ConfigError(`option ${flag} needs a value`);
    else raw = argv[++i]!;
    values[name] = parseValue(name, spec, raw, `option ${flag}`);
  }
  return { values, positionals, help };
}

/** The --help text of a role: each of its options with flag, environment variable, default and meaning. */
export function optionsHelp(table: OptionTable, role: Role): string {
  const lines = [`slotstream ${role} [options]`, '', 'Options (flag, environment variable, default):'];
  for (const [name, spec] of Object.entries(table)) {
    if (!spec.roles.includes(role)) continue;
    const def = Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
    lines.push(`  ${flagOf(name)} (${spec.env}, default ${JSON.stringify(def)})`, `      ${spec.help}`);
  }
  return lines.join('\n');
}
