// Kafka's own Java `Utils.murmur2` (from the broker jars the launcher fetched), for checking our
// partitioning against the reference implementation rather than against our own code.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureKafkaJars } from '../../../platform/local-kafka/launcher.js';

const run = promisify(execFile);

/** Reads `<partitions>` and hex keys as arguments, prints each key's partition on a line of its own. */
const SOURCE = [
  'import org.apache.kafka.common.utils.Utils;',
  'public class Partitions {',
  '  public static void main(String[] args) {',
  '    int n = Integer.parseInt(args[0]);',
  '    StringBuilder out = new StringBuilder();',
  '    for (int i = 1; i < args.length; i++) {',
  '      String h = args[i];',
  '      byte[] b = new byte[h.length() / 2];',
  '      for (int j = 0; j < b.length; j++) b[j] = (byte) Integer.parseInt(h.substring(2 * j, 2 * j + 2), 16);',
  "      out.append(Utils.toPositive(Utils.murmur2(b)) % n).append('\\n');",
  '    }',
  '    System.out.print(out);',
  '  }',
  '}',
].join('\n');

/** The class compiled once per process: the single-file launcher compiled it again on every call (javac in the JVM,
 * ~3 s of CPU each, five calls in kafka.int.test.ts). */
let compiled: Promise<string> | undefined;
let compiledIn: string | undefined;

/** Removes the compiled class (a test file's afterAll: vitest ends its workers without their exit handlers). */
export function removeJavaPartitions(): void {
  if (compiledIn !== undefined) rmSync(compiledIn, { recursive: true, force: true });
  compiled = compiledIn = undefined;
}

async function classPath(): Promise<string> {
  const libs = await ensureKafkaJars();
  const clients = (await readdir(libs)).find((f) => /^kafka-clients-.*\.jar$/.test(f));
  if (!clients) throw new Error(`no kafka-clients jar in ${libs}`);
  const dir = await mkdtemp(join(tmpdir(), 'murmur2-'));
  compiledIn = dir;
  const src = join(dir, 'Partitions.java');
  await writeFile(src, SOURCE);
  await run('javac', ['-cp', join(libs, clients), '-d', dir, src]);
  return `${dir}:${join(libs, '*')}`;
}

/** Partitions Kafka's Java client picks for each key (hex) among `partitions`. */
export async function javaPartitions(keys: Buffer[], partitions: number): Promise<number[]> {
  compiled ??= classPath();
  // A few hundred hashes: the C1 compiler alone starts the JVM sooner and is plenty.
  const { stdout } = await run(
    'java',
    ['-XX:TieredStopAtLevel=1', '-cp', await compiled, 'Partitions', String(partitions), ...keys.map((k) => k.toString('hex') || '')],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout.trim().split('\n').map(Number);
}
