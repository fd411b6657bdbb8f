// server.properties for a local KRaft node that is broker and controller at once (pure: text only).

export interface NodeAddress {
  id: number;
  brokerPort: number;
  controllerPort: number;
}

export interface ServerPropertiesInput {
  nodeId: number;
  /** Every node of the cluster (the static controller quorum), this one included. */
  nodes: readonly NodeAddress[];
  /** Where the node keeps its log segments and KRaft metadata. */
  logDir: string;
  host?: string;
}

/** Largest record batch the broker accepts: room for ~2 MB epoch records and 10 MiB account writes. */
export const BROKER_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export function serverProperties(input: ServerPropertiesInput): string {
  const host = input.host ?? '127.0.0.1';
  const self = input.nodes.find((n) => n.id === input.nodeId);
  if (!self) throw new Error(`serverProperties: node ${input.nodeId} is not in the node list`);
  const n = input.nodes.length;
  // Internal topics need as many replicas as the cluster can hold; with three nodes keep a
  // min ISR of 2 so one broker can be down (fault tests) without blocking commits or transactions.
  const rf = Math.min(n, 3);
  const minIsr = rf >= 3 ? 2 : 1;
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': input.nodeId,
    'controller.quorum.voters': input.nodes.map((x) => `${x.id}@${host}:${x.controllerPort}`).join(','),
    listeners: `PLAINTEXT://${host}:${self.brokerPort},CONTROLLER://${host}:${self.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://${host}:${self.brokerPort}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': input.logDir,
    // The service creates its topics itself (ensureTopics); a typo must not create a new topic.
    'auto.create.topics.enable': false,
    'num.partitions': 1,
    'default.replication.factor': rf,
    'min.insync.replicas': 1,
    'offsets.topic.replication.factor': rf,
    // Fewer partitions than the default 50: the first consumer group on a fresh broker joins faster.
    'offsets.topic.num.partitions': 8,
    'transaction.state.log.replication.factor': rf,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': 8,
    'share.coordinator.state.topic.replication.factor': rf,
    'share.coordinator.state.topic.min.isr': minIsr,
    // Tests start consumers one at a time; no reason to wait 3 s for more members.
    'group.initial.rebalance.delay.ms': 0,
    'message.max.bytes': BROKER_MAX_MESSAGE_BYTES,
    'replica.fetch.max.bytes': BROKER_MAX_MESSAGE_BYTES,
    // Two cores on the machines this runs on: keep the thread pools small.
    'num.network.threads': 2,
    'num.io.threads': 4,
    'num.recovery.threads.per.data.dir': 1,
    'log.segment.bytes': 256 * 1024 * 1024,
    'log.retention.check.interval.ms': 60_000,
    // The controller writes a no-op record to the metadata log this often when nothing else changes (Kafka's 500 ms
    // default): an idle light broker used 16.5 ms of CPU a second with it, 10 with 5 s, and a start was no slower.
    'metadata.max.idle.interval.ms': 5_000,
  };
  return (
    Object.entries(props)
      .map(([k, v]) => `${k}=${escapeValue(String(v))}`)
      .join('\n') + '\n'
  );
}

/** Java properties treat backslashes as escapes; paths on this platform have none, but be safe. */
function escapeValue(v: string): string {
  return v.replace(/\\/g, '\\\\');
}

/** A KRaft cluster id: 16 random bytes, base64url without padding (Kafka's Uuid text form). */
export function newClusterId(random: (n: number) => Buffer): string {
  for (;;) {
    const id = random(16).toString('base64url');
    // Kafka's own generator avoids a leading '-' (it would read as a command-line flag).
    if (!id.startsWith('-')) return id;
  }
}
