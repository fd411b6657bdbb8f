// The bounded outgoing queue of one stream. Updates matched during one synchronous step (a chunk of Kafka
// records) are framed as gRPC messages, straight into one buffer (no object per message), and written to the
// HTTP/2 stream in ONE write: grpc-js writes every message separately (a serialize, a copy and a stream write each, one at a time), which caps a process at
// tens of thousands of messages per second; batching the frames removes that per-message cost. HTTP/2
// takes the bytes as fast as the client reads (flow control); when the client falls behind, writes stop
// completing, and once `limit` updates are waiting the stream is ended with RESOURCE_EXHAUSTED naming the
// last slot delivered, so the client can resume with from_slot. Nothing here ever blocks the shared live
// feed: a slow stream only grows its own queue.
//
// The batched path uses grpc-js's base call object underneath the public stream and its interceptors
// (`call.call`, then `nextCall` through each interceptor: its HTTP/2 stream and `maybeSendMetadata`); when
// that shape is not there (another grpc-js version), it falls back to one public `write()` per update.
//
// The response headers go out when the stream opens, not with its first message: a client's "subscribe"
// call resolves on them (tonic's, so the real Yellowstone client's `await client.subscribe()`), and a stream
// may carry nothing for a long time (no match yet, server pings seconds apart). Yellowstone answers at once.
//
// Compression (issue 23): when the client's grpc-accept-encoding names an encoding the host offers
// (./compression.ts), the response headers say `grpc-encoding: <it>` and every message of at least
// MIN_COMPRESS_BYTES whose compressed form is smaller goes out compressed (flag 1); the others stay plain
// (flag 0), which gRPC allows message by message. The fallback path (no base call) never compresses.
import { Metadata, status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { ServerHttp2Stream } from 'node:http2';
import { MIN_COMPRESS_BYTES, responseCodec, type Codec } from './compression.js';
import { compressedMessages, compressionBytes } from './metrics.js';

export interface Outgoing {
  /** Slot of a chain update; undefined for ping and pong. */
  slot: bigint | undefined;
  /** The message is `prefix + bytes` (a per-stream `filters` prefix before a shared body: no copy to join them). */
  prefix?: Buffer;
  bytes: Buffer;
}

export interface RawCall {
  stream: ServerHttp2Stream;
  maybeSendMetadata(): void;
  /** The client's grpc-accept-encoding (kept by our grpc-js patch; absent without it). */
  acceptedEncodings?: readonly string[];
}

/** How many server interceptors deep the search for grpc-js's base call goes (the host adds one). */
const MAX_INTERCEPTORS = 8;

/**
 * grpc-js's base call under the public stream, or undefined when its shape is not there. With server
 * interceptors (the host's auth check), `call.call` is the outermost interceptor's call, each holding the
 * next one in `nextCall`, down to the base call that owns the HTTP/2 stream. Writing frames to that stream
 * skips the interceptors' sendMessage, which is right for interceptors that only look at the request
 * headers (the auth check); statuses and metadata still go through all of them.
 */
export function rawCallOf(call: ServerDuplexStream<unknown, Buffer>): RawCall | undefined {
  let inner = (call as unknown as { call?: Partial<RawCall> & { nextCall?: unknown } }).call;
  for (let depth = 0; inner && depth <= MAX_INTERCEPTORS; depth++) {
    if (typeof inner.maybeSendMetadata === 'function' && inner.stream && typeof inner.stream.write === 'function') {
      return inner as RawCall;
    }
    inner = inner.nextCall as (Partial<RawCall> & { nextCall?: unknown }) | undefined;
  }
  return undefined;
}

export class Outbound {
  private closed = false;
  private readonly raw: RawCall | undefined;
  /** Framed messages not yet written: prefix (empty when none) and body, in turn. */
  private pending: Buffer[] = [];
  private pendingCount = 0;
  private pendingBytes = 0;
  private inflight = 0;
  private flushScheduled = false;
  /** Waiting for the queue to drain (ready()): settled once it is at or below `limit / 4`. */
  private drainWaiters: (() => void)[] = [];
  /** Writes handed to HTTP/2, and those it has taken (its callbacks come in write order). */
  private writesIssued = 0;
  private writesDone = 0;
  /** Callbacks waiting for the writes before them (`afterWrite`: the write count that covers them). */
  private marks: { afterWrite: number; done: () => void }[] = [];
  /** Slot of the last chain update handed to the transport (the client receives it before any status). */
  lastSlot: bigint | undefined;
  sent = 0;
  /** The response encoding, when the client accepts one the host offers. */
  readonly codec: Codec | undefined;

  constructor(
    private readonly call: ServerDuplexStream<unknown, Buffer>,
    private readonly limit: number,
    private readonly onOverflow: (details: string) => void,
  ) {
    this.raw = rawCallOf(call);
    this.codec = this.raw ? responseCodec(this.raw.acceptedEncodings) : undefined;
    const headers = new Metadata();
    // Overrides grpc-js's default `grpc-encoding: identity` response header.
    if (this.codec) headers.set('grpc-encoding', this.codec.name);
    call.sendMetadata(headers);
    // Our direct writes can fail when the client vanishes mid-write; grpc-js listens for only one stream
    // error, and a second unhandled one would take the process down. The call's own events report the end.
    this.raw?.stream.on('error', () => this.abandon());
  }

  /** Updates accepted but not yet taken by HTTP/2. */
  get queued(): number {
    return this.raw ? this.inflight + this.pendingCount : this.call.writableLength;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Back-pressure for bulk senders (a snapshot): undefined while the queue is below half its limit, else a
   * promise that settles once HTTP/2 took it down to a quarter (or the stream closed). A sender that waits on it
   * never reaches the limit, so it is never cut off as slow; live updates keep the limit's other half.
   */
  ready(): Promise<void> | undefined {
    if (this.closed || this.queued < this.limit / 2) return undefined;
    if (!this.raw) return new Promise<void>((res) => this.call.once('drain', () => res()));
    this.flush();
    return new Promise<void>((res) => this.drainWaiters.push(res));
  }

  private drained(): void {
    if (this.drainWaiters.length === 0 || (!this.closed && this.queued > this.limit / 4)) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  send(item: Outgoing): void {
    if (this.closed) return;
    if (this.queued >= this.limit) {
      this.overflow(item);
      return;
    }
    if (item.slot !== undefined) this.lastSlot = item.slot;
    this.sent++;
    const prefix = item.prefix;
    if (!this.raw) {
      // Writable buffers past its high-water mark; the limit above bounds it.
      this.call.write(prefix && prefix.length > 0 ? Buffer.concat([prefix, item.bytes]) : item.bytes);
      return;
    }
    const p = prefix ?? EMPTY;
    this.pending.push(p, item.bytes);
    this.pendingCount++;
    this.pendingBytes += 5 + p.length + item.bytes.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pendingCount === 0 || !this.raw) return;
    if (this.raw.stream.destroyed || this.raw.stream.closed) {
      // The client went away between the update and this flush: writing would only raise an error.
      this.abandon();
      return;
    }
    const n = this.pendingCount;
    let bytes: Buffer;
    if (this.codec) {
      const stats: CompressionStats = { messages: 0, plainBytes: 0, wireBytes: 0 };
      bytes = compressedFrames(this.pending, this.codec, stats);
      if (stats.messages > 0) {
        const encoding = this.codec.name;
        compressedMessages.inc({ encoding }, stats.messages);
        compressionBytes.inc({ encoding, stage: 'plain' }, stats.plainBytes);
        compressionBytes.inc({ encoding, stage: 'wire' }, stats.wireBytes);
      }
    } else bytes = frames(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingCount = 0;
    this.pendingBytes = 0;
    this.inflight += n;
    try {
      this.raw.maybeSendMetadata();
      this.writesIssued++;
      this.raw.stream.write(bytes, () => {
        this.inflight -= n;
        this.writesDone++;
        this.runMarks();
        this.drained();
      });
    } catch {
      this.closed = true;
      this.drained(); // the stream is gone (client cancelled); grpc-js reports it through 'cancelled'
    }
  }

  /**
   * Calls `done` once everything sent before this call was taken by HTTP/2 (written to the connection: what the
   * server can know of a delivery). Never called for what the stream could not write (closed, client gone).
   * Without grpc-js's base call (the one-write-per-update fallback) it is called at once.
   */
  mark(done: () => void): void {
    if (this.closed) return; // what is sent from now on is dropped: the mark would cover nothing written
    if (!this.raw) {
      done();
      return;
    }
    const afterWrite = this.writesIssued + (this.pendingCount > 0 ? 1 : 0);
    if (afterWrite <= this.writesDone) done();
    else this.marks.push({ afterWrite, done });
  }

  private runMarks(): void {
    let i = 0;
    while (i < this.marks.length && this.marks[i]!.afterWrite <= this.writesDone) this.marks[i++]!.done();
    if (i > 0) this.marks = this.marks.slice(i);
  }

  private overflow(next: Outgoing): void {
    const last = this.lastSlot === undefined ? 'none' : this.lastSlot.toString();
    const from = this.lastSlot === undefined ? next.slot : this.lastSlot + 1n;
    const details =
      `client too slow: stream queue full (${this.limit} updates); last delivered slot ${last}` +
      (from === undefined ? '' : `; resume with from_slot ${from}`);
    this.fail(status.RESOURCE_EXHAUSTED, details);
    this.onOverflow(details);
  }

  /** Ends the stream with a status after what is already queued (the client reads those first). */
  fail(code: status, details: string): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.drained();
    this.call.emit('error', { code, details, name: 'StreamError', message: details });
  }

  /** Ends the stream with OK. */
  end(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.drained();
    this.call.end();
  }

  /** The client went away: stop writing. */
  abandon(): void {
    this.closed = true;
    this.marks = [];
    this.pending = [];
    this.pendingCount = 0;
    this.pendingBytes = 0;
    this.drained();
  }
}

const EMPTY = Buffer.alloc(0);

/** gRPC messages (5-byte header: not compressed, length) of `prefix + body` pairs, in one buffer of `total` bytes. */
function frames(pairs: Buffer[], total: number): Buffer {
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const prefix = pairs[i]!;
    const body = pairs[i + 1]!;
    const len = prefix.length + body.length;
    out[pos] = 0;
    out[pos + 1] = len >>> 24;
    out[pos + 2] = (len >>> 16) & 0xff;
    out[pos + 3] = (len >>> 8) & 0xff;
    out[pos + 4] = len & 0xff;
    pos += 5;
    if (prefix.length > 0) pos += prefix.copy(out, pos);
    pos += body.copy(out, pos);
  }
  return out;
}

/** What compressedFrames compressed: messages, and their bytes before and after. */
export interface CompressionStats {
  messages: number;
  plainBytes: number;
  wireBytes: number;
}

/**
 * gRPC messages of `prefix + body` pairs, each compressed with `codec` (flag 1) when it is at least
 * MIN_COMPRESS_BYTES long and comes out smaller, else as is (flag 0); in one buffer.
 */
export function compressedFrames(pairs: Buffer[], codec: Codec, stats?: CompressionStats): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const prefix = pairs[i]!;
    const body = pairs[i + 1]!;
    const plainLength = prefix.length + body.length;
    let payload: Buffer | undefined;
    if (plainLength >= MIN_COMPRESS_BYTES) {
      const packed = codec.compress(prefix.length > 0 ? Buffer.concat([prefix, body], plainLength) : body);
      if (packed.length < plainLength) {
        payload = packed;
        if (stats) {
          stats.messages++;
          stats.plainBytes += plainLength;
          stats.wireBytes += packed.length;
        }
      }
    }
    const header = Buffer.allocUnsafe(5);
    header[0] = payload ? 1 : 0;
    header.writeUInt32BE(payload ? payload.length : plainLength, 1);
    parts.push(header);
    if (payload) parts.push(payload);
    else {
      if (prefix.length > 0) parts.push(prefix);
      parts.push(body);
    }
    total += 5 + (payload ? payload.length : plainLength);
  }
  return Buffer.concat(parts, total);
}

/** A shared body behind one stream's `filters` prefix. */
export function outgoing(slot: bigint, prefix: Buffer, body: Buffer): Outgoing {
  return { slot, prefix, bytes: body };
}
