import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { formatPrettyLine, prettyDestination, resolveLogFormat } from './pretty-log.js';

const T = Date.UTC(2026, 10, 23, 19, 5, 7, 42);

describe('formatPrettyLine', () => {
  it('puts time (UTC), level and message first, then the fields, on one line', () => {
    const json = JSON.stringify({
      level: 30,
      time: T,
      pid: 7,
      hostname: 'h',
      name: 'slotstream',
      msg: 'api is serving',
      grpc: '127.0.0.1:10000',
      port: 9090,
    });
    expect(formatPrettyLine(json + '\n')).toBe('19:05:07.042Z INFO  api is serving grpc=127.0.0.1:10000 port=9090\n');
  });

  it('names every level and pads it to one width', () => {
    const labels = [10, 20, 30, 40, 50, 60].map((level) => formatPrettyLine(JSON.stringify({ level, time: T, msg: 'm' })).slice(14, 20));
    expect(labels).toEqual(['TRACE ', 'DEBUG ', 'INFO  ', 'WARN  ', 'ERROR ', 'FATAL ']);
  });

  it('quotes strings with spaces, quotes or equals signs, and writes other values as JSON', () => {
    const line = formatPrettyLine(
      JSON.stringify({ level: 30, time: T, msg: 'x', why: 'two words', eq: 'a=b', n: null, list: [1, 2], ok: true }),
    );
    expect(line).toBe('19:05:07.042Z INFO  x why="two words" eq="a=b" n=null list=[1,2] ok=true\n');
  });

  it('cuts long values so one entry stays one line', () => {
    const line = formatPrettyLine(JSON.stringify({ level: 30, time: T, msg: 'x', big: 'a'.repeat(1000) }));
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('big=' + 'a'.repeat(200) + '…\n');
  });

  it('shows an error message inline, and its stack below from error level up', () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' };
    expect(formatPrettyLine(JSON.stringify({ level: 40, time: T, msg: 'retrying', err }))).toBe('19:05:07.042Z WARN  retrying err=boom\n');
    expect(formatPrettyLine(JSON.stringify({ level: 60, time: T, msg: 'failed to start', err }))).toBe(
      '19:05:07.042Z FATAL failed to start err=boom\n    Error: boom\n    at f (x.ts:1:1)\n',
    );
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(formatPrettyLine('not json')).toBe('not json\n');
  });

  it('writes no escape sequences (safe without colour support)', () => {
    const line = formatPrettyLine(JSON.stringify({ level: 50, time: T, msg: 'bad', err: { message: 'x', stack: 'Error: x' } }));
    expect(line).not.toContain('\u001b');
  });
});

describe('prettyDestination under pino', () => {
  it('receives one whole entry per write, serialized errors included', () => {
    const out: string[] = [];
    const log = pino({ name: 'slotstream', base: { pid: 1 }, level: 'info' }, prettyDestination({ write: (s) => out.push(s) }));
    log.info({ brokers: 'a:1,b:2' }, 'local Kafka is up');
    log.debug('hidden below the level');
    log.error({ err: new Error('disk full') }, 'insert failed');
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}local Kafka is up brokers=a:1,b:2\n$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z ERROR insert failed err="disk full"\n {4}Error: disk full\n {4}at /);
  });
});

describe('resolveLogFormat', () => {
  it('auto is pretty at a terminal and JSON otherwise; explicit formats win', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });
});
