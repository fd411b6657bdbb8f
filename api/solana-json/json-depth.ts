// How deep a client's JSON may nest. Agave parses requests with serde_json, whose recursion limit (128) refuses
// a document nested 128 levels or more with a parse error; slotstream applies the same bound to every JSON
// text a client sends (JSON-RPC bodies, PubSub messages) before parsing it. Without it, V8's JSON.parse accepts
// any depth and whatever walks the value later (JSON.stringify, a recursive check) overflows the stack.

/** The deepest nesting accepted: serde_json's default recursion limit of 128, which refuses 128 levels. */
export const MAX_JSON_DEPTH = 127;

/**
 * Whether `text` opens more than `max` arrays/objects inside each other. One pass over the characters, strings
 * skipped (with their escapes); malformed text is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
