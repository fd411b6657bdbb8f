import { describe, expect, it } from 'vitest';
import { loggedPorts, servedPorts } from './served-ports.js';

const METRICS = '{"level":30,"port":45013,"msg":"metrics and health on /metrics and /health"}';
const SERVING =
  '{"level":30,"grpc":"127.0.0.1:39089","jsonrpc":"http://127.0.0.1:43325/","pubsub":"ws://127.0.0.1:37623/","msg":"api is serving"}';

describe('served ports', () => {
  it('reads every port from the JSON log, skipping lines that are not JSON', () => {
    const log = ['not json', METRICS, '{"msg":"projector is running"}', SERVING, '{"msg":"api is serv'].join('\n');
    expect(servedPorts(log)).toEqual({ grpc: 39089, rpc: 43325, pubsub: 37623, metrics: 45013 });
  });

  it('names the line still missing; loggedPorts gives what is there so far', () => {
    expect(loggedPorts(METRICS)).toEqual({ metrics: 45013 });
    expect(() => servedPorts(METRICS)).toThrow(/no "api is serving" line/);
    expect(() => servedPorts(SERVING)).toThrow(/no "metrics and health" line/);
    expect(() => servedPorts(`${METRICS}\n{"grpc":"nowhere","msg":"api is serving"}`)).toThrow(/no port in "nowhere"/);
  });
});
