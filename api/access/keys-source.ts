// The keys file on disk (I/O around the pure parser): read at start (a bad file stops the start, naming the
// problem), then read again whenever it changes or `reload()` is called (the role wiring calls it on SIGHUP). A
// reload that fails keeps the keys in force and logs why: a half-written file never opens or locks out anyone.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { watchFiles } from '../../platform/watch-files.js';
import type { AccessControl } from './access.js';
import { parseKeysFile, type KeyEntry } from './keys-file.js';

export class KeysSource {
  private readonly unwatch: () => void;
  /** Reloads run one at a time, in order; a change during one reads the file again after it. */
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly access: AccessControl,
    private readonly log: Logger,
  ) {
    this.unwatch = watchFiles([path], () => void this.reload());
  }

  /** Reads the file (throws when it is missing or invalid) and keeps it in force until closed. */
  static open(path: string, access: AccessControl, log: Logger): KeysSource {
    let keys: KeyEntry[];
    try {
      keys = parseKeysFile(readFileSync(path, 'utf8'), path);
    } catch (err) {
      throw new Error(`keys file: ${(err as Error).message}`, { cause: err });
    }
    access.replace(keys);
    log.info({ path, keys: keys.length }, 'API keys loaded');
    return new KeysSource(path, access, log);
  }

  /** Reads the file again; resolves once its keys are in force (or the failure was logged). */
  reload(): Promise<void> {
    this.chain = this.chain.then(async () => {
      try {
        const keys = parseKeysFile(await readFile(this.path, 'utf8'), this.path);
        const { added, removed } = this.access.replace(keys);
        this.log.info({ path: this.path, keys: keys.length, added, revoked: removed }, 'API keys reloaded');
      } catch (err) {
        this.log.error({ path: this.path, err: (err as Error).message }, 'API keys not reloaded: the keys in force stay');
      }
    });
    return this.chain;
  }

  close(): void {
    this.unwatch();
  }
}
