// JSON text from a Solana node with exact u64 values. Agave writes lamports, balances and compute units as
// JSON numbers, which can exceed 2^53 (a few stake accounts' balances); JSON.parse would round them. Integer
// literals of 16 digits or more outside strings are turned into strings first; the converters read u64
// fields from either form.

/** JSON.parse, with integer literals that may not fit a double kept exact as decimal strings. */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const LONG = 16;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Wraps every bare integer literal of LONG or more digits in quotes; strings are copied untouched. */
export function quoteLongIntegers(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip a string literal, escapes included.
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (isDigit(c) || c === 45) {
      const start = i;
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      const next = i < n ? text.charCodeAt(i) : 0;
      const isFraction = next === 46 || next === 101 || next === 69;
      const digits = i - start - (c === 45 ? 1 : 0);
      if (!isFraction && digits >= LONG) {
        out += text.slice(from, start) + '"' + text.slice(start, i) + '"';
        from = i;
      }
      // Skip the rest of a non-integer number so its exponent digits are not read as a new literal.
      while (i < n && /[0-9.eE+-]/.test(text[i]!)) i++;
      continue;
    }
    i++;
  }
  return from === 0 ? text : out + text.slice(from);
}
