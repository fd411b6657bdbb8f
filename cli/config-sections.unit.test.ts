import { describe, expect, it } from 'vitest';
import { ConfigError, makeConfig, parseConfig } from './config.js';
import { configSections } from './config-sections.js';

describe('configSections', () => {
  it("groups the defaults by subsystem, in the consumers' own option shapes", () => {
    const s = configSections(makeConfig('all'));
    expect(s.kafka).toEqual({
      brokers: [],
      topicPrefix: 'solana',
      compression: { codec: 'zstd', level: -1 },
      topics: { partitions: 4, retentionMs: 7 * 24 * 3600 * 1000, replicationFactor: 1 },
      local: { nodes: 1, keepData: false },
    });
    expect(s.clickhouse).toEqual({ url: '', dataDir: '.data/clickhouse', database: 'slotstream', sessions: 1 });
    expect(s.api.grpc.stream.limits).toEqual({ maxFiltersPerKind: 100, maxKeysPerList: 10000, maxInstructionConditions: 64 });
    expect(s.api.grpc.geyser.limits).toEqual({
      maxFiltersPerKind: 100,
      maxKeysPerFilter: 10000,
      maxMemcmpBytes: 128,
      maxFilterNameBytes: 128,
      maxDataSlices: 16,
      maxCuckooBytes: 3 * 1024 * 1024,
    });
    expect(s.api.live).toEqual({
      pingIntervalMs: 10000,
      read: 'uncommitted',
      maxReplays: 8,
      kinds: ['slots', 'transactions', 'accounts', 'entries', 'parsed'],
    });
    expect(s.api.admission).toEqual({ maxRunning: 2, maxPerClient: 128 });
    // Streams in their own processes beside the engine: one per core beyond the first by default (issue 33).
    expect({ serve: s.api.serve, views: s.api.views, streamProcesses: s.api.streamProcesses }).toEqual({
      serve: 'all',
      views: { url: '', port: -1 },
      streamProcesses: -1,
    });
    expect(s.ingest.sim).toMatchObject({ seed: 1, slotMs: 400, entries: true, deadRate: 0.01 });
    expect(s.ingest.rpc).toMatchObject({ fromSlot: undefined, toSlot: undefined, concurrency: 8 });
    expect(s.log).toEqual({ level: 'info', format: 'auto' });
    // Retention off by default: ClickHouse keeps every block, transaction and account write, as before.
    expect(s.projector.retention).toEqual({ accountHistoryS: 0, transactionsS: 0 });
  });

  it('takes the Kafka codec and level together, rejecting an unknown codec or a level it lacks, naming both', () => {
    const s = configSections(parseConfig('all', ['--kafka-compression', 'zstd', '--kafka-compression-level', '3'], {}).config);
    expect(s.kafka.compression).toEqual({ codec: 'zstd', level: 3 });
    expect(() => parseConfig('all', ['--kafka-compression', 'brotli'], {})).toThrow(/--kafka-compression/);
    expect(() =>
      configSections(parseConfig('all', ['--kafka-compression', 'snappy', '--kafka-compression-level', '2'], {}).config),
    ).toThrow(/options --kafka-compression snappy --kafka-compression-level 2: Kafka compression codec snappy has no levels/);
  });

  it('takes the retention windows in seconds', () => {
    const s = configSections(
      parseConfig('projector', ['--retention-account-history-s', '86400', '--retention-transactions-s', '3600'], {}).config,
    );
    expect(s.projector.retention).toEqual({ accountHistoryS: 86400, transactionsS: 3600 });
  });

  it('puts the token, the keys file and the usage records in the access section, absent when off', () => {
    expect(configSections(makeConfig('api')).api.access).toEqual({});
    const on = configSections(makeConfig('api', { authToken: 't', keysFile: '/k.json', usageFile: '/u.jsonl', usageIntervalMs: 5000 }));
    expect(on.api.access).toEqual({ authToken: 't', keysFile: '/k.json', usage: { path: '/u.jsonl', intervalMs: 5000 } });
    expect(['authToken' in on.api.grpc, 'authToken' in on.api.jsonrpc, 'authToken' in on.api.pubsub]).toEqual([false, false, false]);
  });

  it('takes TLS as both files or neither', () => {
    expect(configSections(makeConfig('api')).api.tls).toBeUndefined();
    expect(configSections(makeConfig('api', { tlsCertFile: '/c.pem', tlsKeyFile: '/k.pem' })).api.tls).toEqual({
      certFile: '/c.pem',
      keyFile: '/k.pem',
    });
    expect(() => configSections(makeConfig('api', { tlsCertFile: '/c.pem' }))).toThrow(/--tls-cert-file and --tls-key-file: give both/);
  });

  it('maps the options\' "none" values (-1 slots, empty token) to absent ones', () => {
    const s = configSections(parseConfig('ingest', ['--source', 'rpc', '--from-slot', '5', '--to-slot', '9'], {}).config);
    expect([s.ingest.rpc.fromSlot, s.ingest.rpc.toSlot]).toEqual([5n, 9n]);
    expect(configSections(makeConfig('ingest', { yellowstoneUrl: ['http://a:1'], xToken: [] })).ingest.yellowstone.upstreams).toEqual([
      { url: 'http://a:1' },
    ]);
  });

  it('pairs --yellowstone-url endpoints with their tokens: one token for all, or one per endpoint', () => {
    const of = (args: string[]) =>
      configSections(parseConfig('ingest', ['--source', 'yellowstone', ...args], {}).config).ingest.yellowstone;
    const two = ['--yellowstone-url', 'https://a.example,http://127.0.0.1:10000'];
    expect(of([...two, '--x-token', 's']).upstreams).toEqual([
      { url: 'https://a.example', xToken: 's' },
      { url: 'http://127.0.0.1:10000', xToken: 's' },
    ]);
    expect(of([...two, '--x-token', 's1,s2', '--yellowstone-max-lag-slots', '8'])).toMatchObject({
      upstreams: [
        { url: 'https://a.example', xToken: 's1' },
        { url: 'http://127.0.0.1:10000', xToken: 's2' },
      ],
      maxLagSlots: 8,
    });
    expect(of(two).upstreams).toEqual([{ url: 'https://a.example' }, { url: 'http://127.0.0.1:10000' }]);
  });

  it("keeps the local broker's data under --data-dir when asked, and takes 1 or 3 nodes only", () => {
    const kept = configSections(parseConfig('kafka', ['--keep-kafka-data', '--kafka-nodes', '3', '--data-dir', '/d'], {}).config);
    expect(kept.kafka.local).toEqual({ nodes: 3, dataDir: '/d/kafka', keepData: true });
    expect(() => configSections(makeConfig('kafka', { kafkaNodes: 2 }))).toThrow(ConfigError);
    expect(() => configSections(makeConfig('kafka', { kafkaNodes: 2 }))).toThrow(/option --kafka-nodes: must be 1 or 3 \(got 2\)/);
  });

  it('gRPC response compression: zstd by default, all or none on request, anything else refused naming the option', () => {
    expect(configSections(makeConfig('api')).api.grpc.compress).toBe('zstd');
    expect(configSections(parseConfig('api', ['--grpc-compress', 'all'], {}).config).api.grpc.compress).toBe('all');
    expect(configSections(parseConfig('api', [], { GRPC_COMPRESS: 'none' }).config).api.grpc.compress).toBe('none');
    expect(() => parseConfig('api', ['--grpc-compress', 'brotli'], {})).toThrow(/--grpc-compress: must be one of zstd, all, none/);
  });
});
