import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';
import { checkConfigRules } from './config-rules.js';
import { apiSection } from './config-sections.js';

/** parseConfig then the rules, as the CLI runs them. */
const check = (role: string, argv: string[], env: NodeJS.ProcessEnv = {}): void => {
  const { config, positionals } = parseConfig(role, argv, env);
  checkConfigRules(config, positionals);
};

describe('checkConfigRules', () => {
  it('accepts the documented commands', () => {
    expect(() => check('all', [])).not.toThrow();
    expect(() => check('ingest', ['--source', 'sim', '--tps', '2000'])).not.toThrow();
    expect(() => check('ingest', ['--source', 'file', '--source-path', 'ingest/sources/file/example.jsonl'])).not.toThrow();
    expect(() => check('ingest', ['--out', 'fixture.jsonl', '--max-slots', '100'])).not.toThrow();
    expect(() => check('ingest', ['--source', 'file', '--source-path', '-', '--out', '-'])).not.toThrow();
    expect(() => check('projector', ['rebuild'])).not.toThrow();
    expect(() => check('kafka', ['--kafka-nodes', '3'])).not.toThrow();
    expect(() => check('api', ['--grpc-port', '0', '--rpc-port', '0', '--metrics-port', '0'])).not.toThrow();
  });

  it('--live-topics: data topics the streams read, each once; the slots topic always (apiSection adds it)', () => {
    expect(() => check('api', ['--live-topics', 'parsed'])).not.toThrow();
    expect(() => check('all', [], { LIVE_TOPICS: 'transactions,accounts' })).not.toThrow();
    expect(() => check('api', ['--live-topics', 'parsed,slots'])).toThrow(
      /option --live-topics: "slots" is not one of transactions, accounts, entries, parsed \(the slots topic is always read\)/,
    );
    expect(() => check('api', ['--live-topics', 'parsed,parsed'])).toThrow(/option --live-topics: parsed is named twice/);
    const { config } = parseConfig('api', ['--live-topics', 'parsed'], {});
    expect(apiSection(config).live.kinds).toEqual(['slots', 'parsed']);
    expect(apiSection(parseConfig('api', [], {}).config).live.kinds).toEqual(['slots', 'transactions', 'accounts', 'entries', 'parsed']);
  });

  it('takes --source none for role all only (the ingest runs apart), naming the rule otherwise', () => {
    expect(() => check('all', ['--source', 'none'])).not.toThrow();
    expect(() => check('all', [], { INGEST_SOURCE: 'none' })).not.toThrow();
    expect(() => check('ingest', ['--source', 'none'])).toThrow(/--source none applies only to role all .*role ingest needs a source/);
    expect(() => check('all', ['--source', 'none', '--strict', 'true'])).toThrow(
      /--strict applies only to --source file \(source is none\)/,
    );
  });

  it('needs an endpoint for the yellowstone source, from flags and from the environment, and keeps its options to it', () => {
    expect(() => check('ingest', ['--source', 'yellowstone'])).toThrow(
      /--source yellowstone needs --yellowstone-url https:\/\/<host>\[:port\] or http:\/\/<host>:<port> \(got ""\)/,
    );
    expect(() => check('all', [], { INGEST_SOURCE: 'yellowstone' })).toThrow(/--source yellowstone needs --yellowstone-url/);
    expect(() => check('ingest', ['--source', 'yellowstone', '--yellowstone-url', 'grpc.example:443'])).toThrow(/needs --yellowstone-url/);
    expect(() =>
      check('ingest', ['--source', 'yellowstone', '--yellowstone-url', 'https://grpc.example', '--x-token', 't', '--votes', 'exclude']),
    ).not.toThrow();
    expect(() =>
      check('ingest', [
        '--source',
        'yellowstone',
        '--yellowstone-url',
        'http://127.0.0.1:10000',
        '--yellowstone-subscribe',
        'entries,blocks',
      ]),
    ).toThrow(/option --yellowstone-subscribe: "blocks" is not one of transactions, accounts, entries/);
    expect(() => check('ingest', ['--x-token', 'secret'])).toThrow(
      /option --x-token applies only to --source yellowstone \(source is sim\)/,
    );
    expect(() => check('ingest', ['--yellowstone-owners', 'Vote111111111111111111111111111111111111111'])).toThrow(
      /option --yellowstone-owners applies only to --source yellowstone/,
    );
    // Several endpoints: each checked, none twice, tokens one for all or one each, the lag limit only with several.
    const ys = ['--source', 'yellowstone', '--yellowstone-url'];
    expect(() => check('ingest', [...ys, 'https://a.example,http://127.0.0.1:1', '--x-token', 'a,b'])).not.toThrow();
    expect(() => check('ingest', [...ys, 'https://a.example,grpc.example:443'])).toThrow(
      /needs --yellowstone-url .*\(got "grpc.example:443"\)/,
    );
    expect(() => check('ingest', [...ys, 'https://a.example,https://a.example'])).toThrow(
      /option --yellowstone-url: https:\/\/a.example is given twice/,
    );
    expect(() => check('ingest', [...ys, 'https://a.example,https://b.example', '--x-token', 'a,b,c'])).toThrow(
      /option --x-token: 3 tokens for 2 endpoints/,
    );
    expect(() => check('ingest', [...ys, 'https://a.example', '--yellowstone-max-lag-slots', '9'])).toThrow(
      /option --yellowstone-max-lag-slots applies only to several --yellowstone-url endpoints/,
    );
    expect(() => check('ingest', ['--yellowstone-max-lag-slots', '9'])).toThrow(/applies only to --source yellowstone/);
    // Roles without an ingest ignore the ingest's environment.
    expect(() => check('api', [], { INGEST_SOURCE: 'yellowstone' })).not.toThrow();
  });

  it('needs a path for the file source, and refuses file-only options with another source', () => {
    expect(() => check('ingest', ['--source', 'file'])).toThrow(/--source file needs --source-path <file> \(or - for standard input\)/);
    expect(() => check('ingest', ['--source-path', 'x.jsonl'])).toThrow(
      /option --source-path applies only to --source file \(source is sim\)/,
    );
    expect(() => check('ingest', ['--strict'])).toThrow(/option --strict applies only to --source file/);
  });

  it('keeps --out to the ingest role and away from its own input', () => {
    expect(() => check('all', ['--out', 'x.jsonl'])).toThrow(
      /option --out writes events to a file instead of Kafka: use it with the ingest role/,
    );
    expect(() => check('ingest', ['--source', 'file', '--source-path', 'a.jsonl', '--out', 'a.jsonl'])).toThrow(
      /options --out and --source-path name the same file \(a\.jsonl\)/,
    );
  });

  it('rejects arguments a role does not take, naming them', () => {
    expect(() => check('projector', ['rebuilt'])).toThrow(/unexpected argument "rebuilt" for role projector \(expected: rebuild\)/);
    expect(() => check('projector', ['rebuild', 'now'])).toThrow(/unexpected argument "now" for role projector/);
    expect(() => check('api', ['serve'])).toThrow(/unexpected argument "serve" for role api$/);
  });

  it('allows a local cluster of 1 or 3 nodes only', () => {
    expect(() => check('kafka', ['--kafka-nodes', '2'])).toThrow(/option --kafka-nodes: must be 1 or 3 \(got 2\)/);
  });

  it('rejects two servers of one process on the same port, naming both options', () => {
    expect(() => check('api', ['--grpc-port', '9090'])).toThrow(/options --metrics-port and --grpc-port both use port 9090/);
    expect(() => check('all', ['--rpc-port', '10000'])).toThrow(/options --grpc-port and --rpc-port both use port 10000/);
    expect(() => check('api', ['--pubsub-port', '8899'])).toThrow(/options --rpc-port and --pubsub-port both use port 8899/);
    // The ingest serves only metrics: the api's ports do not concern it.
    expect(() => check('ingest', [], { GRPC_PORT: '9090' })).not.toThrow();
  });

  it('needs a node URL for the rpc source, and keeps its range options to it', () => {
    expect(() => check('ingest', ['--source', 'rpc'])).toThrow(/--source rpc needs --rpc-url http\(s\):\/\/<node> \(got ""\)/);
    expect(() =>
      check('ingest', ['--source', 'rpc', '--rpc-url', 'http://127.0.0.1:8899', '--from-slot', '100', '--to-slot', '200']),
    ).not.toThrow();
    expect(() => check('ingest', ['--source', 'rpc', '--rpc-url', 'http://x', '--from-slot', '10', '--to-slot', '9'])).toThrow(
      /option --to-slot 9 is before --from-slot 10/,
    );
    expect(() => check('ingest', ['--from-slot', '5'])).toThrow(/option --from-slot applies only to --source rpc \(source is sim\)/);
    expect(() => check('ingest', ['--source', 'rpc', '--rpc-url', 'http://x', '--rpc-concurrency', '0'])).toThrow(
      /--rpc-concurrency: must be at least 1/,
    );
    expect(() => check('ingest', ['--source', 'rpc', '--rpc-url', 'http://x', '--rpc-timeout'])).toThrow(/unknown option --rpc-timeout/);
  });

  it('takes an ingest name of lowercase letters, digits, . _ -, and rejects anything else naming the option', () => {
    expect(() => check('ingest', ['--ingest-name', 'mainnet-1'])).not.toThrow();
    expect(() => check('ingest', [], { INGEST_NAME: 'backfill.2024_q1' })).not.toThrow();
    expect(() => check('ingest', ['--ingest-name', 'Main'])).toThrow(/option --ingest-name: must be 1-64 characters of a-z, 0-9/);
    expect(() => check('ingest', ['--ingest-name', ''])).toThrow(/option --ingest-name/);
    expect(() => check('ingest', ['--ingest-name', '-x'])).toThrow(/starting with a letter or digit \(got "-x"\)/);
    expect(() => check('ingest', ['--ingest-name', 'a'.repeat(65)])).toThrow(/option --ingest-name/);
  });

  it('keeps lag limits to upstream sources and snapshot programs to the rpc source, checking the program ids', () => {
    const rpc = ['--source', 'rpc', '--rpc-url', 'http://127.0.0.1:8899'];
    expect(() => check('ingest', [...rpc, '--ingest-stall-ms', '5000', '--ingest-max-lag-slots', '20'])).not.toThrow();
    expect(() => check('ingest', ['--ingest-stall-ms', '5000'])).toThrow(
      /option --ingest-stall-ms applies only to --source rpc and yellowstone \(source is sim\)/,
    );
    expect(() =>
      check('ingest', [
        ...rpc,
        '--rpc-snapshot-programs',
        'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA,6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P',
      ]),
    ).not.toThrow();
    expect(() => check('ingest', [...rpc, '--rpc-snapshot-programs', 'Tokenkeg0'])).toThrow(
      /option --rpc-snapshot-programs: "Tokenkeg0" is not a base58 program id/,
    );
    expect(() => check('ingest', [...rpc, '--rpc-snapshot-programs', '11111111111111111111111111111111111'])).toThrow(
      /is not a base58 program id/,
    );
    expect(() => check('ingest', ['--rpc-snapshot-programs', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'])).toThrow(
      /option --rpc-snapshot-programs applies only to --source rpc/,
    );
  });

  it('throws ConfigError, which the CLI prints without a stack', () => {
    expect(() => check('ingest', ['--source', 'rpc'])).toThrow(ConfigError);
  });
});

describe('api --serve and the views endpoint (issue 33)', () => {
  const check = (role: 'api' | 'all', argv: string[]) => checkConfigRules(parseConfig(role, argv, {}).config, []);
  it('takes a stream-only api on brokers, with or without a views URL, and an engine serving the endpoint', () => {
    expect(() => check('api', ['--serve', 'streams', '--kafka-brokers', 'k:9092'])).not.toThrow();
    expect(() => check('api', ['--serve', 'streams', '--kafka-brokers', 'k:9092', '--views-url', 'http://engine:8901'])).not.toThrow();
    expect(() => check('api', ['--views-port', '8901'])).not.toThrow();
    expect(() => check('all', ['--stream-processes', '0'])).not.toThrow();
  });
  it('refuses what would be ignored or cannot work, naming the options', () => {
    expect(() => check('api', ['--serve', 'streams'])).toThrow(
      /--serve streams serves the chain an existing Kafka holds: give --kafka-brokers/,
    );
    expect(() => check('api', ['--views-url', 'http://engine:8901'])).toThrow(/--views-url applies only to --serve streams/);
    expect(() => check('api', ['--serve', 'streams', '--kafka-brokers', 'k:9092', '--views-url', 'engine:8901'])).toThrow(
      /--views-url: expected http\(s\):\/\/host:port/,
    );
    expect(() => check('api', ['--serve', 'streams', '--kafka-brokers', 'k:9092', '--views-port', '8901'])).toThrow(
      /--views-port serves the views/,
    );
    expect(() => check('api', ['--views-port', '9090'])).toThrow(/--metrics-port and --views-port both use port 9090/);
    expect(() => parseConfig('api', ['--serve', 'everything'], {})).toThrow(/--serve/);
    expect(() => parseConfig('api', ['--stream-processes', '2'], {})).toThrow(/--stream-processes/);
  });
});
