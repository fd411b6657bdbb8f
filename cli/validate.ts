// Everything about a role's config that can be known before anything starts: the cross-option rules
// (cli/config-rules.ts) and the files the options name. main.ts runs it before startRole, so a typo
// fails in a second with a message naming the option, before a local Kafka broker (a JVM) is started.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, flagOf, type Config } from './config.js';
import { checkConfigRules } from './config-rules.js';

export function validateBeforeStart(config: Config, positionals: readonly string[]): void {
  checkConfigRules(config, positionals);
  const ingest = config.role === 'ingest' || config.role === 'all';
  if (ingest && config.source === 'file' && config.sourcePath !== '-') checkInputFile(config.sourcePath);
  if (ingest && config.out !== '' && config.out !== '-') checkOutputFile(config.out);
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function checkInputFile(path: string): void {
  const flag = flagOf('sourcePath');
  const st = statOf(path);
  if (st === undefined) throw new ConfigError(`option ${flag}: no such file ${JSON.stringify(path)}`);
  if (st.isDirectory()) throw new ConfigError(`option ${flag}: ${JSON.stringify(path)} is a directory, not a file`);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new ConfigError(`option ${flag}: cannot read ${JSON.stringify(path)} (permission denied)`);
  }
}

function checkOutputFile(path: string): void {
  const flag = flagOf('out');
  const st = statOf(path);
  if (st?.isDirectory()) throw new ConfigError(`option ${flag}: ${JSON.stringify(path)} is a directory, not a file`);
  const dir = dirname(resolve(path));
  if (!statOf(dir)?.isDirectory()) throw new ConfigError(`option ${flag}: no such directory ${JSON.stringify(dir)}`);
  try {
    accessSync(st === undefined ? dir : path, constants.W_OK);
  } catch {
    throw new ConfigError(`option ${flag}: cannot write ${JSON.stringify(path)} (permission denied)`);
  }
}
