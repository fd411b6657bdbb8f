// zstd for the `base64+zstd` encoding. Node 20 has no zstd in zlib, so a WebAssembly build of the
// reference library is used (@bokuweb/zstd-wasm: no native build, no download at install time).
import { compress, init } from '@bokuweb/zstd-wasm';

let ready: Promise<void> | undefined;
let loaded = false;

/**
 * Loads the WebAssembly module once; call before zstdCompress. Once per process, for every user of the package (tests
 * included): a second init() instantiates the module again and swaps its memory under the functions already bound to
 * the first instance, and later calls read the wrong memory.
 */
export const zstdReady = (): Promise<void> =>
  (ready ??= init().then(() => {
    loaded = true;
  }));

/** Whether zstdReady has resolved: a synchronous answer (the JSON-RPC head cache's) may compress only then. */
export const zstdLoaded = (): boolean => loaded;

/** Compresses at level 3 (the zstd default, what Agave uses). zstdReady must have resolved. */
export const zstdCompress = (data: Uint8Array): Uint8Array => compress(data, 3);
