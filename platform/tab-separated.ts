// Rows to ClickHouse's TabSeparated input format. The projector inserts in it because ClickHouse
// parses it (in parallel) much faster than JSON, and the embedded engine takes it as one Buffer
// without a copy. Escaping follows ClickHouse's "escaped" text rules: backslash, tab, newline and
// carriage return inside strings are written as \\ \t \n \r; NULL is \N; arrays are [...] with
// quoted elements.

export type TsvValue = string | number | bigint | boolean | null | undefined | readonly (string | number)[];

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : s;
}

/** An array element inside [...]: numbers as they are, strings single-quoted with ' and the escapes above. */
function quoteElement(v: string | number): string {
  if (typeof v === 'number') return String(v);
  return `'${v.replace(/[\\'\t\n\r]/g, (c) => (c === "'" ? "\\'" : ESCAPES[c]!))}'`;
}

export function tsvField(v: TsvValue): string {
  if (v === null || v === undefined) return '\\N';
  switch (typeof v) {
    case 'string':
      return escapeString(v);
    case 'boolean':
      return v ? '1' : '0';
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`TabSeparated: ${v} is not a finite number`);
      return String(v);
    case 'bigint':
      return String(v);
    default:
      return `[${v.map(quoteElement).join(',')}]`;
  }
}

/**
 * Rows (objects) to TabSeparated bytes, columns in the given order, one line per row. Strings of the
 * columns in `plain` are written without the escaping scan: the caller vouches that they never hold a
 * backslash, tab or line break (base58, base64, decimal digits).
 */
export function toTabSeparated<R>(rows: readonly R[], columns: readonly (keyof R)[], plain: ReadonlySet<keyof R> = new Set()): Buffer {
  const direct = columns.map((c) => plain.has(c));
  let body = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    for (let c = 0; c < columns.length; c++) {
      const v = row[columns[c]!] as TsvValue;
      body += (c === 0 ? '' : '\t') + (direct[c] && typeof v === 'string' ? v : tsvField(v));
    }
    body += '\n';
  }
  return Buffer.from(body);
}
