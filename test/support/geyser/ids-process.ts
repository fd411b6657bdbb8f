// Starts test/support/geyser/ids-child.ts (a real Yellowstone client in its own process), collects the identities of
// the updates it received, and kills it (SIGKILL: the client dies, its connection closes).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';

export class GeyserIdsProcess {
  /** `<slot>:tx:<signature hex>` and `<slot>:acc:<pubkey hex>`, in arrival order. */
  readonly ids: string[] = [];

  private constructor(private readonly proc: ChildProcess) {
    proc.on('message', (m: { id?: string }) => {
      if (m.id !== undefined) this.ids.push(m.id);
    });
  }

  static async start(port: number, request: Partial<SubscribeRequest>): Promise<GeyserIdsProcess> {
    const proc = fork(fileURLToPath(new URL('./ids-child.ts', import.meta.url)), [String(port), JSON.stringify(request)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // A test that fails half-way must not leave the child running.
    const onExit = (): void => void proc.kill('SIGKILL');
    process.once('exit', onExit);
    proc.once('exit', () => process.off('exit', onExit));
    const child = new GeyserIdsProcess(proc);
    await new Promise<void>((resolve, reject) => {
      proc.once('exit', (code) => reject(new Error(`geyser client exited with ${code} before it was ready`)));
      proc.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    });
    return child;
  }

  /** SIGKILL; settles once the process is gone. */
  async kill(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGKILL');
    await exited;
  }
}
