import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_EVENT,
  PARSED_TRANSACTION_EVENT,
  SUBSCRIBE_UPDATE,
  SUBSCRIBE_UPDATE_ACCOUNT,
  SUBSCRIBE_UPDATE_ACCOUNT_INFO,
  SUBSCRIBE_UPDATE_TRANSACTION,
  SUBSCRIBE_UPDATE_TRANSACTION_INFO,
  tag,
  TIMESTAMP,
  TRANSACTION_EVENT,
  WIRE,
} from './proto-fields.js';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** A message's `name = number` fields as the .proto text declares them (oneof members included). */
function fieldsOf(proto: string, message: string): Record<string, number> {
  const start = new RegExp(`^message ${message} \\{`, 'm').exec(proto);
  if (start === null) throw new Error(`no message ${message}`);
  let depth = 0;
  let end = start.index;
  for (let i = start.index; i < proto.length; i++) {
    if (proto[i] === '{') depth++;
    if (proto[i] === '}' && --depth === 0) {
      end = i;
      break;
    }
  }
  const body = proto.slice(start.index, end).replace(/\/\/.*$/gm, '');
  return Object.fromEntries([...body.matchAll(/(\w+)\s*=\s*(\d+)\s*(?:\[[^\]]*\])?;/g)].map((m) => [m[1]!, Number(m[2])]));
}

describe('protobuf field tables', () => {
  const events = read('schemas/events.proto');
  const stream = read('proto/stream.proto');
  it.each([
    ['AccountEvent', events, ACCOUNT_EVENT],
    ['TransactionEvent', events, TRANSACTION_EVENT],
    ['ParsedTransactionEvent', events, PARSED_TRANSACTION_EVENT],
    ['SubscribeUpdate', stream, SUBSCRIBE_UPDATE],
    ['SubscribeUpdateTransaction', stream, SUBSCRIBE_UPDATE_TRANSACTION],
    ['SubscribeUpdateAccount', stream, SUBSCRIBE_UPDATE_ACCOUNT],
    ['SubscribeUpdateTransactionInfo', stream, SUBSCRIBE_UPDATE_TRANSACTION_INFO],
    ['SubscribeUpdateAccountInfo', stream, SUBSCRIBE_UPDATE_ACCOUNT_INFO],
  ] as const)('%s: every number is the one the .proto declares for that name', (message, proto, table) => {
    const declared = fieldsOf(proto, message);
    const wanted = Object.fromEntries(Object.keys(table).map((name) => [name, declared[name]]));
    expect(wanted).toEqual(table);
  });

  it('Timestamp: the generated codec writes seconds and nanos under the tags the table gives', () => {
    const gen = read('proto/gen/google/protobuf/timestamp.ts');
    expect(gen).toContain(`writer.uint32(${tag(TIMESTAMP.seconds, WIRE.varint)}).int64(message.seconds)`);
    expect(gen).toContain(`writer.uint32(${tag(TIMESTAMP.nanos, WIRE.varint)}).int32(message.nanos)`);
  });

  it('fails on a number the .proto does not declare (the check can fail)', () => {
    const declared = fieldsOf(read('schemas/events.proto'), 'AccountEvent');
    expect(declared.txn_signature).toBe(9);
    expect({ ...ACCOUNT_EVENT, txn_signature: 8 }).not.toEqual(Object.fromEntries(Object.keys(ACCOUNT_EVENT).map((n) => [n, declared[n]])));
  });
});
