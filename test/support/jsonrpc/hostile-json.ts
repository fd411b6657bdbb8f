// Hostile JSON of issue 18 (item 8): arrays nested thousands of levels deep, well under the body limits.

/** The text of an array nested `depth` levels: `[[[…]]]` (6,000 levels = 12 KB). */
export const nestedArrayText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** That array as a value, as JSON.parse gives it (V8 parses any depth; JSON.stringify of it overflows the stack). */
export const nestedArray = (depth: number): unknown => JSON.parse(nestedArrayText(depth));
