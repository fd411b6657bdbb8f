// Every repository path the Markdown pages name exists, and every folder the architecture page names is in the
// tree (issue 35 item 4). What counts as a path: test/support/docs/md-paths.ts and docs/architecture.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoFiles, UNTRACKED_DIRS } from '../scripts/repo-files.js';
import { architectureFolders, deadPaths, RepoTree } from './support/docs/md-paths.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const files = (): string[] => repoFiles(ROOT);

const tree = (list: string[]) => new RepoTree(list, UNTRACKED_DIRS);
const TOY = tree(['README.md', 'api/live/hub.ts', 'api/live/README.md', 'docs/decisions.md', 'schemas/events.proto']);

describe('what counts as a path', () => {
  it('finds a dead path beside live ones, by line', () => {
    const page = 'x\n`api/live/hub.ts` and `api/live/gone.ts`\n[d](docs/decisions.md) [e](docs/none.md)\n';
    expect(deadPaths('README.md', page, TOY)).toEqual([
      { page: 'README.md', line: 2, path: 'api/live/gone.ts' },
      { page: 'README.md', line: 3, path: 'docs/none.md' },
    ]);
  });

  it('resolves from the page folder or the root, and knows files by their bare name', () => {
    const page =
      '`hub.ts` `../../docs/decisions.md` `README.md` `events.proto` `../live/hub.ts` `gone.ts` `../../docs/none.md` `../shared/x.md`';
    expect(deadPaths('api/live/README.md', page, TOY).map((f) => f.path)).toEqual(['gone.ts', '../../docs/none.md']);
  });

  it('follows a link from its page, where a backticked `../` span that climbs to nothing beside it is read from the root', () => {
    const page = '[a](../README.md) [b](../sizing.md) [c](../../outside.md) `../sizing.md`';
    expect(deadPaths('docs/decisions.md', page, TOY).map((f) => f.path)).toEqual(['../sizing.md']);
  });

  it('leaves out what is not a repository path', () => {
    const page = [
      '`stream.Stream/Subscribe` `application/json` `/health` `@solana/web3.js` `https://x.y/z.md`',
      '`../shared/spec/interface.md` `ingest/sources/<name>/` `schemas/clickhouse/*.sql` `.cache/kafka/` `x.y`',
      '```ts',
      'const s = `api/none.ts`;',
      '```',
    ].join('\n');
    expect(deadPaths('README.md', page, TOY)).toEqual([]);
  });

  it('reads the folders of the Layout block and backticked folders', () => {
    const page = '## Layout\n```\napi/          live/ api/live/ api/none/\n```\n## Other\n`api/live/` `schemas/`';
    expect(architectureFolders(page, TOY).map((f) => f.folder)).toEqual(['api/', 'api/live/', 'api/none/', 'api/live/', 'schemas/']);
  });
});

describe('the docs of this repository', () => {
  const list = files();
  const repo = tree(list);

  it('name only paths that exist', () => {
    const findings = list
      .filter((f) => f.endsWith('.md'))
      .flatMap((page) => deadPaths(page, readFileSync(join(ROOT, page), 'utf8'), repo))
      .map((f) => `${f.page}:${f.line}: ${f.path}`);
    expect(findings).toEqual([]);
  });

  it('docs/architecture.md names only folders that are in the tree', () => {
    const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = architectureFolders(text, repo);
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((f) => !repo.isFolder(f.folder)).map((f) => `line ${f.line}: ${f.folder}`)).toEqual([]);
  });
});
