// Benchmark child processes (api, ingest, clients in processes of their own, so each one's CPU is its own):
// fork a worker script with a role, talk to it over IPC (request/answer by key), stop it (SIGKILL after 15 s).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Worker {
  proc: ChildProcess;
  /** Sends `msg` and resolves with the value under `key` of the first answer that has it. */
  request<T>(msg: object, key: string): Promise<T>;
}

/** Starts `script` with `role` as its argument; resolves when it says `{ ready: true, port? }`. */
export function startWorker(
  script: URL,
  role: string,
  envs: Record<string, string>,
  extraExecArgv: string[] = [],
): Promise<{ w: Worker; port?: number }> {
  const proc = fork(fileURLToPath(script), [role], {
    execArgv: ['--import', 'tsx', ...extraExecArgv],
    env: { ...process.env, ...envs },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const w: Worker = {
    proc,
    request: <T>(msg: object, key: string) =>
      new Promise<T>((resolve) => {
        const on = (m: Record<string, unknown>): void => {
          if (key in m) {
            proc.off('message', on);
            resolve(m[key] as T);
          }
        };
        proc.on('message', on);
        proc.send(msg);
      }),
  };
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${role} worker exited with ${code}`)));
    proc.on('message', (m: { ready?: boolean; port?: number }) => {
      if (m.ready) resolve({ w, port: m.port });
    });
  });
}

/** Asks the worker to stop; kills it if it has not exited after 15 s. */
export async function stopWorker(w: Worker): Promise<void> {
  if (w.proc.exitCode !== null) return;
  const exited = new Promise<void>((r) => w.proc.once('exit', () => r()));
  w.proc.send({ cmd: 'stop' });
  const timer = setTimeout(() => w.proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
