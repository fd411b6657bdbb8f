// slotstream <role> [options]: the one command-line program. It only wires: parse config, start the
// role's parts, and stop them in reverse order on SIGINT/SIGTERM.
import { exitCodeOf } from './exit-codes.js';
import { helpText, isRole, parseConfig, type ParsedArgs, type Role } from './config.js';
import { createLogger, type Logger } from '../platform/log.js';
import { resolveLogFormat } from '../platform/pretty-log.js';
import { validateBeforeStart } from './validate.js';

type StartRole = typeof import('./roles.js').startRole;

const USAGE = `usage: slotstream <role> [options]

roles:
  all        the whole service: the engine process and its stream processes (local Kafka when KAFKA_BROKERS is
             unset, embedded ClickHouse; --stream-processes 0 for one process)
  ingest     read a chain source and publish events to Kafka
  projector  build the ClickHouse views from Kafka ("projector rebuild" replays history into fresh views)
  api        serve gRPC streams, PubSub and JSON-RPC (--serve streams: streams only, no ClickHouse opened)
  kafka      run the local Kafka broker alone

slotstream <role> --help lists the role's options.`;

type Running = Awaited<ReturnType<StartRole>>;

async function main(argv: string[]): Promise<number> {
  const [role, ...rest] = argv;
  if (role === undefined || role === '--help' || role === '-h' || role === 'help') {
    console.log(USAGE);
    return role === undefined ? 2 : 0;
  }
  if (!isRole(role)) {
    console.error(`slotstream: unknown role ${JSON.stringify(role)}\n\n${USAGE}`);
    return 2;
  }
  const parsed = parseArgs(role, rest);
  if (typeof parsed === 'number') return parsed;
  if (parsed.help) {
    console.log(helpText(role));
    return 0;
  }
  const log = createLogger(parsed.config.logLevel, 'slotstream', resolveLogFormat(parsed.config.logFormat, process.stderr.isTTY === true));
  // Taken before anything starts: Node's default for SIGINT/SIGTERM ends the process at once, and one during the start
  // (Ctrl-C while `npm start` brings up its broker) left the local broker's JVM and the child processes running.
  const signalled = stopSignal();
  let started = false;
  void signalled.then((why) => {
    if (!started) log.info({ why }, 'stopping once the start is done (again to end at once)');
  });
  const running = await start(role, parsed, log);
  started = true;
  if (typeof running === 'number') return running;
  return runUntilStopped(role, running, log, signalled);
}

/** The first SIGINT or SIGTERM; a second one has Node's default (ends the process), for a stop that hangs. */
function stopSignal(): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** The role's config, or the exit code of a config mistake (told on stderr). */
function parseArgs(role: Role, rest: string[]): ParsedArgs | number {
  try {
    const parsed = parseConfig(role, rest);
    // Before anything starts (a local broker is a JVM): a config mistake fails here, in a second.
    if (!parsed.help) validateBeforeStart(parsed.config, parsed.positionals);
    return parsed;
  } catch (err) {
    const code = exitCodeOf(err);
    if (code === undefined) throw err;
    console.error(`slotstream ${role}: ${(err as Error).message}`);
    return code;
  }
}

/** The role's running parts, or the exit code when they failed to start (logged). */
async function start(role: Role, parsed: ParsedArgs, log: Logger): Promise<Running | number> {
  try {
    // Loaded only now: a config error or --help never loads the Kafka and ClickHouse clients.
    const { startRole } = await import('./roles.js');
    return await startRole(parsed.config, parsed.positionals, log);
  } catch (err) {
    // Config errors only found against the running system (an ingest name already in use) read as the others do.
    const code = exitCodeOf(err);
    if (code !== undefined) {
      log.fatal(`slotstream ${role}: ${(err as Error).message}`);
      return code;
    }
    log.fatal({ err }, `${role} failed to start`);
    return 1;
  }
}

/** Stops the parts once, on SIGINT/SIGTERM (one during the start stops them once started) or when the role finishes or
 * fails; resolves to the exit code. */
function runUntilStopped(role: Role, running: Running, log: Logger, signalled: Promise<string>): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (why: string, code: number) => {
      if (stopping) return;
      stopping = true;
      log.info({ why }, 'stopping');
      running
        .stop()
        .then(() => resolve(code))
        .catch((err: unknown) => {
          log.error({ err }, 'error while stopping');
          resolve(1);
        });
    };
    void signalled.then((why) => stop(why, 0));
    running.done.then(
      () => stop('finished', 0),
      (err: unknown) => {
        log.error({ err }, `${role} failed`);
        stop('failure', 1);
      },
    );
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Give pino's async destination a moment to flush, then leave even if a library keeps a handle open.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
