// The broker JVM's flags, which launcher.int.test.ts sees on a real process for the light broker the tests run.
import { describe, expect, it } from 'vitest';
import { jvmArgs } from './launcher.js';

describe('jvmArgs', () => {
  it("gives the service's broker Kafka's usual G1 collector and both compilers", () => {
    const args = jvmArgs('/libs', '/node', 'server.log', { heap: '1g', light: false });
    expect(args).toEqual(expect.arrayContaining(['-Xmx1g', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-cp', '/libs/*']));
    expect(args.join(' ')).not.toMatch(/TieredStopAtLevel|UseSerialGC/);
  });

  it('gives a light broker the C1 compiler only and the serial collector', () => {
    const args = jvmArgs('/libs', '/node', 'server.log', { heap: '512m', light: true });
    expect(args).toEqual(expect.arrayContaining(['-Xmx512m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC']));
    expect(args.join(' ')).not.toContain('G1');
  });

  it('writes the log where it is told', () => {
    expect(jvmArgs('/libs', '/node', 'format.log', { heap: '256m', light: true })).toContain('-Dslotstream.kafka.logfile=/node/format.log');
  });
});
