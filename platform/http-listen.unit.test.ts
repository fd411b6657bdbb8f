import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpListener } from './http-listen.js';

let listener: HttpListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

const hello = (_req: unknown, res: import('node:http').ServerResponse): void => void res.writeHead(200).end('hello');

/** Sends raw bytes and returns what the server answered before closing the connection. */
const raw = (port: number, bytes: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });

describe('HttpListener', () => {
  it('serves the handler on the port the system chose, at its url', async () => {
    listener = await HttpListener.open(hello, { host: '127.0.0.1', port: 0 });
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}`);
    expect(await (await fetch(`${listener.url}/anything`)).text()).toBe('hello');
  });

  it('rejects when the port is taken', async () => {
    listener = await HttpListener.open(hello, { host: '127.0.0.1', port: 0 });
    await expect(HttpListener.open(hello, { host: '127.0.0.1', port: listener.port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('answers a request that does not parse with a bare 400 and closes, when asked to', async () => {
    listener = await HttpListener.open(hello, { host: '127.0.0.1', port: 0, answerBadRequests: true });
    expect(await raw(listener.port, 'NOT HTTP\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });

  it('stops idempotently: every close returns the same promise, ends a kept-alive connection and frees the port', async () => {
    const l = await HttpListener.open(hello, { host: '127.0.0.1', port: 0 });
    let answered!: () => void;
    const served = new Promise<void>((resolve) => (answered = resolve));
    const closedByServer = new Promise<void>((resolve) => {
      const socket = connect(l.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n'));
      socket.on('data', () => answered()); // answered; the connection is kept alive
      socket.on('close', () => resolve());
    });
    await served;
    const first = l.close();
    expect(l.close()).toBe(first);
    await first;
    await closedByServer;
    await expect(fetch(l.url)).rejects.toThrow();
    await l.close(); // once more after the end: still fine
  });
});
