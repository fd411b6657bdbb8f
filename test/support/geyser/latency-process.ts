// Starts test/support/geyser/latency-child.ts (a real Yellowstone client in its own process) and asks it
// for the api-internal latencies it measured.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export class LatencyClientProcess {
  private constructor(private readonly proc: ChildProcess) {}

  static async start(port: number, account: string): Promise<LatencyClientProcess> {
    const proc = fork(fileURLToPath(new URL('./latency-child.ts', import.meta.url)), [String(port), account], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // A test that fails half-way must not leave the child running.
    const onExit = (): void => void proc.kill('SIGKILL');
    process.once('exit', onExit);
    proc.once('exit', () => process.off('exit', onExit));
    await new Promise<void>((resolve, reject) => {
      proc.once('exit', (code) => reject(new Error(`latency client exited with ${code} before it was ready`)));
      proc.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    });
    return new LatencyClientProcess(proc);
  }

  /** How many transaction updates the client received so far. */
  count(): Promise<number> {
    return this.request<number>('count');
  }

  /** The api-internal latency (ms) of every transaction update received so far, in arrival order. */
  take(): Promise<number[]> {
    return this.request<number[]>('take');
  }

  private request<T>(cmd: 'count' | 'take'): Promise<T> {
    return new Promise((resolve) => {
      const on = (m: Record<string, unknown>): void => {
        if (cmd in m) {
          this.proc.off('message', on);
          resolve(m[cmd] as T);
        }
      };
      this.proc.on('message', on);
      this.proc.send({ cmd });
    });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.send({ cmd: 'stop' });
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
