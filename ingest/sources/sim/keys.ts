// Deterministic ed25519 keys from the seed, signed with node:crypto (synchronous, ~50 µs per
// signature here; @solana/kit's WebCrypto signing is async and slower per call).
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { streamBytes } from './rng.js';

export interface Keypair {
  publicKey: Buffer;
  privateKey: KeyObject;
}

// JWK import of the raw private scalar seed is about twice as fast as PKCS#8 DER here. Node builds
// the key from `d` alone; `x` is required by the format but not used, so the public key is derived.
const UNUSED_X = Buffer.alloc(32).toString('base64url');

/** The keypair for (seed, role, index): the same inputs always give the same key. */
export function deriveKeypair(seed: number, role: string, index: number | bigint): Keypair {
  const secret = streamBytes(seed, 'key', role, index);
  const privateKey = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: secret.toString('base64url'), x: UNUSED_X },
    format: 'jwk',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { publicKey: Buffer.from(jwk.x!, 'base64url'), privateKey };
}

export function signMessage(message: Uint8Array, key: KeyObject): Buffer {
  return sign(null, message, key);
}
