// One stream.Stream Subscribe stream (behaviour.md "Subscribe: stream lifecycle"): a SessionStream
// (api/grpc/session-stream.ts: queue, live session, request rules) that sends transactions and account writes as
// `filters prefix + shared body` (./stream-body.ts). stream.proto carries no other update kinds.
import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { SubscribeRequest } from '../../../proto/gen/stream.js';
import { compileSubscribeRequest, dataSliceKey, type DataSlice, type FilterLimits } from '../../filters/index.js';
import { STREAM_FIELD_NAMES, streamBounds, type SharedEvent } from '../../live/index.js';
import { encodePing, encodePong } from './encode.js';
import { SessionStream, type Accepted, type SessionStreamDeps, type StreamAccess } from '../session-stream.js';
import { streamBody } from './stream-body.js';

export interface SubscribeDeps extends SessionStreamDeps {
  limits: FilterLimits;
}

export class SubscribeStream extends SessionStream<SubscribeRequest> {
  private slices: readonly DataSlice[] = [];
  private slicesKey = '';

  constructor(
    call: ServerDuplexStream<SubscribeRequest, Buffer>,
    private readonly deps: SubscribeDeps,
    access: StreamAccess,
  ) {
    super(call, deps, 'Subscribe', access);
  }

  protected accept(req: SubscribeRequest): Accepted {
    const compiled = compileSubscribeRequest(req, this.deps.limits);
    if (!compiled.ok) return { error: compiled.error.message };
    if (req.ping) return { pong: encodePong(req.ping.id) };
    // Snapshot, then stream (issue 23): the live part starts after the snapshot's own slot, so a from_slot has no
    // place, nor a cursor (which resumes where a former stream stopped); to_slot ends it as any stream.
    if (req.snapshot === true && req.fromSlot !== undefined)
      return { error: 'snapshot: cannot be combined with from_slot (the stream continues from the slot after the snapshot)' };
    if (req.snapshot === true && req.cursor !== undefined)
      return {
        error: 'snapshot: cannot be combined with cursor (a cursor resumes a stream; a snapshot starts one from the current state)',
      };
    const bounds = streamBounds({ cursor: req.cursor, toSlot: req.toSlot, pace: req.pace, fromSlot: req.fromSlot }, STREAM_FIELD_NAMES);
    if (!bounds.ok) return { error: bounds.error };
    this.slices = compiled.value.accountsDataSlice;
    this.slicesKey = dataSliceKey(compiled.value.accountsDataSlice);
    return { subscription: compiled.value, bounds: bounds.value, snapshot: req.snapshot === true };
  }

  protected pingBytes(): Buffer {
    return encodePing();
  }

  deliver(u: SharedEvent, names: readonly string[]): void {
    this.send(u.slot, names, streamBody(u, this.slices, this.slicesKey));
  }
}

export function handleSubscribe(d: SubscribeDeps, access: StreamAccess) {
  return (call: ServerDuplexStream<SubscribeRequest, Buffer>): void => {
    new SubscribeStream(call, d, access);
  };
}
