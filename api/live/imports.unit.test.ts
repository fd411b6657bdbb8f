// The live layer's files import each other in one direction (issue 19: the identity window and the live tail
// were tied by a type cycle; the record types now live in stream-event.ts, which both import).
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { importCycles } from '../../test/support/imports.js';

describe('api/live imports', () => {
  it('have no cycle', () => {
    expect(importCycles(path.dirname(fileURLToPath(import.meta.url)))).toEqual([]);
  });
});
