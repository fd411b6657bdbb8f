// Deterministic ed25519 keys from the seed, signed with node:crypto (synchronous, ~50 µs per
// signature here; @solana/kit's WebCrypto signing is async and slower per call).
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { asBuffer } from '../../../schemas/bytes.js';
import { streamBytes } from './rng.js';

export interface Keypair {
  publicKey: Buffer;
  privateKey: KeyObject;
}

// The 32-byte seed as PKCS#8 DER (RFC 8410: a fixed 16-byte header, then the seed). A JWK import with a
// placeholder `x` was faster, but Node 24.22 checks `x` against `d` and refuses it ("Invalid JWK OKP key").
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

// Derived keypairs, cached like PDAs (pda.ts): the PKCS#8 import is ~1 ms (OpenSSL's decoder), two thirds of a
// genesis (1,000 users, 2 keys per validator), and every chain of a seed derives the same genesis keys: a resumed
// or prepared run, a standby's thread, the tests' chains. Keys are never mutated, so chains can share them.
const cache = new Map<string, Keypair>();
const CACHE_MAX = 100_000;

/** The keypair for (seed, role, index): the same inputs always give the same key. */
export function deriveKeypair(seed: number, role: string, index: number | bigint): Keypair {
  const cacheKey = `${seed}/${role}/${index}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const secret = streamBytes(seed, 'key', role, index);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secret]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kp = { publicKey: Buffer.from(jwk.x!, 'base64url'), privateKey };
  if (cache.size >= CACHE_MAX) cache.clear(); // bound memory on very long runs (new users keep coming)
  cache.set(cacheKey, kp);
  return kp;
}

/** The cached keypairs, to hand to another thread (KeyObjects cross postMessage and workerData): the simulator's
 * worker threads each derived the same genesis keys again (~1,000 imports, ~1 CPU s a thread), for every ingest,
 * standby or test chain of a process; thread.ts now passes the process's keys into a new thread and takes its
 * genesis keys back. The first `max` only (the oldest: a genesis derives about a thousand), so that a long run's cache does not
 * cost a long clone. */
export function cachedKeypairs(max = 10_000): [string, Keypair][] {
  const out: [string, Keypair][] = [];
  for (const e of cache) {
    if (out.length >= max) break;
    out.push(e);
  }
  return out;
}

/** Adds keypairs another thread derived (see cachedKeypairs); a structured clone turns the public key's Buffer
 * into a plain Uint8Array, made a Buffer again here. */
export function addCachedKeypairs(entries: readonly (readonly [string, { publicKey: Uint8Array; privateKey: KeyObject }])[]): void {
  for (const [k, kp] of entries) {
    if (cache.size >= CACHE_MAX) return;
    if (!cache.has(k)) cache.set(k, { publicKey: asBuffer(kp.publicKey), privateKey: kp.privateKey });
  }
}

export function signMessage(message: Uint8Array, key: KeyObject): Buffer {
  return sign(null, message, key);
}
