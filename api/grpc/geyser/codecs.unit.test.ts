// SubscribeRequest decoding as prost does it: a map entry sent without its value (Rust clients leave out a
// default message) is a filter with every field at its default, not a missing filter.
import { describe, expect, it } from 'vitest';
import { decodeSubscribeRequest } from './codecs.js';

// Field tag, length-delimited: (field << 3) | 2.
const ld = (field: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([(field << 3) | 2, body.length]), body]);
const str = (field: number, s: string): Buffer => ld(field, Buffer.from(s));

describe('decodeSubscribeRequest', () => {
  it('keeps map entries without a value (and with an empty key) as empty filters, like prost', () => {
    const bytes = Buffer.concat([
      ld(2, str(1, 'all')), // slots { "all" } with no value
      ld(2, Buffer.concat([str(1, 'c'), ld(2, Buffer.from([0x08, 0x01]))])), // slots { "c": { filter_by_commitment: true } }
      ld(5, str(1, 'm')), // blocks_meta { "m" }
      ld(8, Buffer.alloc(0)), // entry { "" }
      ld(3, str(1, 't')), // transactions { "t" }
      ld(4, str(1, 'b')), // blocks { "b" }
      ld(1, str(1, 'a')), // accounts { "a" }
      ld(10, str(1, 's')), // transactions_status { "s" }
      Buffer.from([0x30, 0x01]), // commitment = 1
    ]);
    const req = decodeSubscribeRequest(bytes);
    expect(req.slots).toEqual({ all: {}, c: { filterByCommitment: true } });
    expect(req.blocksMeta).toEqual({ m: {} });
    expect(req.entry).toEqual({ '': {} });
    expect(req.transactions).toEqual({ t: { accountInclude: [], accountExclude: [], accountRequired: [] } });
    expect(req.transactionsStatus).toEqual({ s: { accountInclude: [], accountExclude: [], accountRequired: [] } });
    expect(req.blocks).toEqual({ b: { accountInclude: [] } });
    expect(req.accounts).toEqual({ a: { account: [], owner: [], filters: [] } });
    expect(req.commitment).toBe(1);
  });

  it('every filter name is a key: __proto__, constructor and prototype (null-prototype maps)', () => {
    const names = ['__proto__', 'constructor', 'prototype'];
    // transactions { name: { vote: true } } and slots { name } (no value) for each name.
    const bytes = Buffer.concat(
      names.flatMap((n) => [ld(3, Buffer.concat([str(1, n), ld(2, Buffer.from([0x08, 0x01]))])), ld(2, str(1, n))]),
    );
    const req = decodeSubscribeRequest(bytes);
    expect(Object.keys(req.transactions).sort()).toEqual(names);
    expect(Object.keys(req.slots).sort()).toEqual(names);
    for (const n of names) expect(Object.getOwnPropertyDescriptor(req.transactions, n)?.value).toMatchObject({ vote: true });
    expect(Object.getPrototypeOf(req.transactions)).toBeNull();
    expect(Object.getPrototypeOf(req.accounts)).toBeNull();
  });

  it('malformed bytes are an error, not a hang', () => {
    expect(() => decodeSubscribeRequest(Buffer.from([0x12, 0x05, 0x0a]))).toThrow();
  });
});
