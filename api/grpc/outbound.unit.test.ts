// Outbound.mark (issue 23): a durable cursor moves only once HTTP/2 took the bytes of its slot, including the
// frames flushed with a slow client's cut-off status ("the last slot fully written before the cut").
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { Outbound } from './outbound.js';

/** A grpc-js call whose base call's HTTP/2 stream keeps each write's callback for the test to run. */
function fakeCall() {
  const callbacks: (() => void)[] = [];
  const stream = {
    destroyed: false,
    closed: false,
    write: (_b: Buffer, cb: () => void) => callbacks.push(cb),
    on: () => stream,
  };
  const call = {
    call: { stream, maybeSendMetadata: () => undefined },
    sendMetadata: () => undefined,
    emit: () => true,
    end: () => undefined,
  };
  return { call: call as unknown as ServerDuplexStream<unknown, Buffer>, callbacks };
}

const tick = () => new Promise<void>((r) => queueMicrotask(r));
const update = (slot: bigint) => ({ slot, bytes: Buffer.from([1, 2, 3]) });

describe('Outbound.mark', () => {
  it('runs once the writes holding everything sent before it completed, in order', async () => {
    const { call, callbacks } = fakeCall();
    const out = new Outbound(call, 100, () => undefined);
    const done: string[] = [];
    out.mark(() => done.push('empty')); // nothing sent: at once
    out.send(update(1n));
    out.mark(() => done.push('1'));
    await tick(); // the batch goes out as one write
    out.send(update(2n));
    out.mark(() => done.push('2'));
    await tick();
    expect(done).toEqual(['empty']);
    expect(callbacks).toHaveLength(2);
    callbacks[0]!();
    expect(done).toEqual(['empty', '1']);
    callbacks[1]!();
    expect(done).toEqual(['empty', '1', '2']);
  });

  it('a slow client cut off: what was queued is flushed with the status and its marks still run', async () => {
    const { call, callbacks } = fakeCall();
    const out = new Outbound(call, 2, () => undefined);
    const done: bigint[] = [];
    out.send(update(5n));
    out.mark(() => done.push(5n));
    out.send(update(6n));
    out.mark(() => done.push(6n));
    out.send(update(7n)); // over the limit: cut off, 5 and 6 flushed first
    out.mark(() => done.push(7n));
    expect(out.isClosed).toBe(true);
    expect(callbacks).toHaveLength(1);
    callbacks[0]!();
    expect(done).toEqual([5n, 6n]);
  });

  it('never runs for writes that did not complete (the client went away)', async () => {
    const { call, callbacks } = fakeCall();
    const out = new Outbound(call, 100, () => undefined);
    let ran = false;
    out.send(update(1n));
    out.mark(() => (ran = true));
    await tick();
    out.abandon();
    callbacks[0]!();
    expect(ran).toBe(false);
  });
});
