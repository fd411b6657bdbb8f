// What one particular broker believes about the cluster: its brokers (as advertised) and, per
// partition of the asked topics, the leader, replicas and in-sync replicas. A test instrument for the
// launcher's replication tests, not a client: one Metadata request (v4, a version every broker from
// Kafka 1.0 to 4.x answers) on a connection of its own to exactly the named broker. The seam's admin
// cannot do this: librdkafka sends metadata requests to whichever broker it likes, and the seam
// exposes neither replicas nor the ISR (roles never need them).
import { connect } from 'node:net';

export interface BrokerView {
  brokers: { nodeId: number; host: string; port: number }[];
  controllerId: number;
  topics: {
    name: string;
    /** Kafka's error code for the topic (0: none; 3: the broker does not know the topic yet). */
    errorCode: number;
    partitions: { partition: number; errorCode: number; leader: number; replicas: number[]; isr: number[] }[];
  }[];
}

const METADATA_API_KEY = 3;
const METADATA_VERSION = 4;

/** Asks `broker` (`host:port`) for its metadata of `topics` (never creating them). */
export async function brokerMetadata(broker: string, topics: readonly string[], timeoutMs = 5_000): Promise<BrokerView> {
  const colon = broker.lastIndexOf(':');
  const host = broker.slice(0, colon);
  const port = Number(broker.slice(colon + 1));
  const correlationId = Math.floor(Math.random() * 0x7fffffff);
  const response = await exchange(host, port, metadataRequest(correlationId, 'slotstream-test-probe', topics), timeoutMs);
  const r = new Reader(response);
  const got = r.int32();
  if (got !== correlationId) throw new Error(`metadata from ${broker}: correlation id ${got}, expected ${correlationId}`);
  return parseMetadataV4(r);
}

function metadataRequest(correlationId: number, clientId: string, topics: readonly string[]): Buffer {
  const w = new Writer();
  // Request header v1: api key, api version, correlation id, client id.
  w.int16(METADATA_API_KEY).int16(METADATA_VERSION).int32(correlationId).string(clientId);
  // Body v4: the topics, and allow_auto_topic_creation = false.
  w.int32(topics.length);
  for (const t of topics) w.string(t);
  w.int8(0);
  const body = w.done();
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

function parseMetadataV4(r: Reader): BrokerView {
  r.int32(); // throttle_time_ms
  const brokers = r.array(() => {
    const nodeId = r.int32();
    const host = r.string() ?? '';
    const port = r.int32();
    r.string(); // rack
    return { nodeId, host, port };
  });
  r.string(); // cluster id
  const controllerId = r.int32();
  const topics = r.array(() => {
    const errorCode = r.int16();
    const name = r.string() ?? '';
    r.int8(); // is_internal
    const partitions = r.array(() => ({
      errorCode: r.int16(),
      partition: r.int32(),
      leader: r.int32(),
      replicas: r.array(() => r.int32()),
      isr: r.array(() => r.int32()),
    }));
    return { name, errorCode, partitions };
  });
  return { brokers, controllerId, topics };
}

/** Sends one size-prefixed request and returns the body of the size-prefixed response. */
function exchange(host: string, port: number, request: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let buf = Buffer.alloc(0);
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no metadata from ${host}:${port} within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 4) return;
      const size = buf.readInt32BE(0);
      if (buf.length < 4 + size) return;
      socket.destroy();
      resolve(buf.subarray(4, 4 + size));
    });
    socket.once('end', () => fail(new Error(`${host}:${port} closed the connection before answering`)));
  });
}

class Writer {
  private parts: Buffer[] = [];
  int8(v: number): this {
    const b = Buffer.alloc(1);
    b.writeInt8(v);
    this.parts.push(b);
    return this;
  }
  int16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.parts.push(b);
    return this;
  }
  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
    return this;
  }
  string(s: string): this {
    const bytes = Buffer.from(s, 'utf8');
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  private need(n: number): number {
    if (this.at + n > this.buf.length) throw new Error(`metadata response ends early (offset ${this.at}, ${n} more bytes wanted)`);
    const start = this.at;
    this.at += n;
    return start;
  }
  int8(): number {
    return this.buf.readInt8(this.need(1));
  }
  int16(): number {
    return this.buf.readInt16BE(this.need(2));
  }
  int32(): number {
    return this.buf.readInt32BE(this.need(4));
  }
  /** A nullable string (length -1 is null). */
  string(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const start = this.need(len);
    return this.buf.toString('utf8', start, start + len);
  }
  array<T>(item: () => T): T[] {
    const n = this.int32();
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(item());
    return out;
  }
}
