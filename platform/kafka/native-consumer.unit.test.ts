// The consume loop's transitions against a scripted stand-in for the librdkafka consumer (only the two
// methods the loop uses): no broker, so each ordering is exact.
import type { KafkaConsumer, Message } from '@confluentinc/kafka-javascript';
import { describe, expect, it } from 'vitest';
import { startFetchLoop } from './native-consumer.js';

type Eof = { topic: string; partition: number; offset: number };
type Answer = { messages?: Message[]; eofs?: Eof[]; err?: unknown };

/** A consumer whose consume calls are answered one by one by `answer()`, in call order. */
function scripted() {
  const pending: ((a: Answer) => void)[] = [];
  let onEof: ((e: Eof) => void) | undefined;
  let calls = 0;
  const consumer = {
    on(event: string, fn: (e: Eof) => void) {
      if (event === 'partition.eof') onEof = fn;
    },
    consume(_n: number, cb: (err: unknown, m?: Message[]) => void) {
      calls++;
      pending.push((a) => {
        // The binding emits a call's end-of-partition events just before its callback.
        for (const e of a.eofs ?? []) onEof?.(e);
        cb(a.err, a.messages ?? []);
      });
    },
  } as unknown as KafkaConsumer;
  const answer = async (a: Answer = {}) => {
    for (let i = 0; i < 20 && pending.length === 0; i++) await new Promise((r) => setImmediate(r));
    const next = pending.shift();
    if (!next) throw new Error('no consume call is waiting');
    next(a);
    await new Promise((r) => setImmediate(r));
  };
  return { consumer, answer, calls: () => calls, waiting: () => pending.length };
}

const msg = (offset: number): Message => ({ topic: 't', partition: 0, offset, value: null, size: 0 }) as Message;

describe('the consume loop', () => {
  it('hands each call its own records and end-of-partition events, with what onCall returned for it', async () => {
    const c = scripted();
    const got: { offsets: number[]; eofs: Eof[]; call: number }[] = [];
    let n = 0;
    const loop = startFetchLoop<number>(c.consumer, 10, {
      onCall: () => ++n,
      onMessages: (m, eofs, call) => void got.push({ offsets: m.map((x) => x.offset), eofs, call }),
      onError: () => {},
    });
    await c.answer({ messages: [msg(0), msg(1)] });
    await c.answer({ eofs: [{ topic: 't', partition: 0, offset: 2 }] });
    const stopped = loop.stop();
    await c.answer();
    await stopped;
    expect(got).toEqual([
      { offsets: [0, 1], eofs: [], call: 1 },
      { offsets: [], eofs: [{ topic: 't', partition: 0, offset: 2 }], call: 2 },
    ]);
  });

  it('issues one call at a time, and the next while a chunk is handled only when prefetch allows', async () => {
    const c = scripted();
    let release!: () => void;
    const loop = startFetchLoop<void>(c.consumer, 10, {
      prefetch: () => true,
      onMessages: () => new Promise<void>((r) => (release = r)),
      onError: () => {},
    });
    await c.answer({ messages: [msg(0)] });
    // The handler holds the chunk; the next call is already out.
    expect(c.calls()).toBe(2);
    expect(c.waiting()).toBe(1);
    const stopped = loop.stop();
    release();
    // Stopping waits for the call issued ahead before the consumer may be disconnected.
    let done = false;
    void stopped.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    await c.answer();
    await stopped;
    expect(done).toBe(true);
  });

  it('without prefetch, waits for the chunk to be handled before the next call', async () => {
    const c = scripted();
    let release!: () => void;
    const loop = startFetchLoop<void>(c.consumer, 10, { onMessages: () => new Promise<void>((r) => (release = r)), onError: () => {} });
    await c.answer({ messages: [msg(0)] });
    expect(c.calls()).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    expect(c.calls()).toBe(2);
    const stopped = loop.stop();
    await c.answer();
    await stopped;
  });

  it('reports a failed call and a failing handler, and goes on reading', async () => {
    const c = scripted();
    const errors: string[] = [];
    let handled = 0;
    const loop = startFetchLoop<void>(c.consumer, 10, {
      onMessages: () => {
        if (handled++ === 0) throw new Error('handler broke');
      },
      onError: (e) => void errors.push(e.message),
    });
    await c.answer({ err: { message: 'broker down', code: -195 } });
    await new Promise((r) => setTimeout(r, 150));
    await c.answer({ messages: [msg(0)] });
    await c.answer({ messages: [msg(1)] });
    const stopped = loop.stop();
    await c.answer();
    await stopped;
    expect(errors).toEqual(['consume: broker down', 'handler broke']);
    expect(handled).toBe(2);
  });
});
