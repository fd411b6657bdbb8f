// The api's access check (issue 36): the shared token and the keys file in one AccessControl for every interface,
// the keys file read again on change and on SIGHUP, the usage metrics, and the usage records when asked for.
// Stopped after the transports (the stop list runs newest first), so the last usage line counts everything.
import { AccessControl, addUsageMetrics, KeysSource, UsageRecorder } from '../api/access/index.js';
import type { AccessSection } from '../api/options.js';
import type { Logger } from '../platform/log.js';
import type { StopList } from './stop-list.js';

export function openAccess(o: AccessSection, stops: StopList, log: Logger): AccessControl {
  const access = new AccessControl({ sharedToken: o.authToken });
  const removeMetrics = addUsageMetrics(access);
  stops.add('usage metrics', () => Promise.resolve(removeMetrics()));
  if (o.keysFile !== undefined) {
    const keys = KeysSource.open(o.keysFile, access, log);
    const onHangUp = (): void => {
      log.info({ path: o.keysFile }, 'SIGHUP: reading the keys file again');
      void keys.reload();
    };
    process.on('SIGHUP', onHangUp);
    stops.add('keys file', () => {
      process.off('SIGHUP', onHangUp);
      keys.close();
      return Promise.resolve();
    });
  }
  if (o.usage !== undefined) {
    const recorder = new UsageRecorder(access, o.usage.path, o.usage.intervalMs);
    stops.add('usage records', () => recorder.close());
  }
  if (access.open) log.info('api: no --auth-token and no --keys-file: every interface is open to anyone who can reach it');
  return access;
}
