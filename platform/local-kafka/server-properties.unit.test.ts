import { describe, expect, it } from 'vitest';
import { BROKER_MAX_MESSAGE_BYTES, newClusterId, serverProperties, type NodeAddress } from './server-properties.js';

const parse = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

const three: NodeAddress[] = [
  { id: 1, brokerPort: 9001, controllerPort: 9101 },
  { id: 2, brokerPort: 9002, controllerPort: 9102 },
  { id: 3, brokerPort: 9003, controllerPort: 9103 },
];

describe('serverProperties', () => {
  it('configures a single dev node: combined roles, replication 1, no auto-create, big records', () => {
    const p = parse(serverProperties({ nodeId: 1, nodes: [three[0]!], logDir: '/tmp/x/data' }));
    expect(p['process.roles']).toBe('broker,controller');
    expect(p['controller.quorum.voters']).toBe('1@127.0.0.1:9101');
    expect(p.listeners).toBe('PLAINTEXT://127.0.0.1:9001,CONTROLLER://127.0.0.1:9101');
    expect(p['advertised.listeners']).toBe('PLAINTEXT://127.0.0.1:9001');
    expect(p['offsets.topic.replication.factor']).toBe('1');
    expect(p['transaction.state.log.replication.factor']).toBe('1');
    expect(p['transaction.state.log.min.isr']).toBe('1');
    expect(p['group.initial.rebalance.delay.ms']).toBe('0');
    expect(p['auto.create.topics.enable']).toBe('false');
    expect(Number(p['message.max.bytes'])).toBe(BROKER_MAX_MESSAGE_BYTES);
    expect(Number(p['message.max.bytes'])).toBeGreaterThan(2 * 1024 * 1024);
    expect(p['log.dirs']).toBe('/tmp/x/data');
  });

  it('lists the whole quorum on every node of a 3-node cluster and tolerates one node down', () => {
    const p = parse(serverProperties({ nodeId: 2, nodes: three, logDir: '/d' }));
    expect(p['node.id']).toBe('2');
    expect(p['controller.quorum.voters']).toBe('1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103');
    expect(p.listeners).toBe('PLAINTEXT://127.0.0.1:9002,CONTROLLER://127.0.0.1:9102');
    expect(p['offsets.topic.replication.factor']).toBe('3');
    expect(p['transaction.state.log.min.isr']).toBe('2');
  });

  it('refuses a node id that is not in the node list', () => {
    expect(() => serverProperties({ nodeId: 4, nodes: three, logDir: '/d' })).toThrow(/node 4 is not in the node list/);
  });
});

describe('newClusterId', () => {
  it('is 22 base64url characters and never starts with a dash', () => {
    let calls = 0;
    const id = newClusterId((n) => {
      calls++;
      // First draw starts with '-' (0xfb → '-' in base64url), second does not.
      return calls === 1 ? Buffer.alloc(n, 0xfb) : Buffer.alloc(n, 0x41);
    });
    expect(calls).toBe(2);
    expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
