// The repository paths a Markdown page names, and which of them do not exist (issue 35: a newcomer must be able
// to trust every path the docs give). What counts as a path is decided here, and said in docs/architecture.md
// ("Docs name only real paths"):
// - a backticked span outside fenced code blocks, or the target of a relative Markdown link;
// - with a slash: a path when it starts with `./` or `../`, or its first segment is a top-level entry of the
//   repository or an entry of the page's own folder; one starting with `../` when the folder it climbs into is
//   beside the page (else it is read from the root, as `../shared/spec/interface.md`: outside; a link's target is
//   always read from the page, as a browser follows it) (so `stream.Stream/Subscribe`, `application/json` or
//   another project's `idl/pump.json` are not paths); it must exist relative to the page's folder or to the
//   repository root, as a file or a folder;
// - without a slash, ending in a known extension (`framer.ts`, `events.proto`): a path when it is not a
//   dotted name of code (`x.ts` as a file name only); it must be the name of some file in the repository
//   (pages name files by their bare name where the folder is clear from the sentence);
// - never a path: URLs, absolute paths (`/health` is an HTTP path), npm package names (`@scope/name`),
//   templates and globs (`<name>`, `*`, `{a,b}`, `…`), anything resolving outside the repository
//   (`../shared/spec/interface.md`), and what is generated or installed (the git-ignored folders).
// A trailing `:line` or `:from-to` and a `#anchor` are dropped before the check.
import { posix } from 'node:path';

export interface Finding {
  readonly page: string;
  readonly line: number;
  readonly path: string;
}

/** Extensions that make a slash-less span a file name. */
export const FILE_EXTENSIONS = ['ts', 'js', 'mjs', 'cjs', 'json', 'jsonl', 'md', 'proto', 'sql', 'yaml', 'yml', 'sh', 'png', 'binpb'];
const EXTENSION = new RegExp(`\\.(${FILE_EXTENSIONS.join('|')})$`);
const TEMPLATE = /[<>*?{}[\]…$|]|\.\.\.|\s/;

/** The tree a page is checked against: every file (repository-relative, `/`-separated) and the ignored tops. */
export class RepoTree {
  private readonly files: ReadonlySet<string>;
  private readonly folders = new Set<string>();
  private readonly basenames = new Set<string>();
  private readonly tops = new Set<string>();

  constructor(
    files: readonly string[],
    private readonly ignoredTops: ReadonlySet<string>,
  ) {
    this.files = new Set(files);
    for (const f of files) {
      const parts = f.split('/');
      this.tops.add(parts[0]!);
      this.basenames.add(parts[parts.length - 1]!);
      for (let i = 1; i < parts.length; i++) this.folders.add(parts.slice(0, i).join('/'));
    }
  }

  has(path: string): boolean {
    const p = path.replace(/\/+$/, '');
    return p === '' || p === '.' || this.files.has(p) || this.folders.has(p);
  }

  isFolder(path: string): boolean {
    return this.folders.has(path.replace(/\/+$/, ''));
  }

  hasBasename(name: string): boolean {
    return this.basenames.has(name);
  }

  isTop(segment: string): boolean {
    return this.tops.has(segment) || this.ignoredTops.has(segment);
  }

  isIgnored(segment: string): boolean {
    return this.ignoredTops.has(segment);
  }
}

/** A path-like text of a page: a backticked span, or the target of a Markdown link. */
export interface NamedSpan {
  line: number;
  span: string;
  link: boolean;
}

/** Backticked spans outside fenced blocks and relative link targets, with their line numbers. */
export function namedSpans(text: string): NamedSpan[] {
  const out: NamedSpan[] = [];
  let fenced = false;
  text.split('\n').forEach((row, i) => {
    if (/^\s*(```|~~~)/.test(row)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const m of row.matchAll(/(`+)([^`]+?)\1(?!`)/g)) out.push({ line: i + 1, span: m[2]!.trim(), link: false });
    const plain = row.replace(/(`+)[^`]+?\1(?!`)/g, '');
    for (const m of plain.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ line: i + 1, span: m[1]!, link: true });
  });
  return out;
}

/** The repository path a span names, relative to the root, or undefined when the span is not one. */
export function spanPath(span: string, page: string, tree: RepoTree, link = false): string | undefined | { missing: string } {
  let s = span.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '');
  if (s === '' || TEMPLATE.test(s) || s.includes('://') || s.startsWith('/') || s.startsWith('@')) return undefined;
  if (/^[a-z]+:/i.test(s)) return undefined; // mailto:, a key:value
  const dir = posix.dirname(page);
  if (!s.includes('/')) {
    if (!EXTENSION.test(s) || !/^[\w.-]+$/.test(s)) return undefined;
    if (tree.has(posix.join(dir, s)) || tree.has(s) || tree.hasBasename(s)) return s;
    return { missing: s };
  }
  s = s.replace(/^\.\/(?=.)/, '');
  const first = s.split('/')[0]!;
  const fromPage = posix.normalize(posix.join(dir, s));
  if (s.startsWith('../')) {
    // Outside the repository from the page, or (a backticked span only) its first folder after the `../` run is not
    // beside the page: then it is read from the root, as `../shared/spec/interface.md`, and lies outside. A link is
    // followed from the page whatever it names.
    const up = s.match(/^(\.\.\/)+/)![0];
    const firstBeside = posix.normalize(posix.join(dir, up, s.slice(up.length).split('/')[0]!));
    if (fromPage.startsWith('..')) return undefined;
    if (!link && (firstBeside.startsWith('..') || !tree.has(firstBeside))) return undefined;
    if (tree.isIgnored(fromPage.split('/')[0]!)) return undefined;
    return tree.has(fromPage) ? fromPage : { missing: s };
  }
  const inPage = dir !== '.' && tree.has(posix.join(dir, first));
  if (!tree.isTop(first) && !inPage) return undefined;
  if (tree.isIgnored(first)) return undefined;
  if (inPage && tree.has(fromPage)) return fromPage;
  if (tree.has(s)) return s;
  return { missing: s };
}

/** Every path a page names that is not in the tree. */
export function deadPaths(page: string, text: string, tree: RepoTree): Finding[] {
  const out: Finding[] = [];
  for (const { line, span, link } of namedSpans(text)) {
    const p = spanPath(span, page, tree, link);
    if (p !== undefined && typeof p !== 'string') out.push({ page, line, path: p.missing });
  }
  return out;
}

/**
 * The folders the architecture page names: every word ending in `/` inside its Layout block that starts with a
 * top-level folder (written from the root there, `api/live/`), and every backticked span ending in `/`.
 */
export function architectureFolders(text: string, tree: RepoTree): { line: number; folder: string }[] {
  const out: { line: number; folder: string }[] = [];
  const rows = text.split('\n');
  let inLayout = false;
  let fenced = false;
  rows.forEach((row, i) => {
    if (/^#+\s/.test(row)) inLayout = /^#+\s+Layout\b/.test(row);
    if (/^\s*```/.test(row)) {
      fenced = !fenced;
      return;
    }
    if (inLayout && fenced)
      for (const m of row.matchAll(/(?<![\w./-])([\w.-]+(?:\/[\w.-]+)*\/)(?![\w.-])/g))
        if (tree.isTop(m[1]!.split('/')[0]!)) out.push({ line: i + 1, folder: m[1]! });
    if (!fenced)
      for (const m of row.matchAll(/`([\w.-]+(?:\/[\w.-]+)*\/)`/g))
        if (tree.isTop(m[1]!.split('/')[0]!)) out.push({ line: i + 1, folder: m[1]! });
  });
  return out;
}
