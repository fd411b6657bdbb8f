// Lists product functions longer than a bound (issue 35: "no product function over 60 lines except generated
// code and documented algorithms"). Product code: the tracked *.ts files outside tests (*.test.ts, test/),
// generated code (proto/gen) and benchmarks (bench/). A function's length is its lines from its first to its
// last (the signature through the closing brace), counted once per function: a function nested in a long one
// is measured on its own and also counts towards its parent. Run: `npx tsx scripts/long-functions.ts [max]`;
// scripts/long-functions.unit.test.ts runs it against the allow-list.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { repoFiles } from './repo-files.js';

export const MAX_FUNCTION_LINES = 60;

export interface LongFunction {
  /** `path:name`, stable across edits elsewhere in the file (the allow-list's key). */
  id: string;
  file: string;
  name: string;
  line: number;
  lines: number;
}

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether a repository path is product code (what the bound applies to). */
export function isProductFile(path: string): boolean {
  if (!path.endsWith('.ts') || path.endsWith('.d.ts')) return false;
  if (path.endsWith('.test.ts')) return false;
  return !/^(test|bench|node_modules|proto\/gen)\//.test(path) && !path.includes('/gen/');
}

/** A readable name for a function node: its declared name, or the variable, property or class member holding it. */
function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  if (own !== undefined && (ts.isIdentifier(own) || ts.isStringLiteral(own) || ts.isPrivateIdentifier(own))) {
    const cls = node.parent !== undefined && ts.isClassLike(node.parent) ? node.parent.name?.text : undefined;
    return cls === undefined ? own.text : `${cls}.${own.text}`;
  }
  if (ts.isConstructorDeclaration(node)) return `${(node.parent as ts.ClassLikeDeclaration).name?.text ?? 'class'}.constructor`;
  const p = node.parent;
  if (
    p !== undefined &&
    (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) &&
    ts.isIdentifier(p.name)
  )
    return p.name.text;
  if (p !== undefined && ts.isCallExpression(p)) {
    const callee = p.expression.getText().slice(0, 40);
    return `(callback of ${callee})`;
  }
  return '(anonymous)';
}

/** The functions of one source text over `max` lines. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) {
        const name = nameOf(node);
        // Two functions of one name in a file (callbacks): numbered in order so each id stays unique.
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        out.push({ id: `${file}:${name}${n > 1 ? `#${n}` : ''}`, file, name, line: start + 1, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every product function over `max` lines in the repository's tracked files, longest first. */
export function longFunctions(max = MAX_FUNCTION_LINES, root = ROOT): LongFunction[] {
  const files = repoFiles(root).filter(isProductFile);
  const out: LongFunction[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(root, f), 'utf8');
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    out.push(...longFunctionsIn(f, text, max));
  }
  return out.sort((a, b) => b.lines - a.lines || a.id.localeCompare(b.id));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const max = Number(process.argv[2] ?? MAX_FUNCTION_LINES);
  const found = longFunctions(max);
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${found.length} product functions over ${max} lines`);
}
