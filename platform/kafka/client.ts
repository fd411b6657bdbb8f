// The librdkafka settings every client shares, its log and error events bridged to our logger, and
// its errors mapped to the few kinds the roles act on (fenced, retriable, fatal). Nothing outside
// platform/kafka/ sees a librdkafka error code.
import type { GlobalConfig, LibrdKafkaError } from '@confluentinc/kafka-javascript';
import { retry, type RetryPolicy } from '../retry.js';
import type { KafkaCompression } from './compression.js';
import { CLIENT_MAX_MESSAGE_BYTES } from './topics.js';

/** The part of a pino-style logger the clients log through. */
export interface KafkaLogSink {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface KafkaOptions {
  brokers: readonly string[];
  clientId: string;
  /** The producers' record batch codec (compression.ts); records go uncompressed without one. */
  compression?: KafkaCompression;
  /** Where client warnings and errors go; without one the clients stay silent. */
  log?: KafkaLogSink;
  /** librdkafka's sparse connections (connect to a broker only when a request needs it); off unless set, see
   * baseConfig. Only bench/kafka-away.ts turns it on, to measure what it costs. */
  sparseConnections?: boolean;
}

/** An error from Kafka, classified once here. */
export class KafkaError extends Error {
  override name = 'KafkaError';
  constructor(
    message: string,
    readonly code: number,
    /** Another producer with the same transactional id took over: retrying would fence it back. */
    readonly fenced: boolean,
    /** Trying again (after an abort, for a transaction) can succeed. */
    readonly retriable: boolean,
    /** The client cannot be used any more; a new one must be made. */
    readonly fatal: boolean,
    /** The record was larger than the topic or client allows. */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

// librdkafka codes (rdkafkacpp.h): the negative ones are the client's own.
const FENCED_CODES = new Set([
  -144 /* _FENCED */, 47 /* INVALID_PRODUCER_EPOCH */, 90 /* PRODUCER_FENCED */, 53 /* TRANSACTIONAL_ID_AUTHORIZATION_FAILED */,
]);
const TOO_LARGE_CODES = new Set([10 /* MSG_SIZE_TOO_LARGE */, -186 /* _MSG_SIZE_TOO_LARGE */, 18 /* RECORD_LIST_TOO_LARGE */]);

export function kafkaError(what: string, err: unknown): KafkaError {
  if (err instanceof KafkaError) return err;
  const e = (err ?? {}) as Partial<LibrdKafkaError> & { message?: string };
  const code = typeof e.code === 'number' ? e.code : 0;
  const fenced = FENCED_CODES.has(code);
  const fatal = e.isFatal === true || fenced;
  const tooLarge = TOO_LARGE_CODES.has(code);
  const retriable =
    !fatal && !tooLarge && (e.isRetriable === true || e.isTxnRequiresAbort === true || code < 0 || isRetriableBrokerCode(code));
  return new KafkaError(`${what}: ${e.message ?? String(err)}`, code, fenced, retriable, fatal, tooLarge);
}

// Broker errors that clear up by themselves (leaders moving, coordinators loading, timeouts).
function isRetriableBrokerCode(code: number): boolean {
  return [5, 6, 7, 13, 14, 15, 16, 19, 20, 51, 56, 57].includes(code);
}

/** Settings shared by every client: bootstrap, identity, and message sizes that match the topics'. */
export function baseConfig(o: KafkaOptions): GlobalConfig {
  if (o.brokers.length === 0) throw new Error(`Kafka client ${o.clientId}: the broker list is empty`);
  return {
    'bootstrap.servers': o.brokers.join(','),
    'client.id': o.clientId,
    // Latency: small requests must not wait for Nagle's algorithm (a transaction's cycle halves).
    'socket.nagle.disable': true,
    'message.max.bytes': CLIENT_MAX_MESSAGE_BYTES,
    'receive.message.max.bytes': CLIENT_MAX_MESSAGE_BYTES * 2 + 1024 * 1024,
    'reconnect.backoff.ms': 100,
    'reconnect.backoff.max.ms': 3_000,
    'topic.metadata.refresh.interval.ms': 30_000,
    // A connection to every broker, kept, instead of connecting only when a request needs one: with sparse connections
    // (librdkafka's default) a request waiting for a broker that is down re-triggers a connection attempt on every
    // failed one, past the reconnect backoff: one pending admin call burned a core for as long as the broker was away
    // (10.3 CPU s in 10 s, 0.01 without: bench/kafka-away.ts). librdkafka's property; the binding's typed list lacks it.
    ...({ 'enable.sparse.connections': o.sparseConnections ?? false } as Partial<GlobalConfig>),
    // Logs arrive as 'event.log' events (bridged below) instead of going to stderr.
    event_cb: true,
    log_level: 4,
  };
}

interface Emitter {
  on(event: string, listener: (arg: unknown) => void): unknown;
}

/** Sends a client's log and error events to the sink. A transport error (a broker restarting, a
 * connection closing while idle) is something librdkafka retries on its own: a warning, not an error. */
export function bridgeLogs(client: Emitter, o: KafkaOptions): void {
  const sink = o.log;
  client.on('event.log', (ev) => {
    if (!sink) return;
    const e = ev as { severity: number; fac: string; message: string };
    const fields = { kafka: o.clientId, fac: e.fac };
    // librdkafka warns about what it retries by itself (a coordinator still loading on a fresh
    // broker): a person starting the service needs none of that.
    const retried = /: retrying\b|in progress/i.test(e.message);
    if (e.severity <= 3 && !retried) sink.warn(fields, `kafka: ${e.message}`);
    else if (e.severity === 4 && !retried) sink.info(fields, `kafka: ${e.message}`);
    else sink.debug(fields, `kafka: ${e.message}`);
  });
  client.on('event.error', (err) => {
    if (!sink) return;
    const k = kafkaError('client', err);
    const fields = { kafka: o.clientId, code: k.code };
    if (k.fatal) sink.error(fields, `kafka: ${k.message}`);
    else sink.warn(fields, `kafka: ${k.message}`);
  });
}

/** Runs a callback-style client call as a promise, its error classified. */
export function call<T = void>(what: string, fn: (cb: (err: unknown, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    try {
      fn((err, value) => (err ? reject(kafkaError(what, err)) : resolve(value as T)));
    } catch (err) {
      reject(kafkaError(what, err));
    }
  });
}

/** How Kafka calls are retried: 50 ms doubling to 1 s, for up to 30 s. */
export const KAFKA_CALL_RETRY: RetryPolicy = { initialMs: 50, maxMs: 1_000, deadlineMs: 30_000 };

/** Retries calls Kafka answers with a retriable error (a just-created topic's leader not settled, a
 * coordinator loading) until `timeoutMs`; the one place that decides how that is retried. */
export function retrying<T>(what: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  return retry(
    () =>
      fn().catch((err: unknown) => {
        throw kafkaError(what, err);
      }),
    { policy: { ...KAFKA_CALL_RETRY, deadlineMs: timeoutMs }, isRetriable: (err) => (err as KafkaError).retriable },
  );
}
