// The per-stream cache of the `filters` prefix put before a shared update body (the prefix itself:
// schemas/filters-prefix.ts, where the field's number is known).
import { encodeFiltersPrefix } from '../../schemas/filters-prefix.js';

export { encodeFiltersPrefix };

const EMPTY = Buffer.alloc(0);

/** Per-stream cache of the `filters` prefix: consecutive updates usually match the same names (compared
 * name by name: no key string built per update). */
export class PrefixCache {
  private names: readonly string[] | undefined;
  private bytes: Buffer = EMPTY;

  get(names: readonly string[]): Buffer {
    if (!this.same(names)) {
      this.names = [...names];
      this.bytes = encodeFiltersPrefix(names);
    }
    return this.bytes;
  }

  private same(names: readonly string[]): boolean {
    const last = this.names;
    if (last === undefined || last.length !== names.length) return false;
    for (let i = 0; i < names.length; i++) if (last[i] !== names[i]) return false;
    return true;
  }
}
