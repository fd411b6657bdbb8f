import { describe, expect, it } from 'vitest';
import { makeConfig } from './config.js';
import { configSections } from './config-sections.js';
import { streamProcessCount, workerConfig } from './stream-workers.js';

describe('stream processes', () => {
  it('-1 is one per core beyond the engine’s, at least one; a count is taken as it is', () => {
    expect([1, 2, 4, 16].map((cores) => streamProcessCount(-1, cores))).toEqual([1, 1, 3, 15]);
    expect(streamProcessCount(0, 16)).toBe(0);
    expect(streamProcessCount(5, 2)).toBe(5);
  });

  it("a worker's config is the primary's as a stream-only api on the brokers in use and the engine's endpoint", () => {
    const primary = makeConfig('all', { grpcPort: 10001, pubsubPort: 8901, authToken: 't', maxReplays: 3, streamProcesses: 4 });
    const w = workerConfig(primary, ['127.0.0.1:39092'], 'http://127.0.0.1:40001');
    const api = configSections(w).api;
    expect({ role: w.role, serve: api.serve, views: api.views, brokers: w.kafkaBrokers, streamProcesses: api.streamProcesses }).toEqual({
      role: 'api',
      serve: 'streams',
      views: { url: 'http://127.0.0.1:40001', port: -1 },
      brokers: ['127.0.0.1:39092'],
      streamProcesses: 0,
    });
    // The public listeners and the limits are the primary's: the workers share its ports.
    expect([api.grpc.port, api.pubsub.port, api.access.authToken, api.live.maxReplays]).toEqual([10001, 8901, 't', 3]);
    // It crosses to the worker as JSON.
    expect(JSON.parse(JSON.stringify(w))).toEqual(w);
  });
});
