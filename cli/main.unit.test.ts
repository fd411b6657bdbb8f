// The CLI as a child process with config mistakes: it must exit non-zero within seconds, naming the
// mistake, before any service starts. It lives in the unit tier because, when it passes, nothing starts:
// `java` and `mvn` on PATH are stand-ins that only record that they were called (the local broker
// launcher runs both), so a check that ran after the broker start would show up here.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
let dir: string;
let marker: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-cli-'));
  marker = join(dir, 'started');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of ['java', 'mvn']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho ${tool} >> '${marker}'\nexit 1\n`);
    chmodSync(join(bin, tool), 0o755);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runCli(args: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(join(ROOT, 'bin/slotstream'), args, {
    cwd: ROOT,
    // A clean environment: no KAFKA_BROKERS or INGEST_* from the developer's shell.
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? dir, SLOTSTREAM_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    // A deadline against a hang (node and tsx start in ~1-2 s when quiet; a busy machine takes longer).
    const kill = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

describe('slotstream with a config mistake', () => {
  it.each([
    [['ingest', '--source', 'yellowstone'], /slotstream ingest: --source yellowstone needs --yellowstone-url/],
    [
      ['ingest', '--source', 'file', '--source-path', 'no-such-dir/missing.jsonl'],
      /slotstream ingest: option --source-path: no such file "no-such-dir\/missing\.jsonl"/,
    ],
    [['all', '--source', 'file'], /slotstream all: --source file needs --source-path/],
    [['projector', 'rebuilt'], /slotstream projector: unexpected argument "rebuilt" for role projector \(expected: rebuild\)/],
  ])('%j fails fast with a clear message and starts no broker', async (args, message) => {
    const r = await runCli([...args, '--metrics-port', '0']);
    expect(r.stderr).toMatch(message);
    expect(r.code, `exit after ${r.ms} ms`).toBe(2);
    // Fast means before any broker: the marker below proves none was started (a bound on the clock would measure
    // the machine's load, issue 32).
    expect(existsSync(marker), 'java or mvn was started').toBe(false);
  });
});
