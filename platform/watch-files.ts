// Watches files that are replaced while the process runs (a keys file, a renewed TLS certificate): a change of
// any of them calls `onChange` once. Polls each path's stat (fs.watchFile) rather than inotify (fs.watch): a file
// swapped by rename (certbot's symlinks, an editor's save, `mv new old`) is seen, as is one created later.
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** How often the files are looked at; a change is picked up within about this long. */
export const WATCH_INTERVAL_MS = 1000;

export function watchFiles(paths: readonly string[], onChange: () => void, intervalMs = WATCH_INTERVAL_MS): () => void {
  const listener = (now: Stats, before: Stats): void => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) onChange();
  };
  for (const p of paths) watchFile(p, { interval: intervalMs, persistent: false }, listener);
  return () => {
    for (const p of paths) unwatchFile(p, listener);
  };
}
