// The repository's files, as paths relative to its root with `/` separators: the files git tracks plus untracked ones
// not ignored, or, outside a git checkout (a copy of the tree without .git, as an unpacked source archive), every file of the tree but the installed, generated and run-time folders (.gitignore).
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Top-level folders a clone does not hold (installed, generated or written at run time). */
export const UNTRACKED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.cache', '.data', '.git', 'dist', 'coverage']);

// Regular files only: an untracked symlink to a folder (a clone sharing another's node_modules) is not one.
const isFile = (path: string): boolean => {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false; // deleted in the work tree, not yet in the index
  }
};

export function repoFiles(root: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter((f) => f !== '' && !UNTRACKED_DIRS.has(f.split('/')[0]!) && isFile(join(root, f)));
  } catch {
    return (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)).split(sep).join('/'))
      .filter((f) => !UNTRACKED_DIRS.has(f.split('/')[0]!));
  }
}
