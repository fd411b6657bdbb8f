// The one way a client's value is printed into an error message (JSON-RPC, PubSub, the gRPC filter adapters and
// unary calls): a JSON preview cut at `max` characters. Iterative, with an explicit stack, and it stops as soon as the preview is long enough, so a
// hostile value (an array nested thousands of levels deep, a huge string or object) costs at most a few hundred
// steps and can neither overflow the stack (JSON.stringify recurses) nor blow up a message or a log line.

const DEFAULT_MAX = 100;

/** What is still to be written: a value, or a literal piece of punctuation. */
type Step = { value: unknown } | { text: string };

/** A bounded JSON preview of a client value: `"full"`, `[[[[[…`, `{"a":1,…`; `nothing` for undefined. */
export function describeValue(v: unknown, max = DEFAULT_MAX): string {
  if (v === undefined) return 'nothing';
  let out = '';
  const stack: Step[] = [{ value: v }];
  while (stack.length > 0 && out.length <= max) {
    const step = stack.pop()!;
    if ('text' in step) {
      out += step.text;
      continue;
    }
    const x = step.value;
    if (Array.isArray(x)) {
      // Pushed in reverse: the stack pops the first element first. Only as many as can still be shown.
      const shown = Math.min(x.length, max - out.length + 1);
      stack.push({ text: shown < x.length ? ',…' : ']' });
      for (let i = shown - 1; i >= 0; i--) {
        stack.push({ value: x[i] });
        if (i > 0) stack.push({ text: ',' });
      }
      out += '[';
    } else if (typeof x === 'object' && x !== null) {
      const keys: string[] = [];
      let more = false;
      for (const k in x) {
        if (!Object.hasOwn(x, k)) continue;
        if (keys.length > max - out.length) {
          more = true;
          break;
        }
        keys.push(k);
      }
      stack.push({ text: more ? ',…' : '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (x as Record<string, unknown>)[keys[i]!] });
        stack.push({ text: `${quoted(keys[i]!, max)}:` });
        if (i > 0) stack.push({ text: ',' });
      }
      out += '{';
    } else if (typeof x === 'string') {
      out += quoted(x, max);
    } else if (typeof x === 'bigint') {
      out += x.toString();
    } else {
      out += String(x); // numbers, booleans, null (JSON values hold nothing else)
    }
  }
  return out.length > max || stack.length > 0 ? `${out.slice(0, max)}…` : out;
}

/** A string as JSON, cut first so that a megabyte of text is not escaped to show a hundred characters. */
const quoted = (s: string, max: number): string => JSON.stringify(s.length > max ? s.slice(0, max) : s);
