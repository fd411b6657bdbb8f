// A real headless browser for tests: Debian's `chromium` (scripts/setup.sh installs it), driven over the Chrome
// DevTools Protocol with the `ws` client the project already has: a temporary profile, a port the browser chooses
// (read from its "DevTools listening on" line), stopped by its pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { waitFor } from '../harness/kafka.js';

export interface BrowserPage {
  /** Evaluates `expression` in the page (awaiting a promise) and returns its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
}

export interface Browser {
  open(url: string, size?: { width: number; height: number }): Promise<BrowserPage>;
  close(): Promise<void>;
}

function chromiumBinary(): string {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  throw new Error('chromium is not installed: run scripts/setup.sh (Debian package "chromium")');
}

export async function launchChromium(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'slotstream-chromium-'));
  const child: ChildProcess = spawn(
    chromiumBinary(),
    [
      '--headless=new',
      '--no-sandbox', // tests run as root on CI machines, where Chromium's sandbox refuses to start
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      `--user-data-dir=${profile}`,
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = (): void => void child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', onExit);
    await rm(profile, { recursive: true, force: true });
  };
  let endpoint: string;
  try {
    endpoint = await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`chromium exited (${child.exitCode}): ${stderr.slice(-2000)}`);
        return /DevTools listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
      },
      { what: 'chromium to listen for DevTools', timeoutMs: 300_000, intervalMs: 50 },
    );
  } catch (err) {
    await stop();
    throw err;
  }

  const socket = new WebSocket(endpoint, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(`CDP: ${msg.error.message}`));
    else p?.resolve(msg.result);
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  return {
    async open(url, size = { width: 1280, height: 900 }) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      await send('Page.enable', {}, sessionId);
      await send('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false }, sessionId);
      await send('Page.navigate', { url }, sessionId);
      return {
        async evaluate<T>(expression: string): Promise<T> {
          const r = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string } }>(
            'Runtime.evaluate',
            { expression, returnByValue: true, awaitPromise: true },
            sessionId,
          );
          if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.text}`);
          return r.result.value as T;
        },
        async screenshot() {
          const { data } = await send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
          return Buffer.from(data, 'base64');
        },
      };
    },
    async close() {
      socket.close();
      await stop();
    },
  };
}
