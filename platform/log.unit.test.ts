// createLogger's formats as a person or a log collector sees them: on the real stderr of a child process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Runs a few lines of logging in a fresh process; returns its stderr. Pretty output exits right after the
 * last line (as the CLI does after a fatal one); JSON goes through pino's async destination, which main.ts
 * gives time to flush; the script flushes it explicitly, as a busy machine may not write it before exit.
 */
function stderrOf(format: 'json' | 'pretty'): Promise<string> {
  const script = `
    import { createLogger } from './platform/log.ts';
    const log = createLogger('info', 'slotstream', '${format}');
    log.info({ port: 9090 }, 'serving');
    log.fatal({ err: new Error('boom') }, 'failed to start');
    ${format === 'pretty' ? 'process.exit(1);' : 'await new Promise((r) => log.flush(r));'}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }, (_err, _out, stderr) =>
      resolve(stderr),
    );
  });
}

describe('createLogger', () => {
  it('pretty: readable lines on stderr, the last one kept although the process exits at once', async () => {
    const lines = (await stderrOf('pretty')).split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}serving port=9090$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z FATAL failed to start err=boom$/);
    expect(lines[2]).toBe('    Error: boom');
  });

  it('json: one JSON object per line', async () => {
    // pino writes fatal lines at once and the others through its buffer, so order is not asserted.
    const lines = (await stderrOf('json'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.msg === 'serving')).toMatchObject({ level: 30, name: 'slotstream', port: 9090 });
    expect(lines.find((l) => l.msg === 'failed to start')).toMatchObject({ level: 60, err: { message: 'boom' } });
  });
});
