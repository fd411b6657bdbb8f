// Test helper: import cycles among the product files of one folder (relative imports, type-only ones included:
// a type cycle ties two files together as much as a value one does).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Each cycle found, as its files in import order (names relative to `folder`); [] when there is none. */
export function importCycles(folder: string): string[][] {
  const files = readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const imports = new Map<string, string[]>();
  for (const f of files) {
    const src = readFileSync(path.join(folder, f), 'utf8');
    const deps = [...src.matchAll(/from '\.\/([^'/]+)\.js'/g)].map((m) => `${m[1]}.ts`).filter((d) => files.includes(d));
    imports.set(f, deps);
  }
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (f: string, stack: string[]): void => {
    const at = stack.indexOf(f);
    if (at >= 0) {
      cycles.push(stack.slice(at));
      return;
    }
    if (done.has(f)) return;
    for (const d of imports.get(f) ?? []) visit(d, [...stack, f]);
    done.add(f);
  };
  for (const f of files) visit(f, []);
  return cycles;
}
