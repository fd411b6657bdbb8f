// Test helpers shared by the simulator's unit tests (not used at run time).
import { createPublicKey, verify } from 'node:crypto';
import type { SlotBatch } from '../source.js';
import { createSimSource } from './createSimSource.js';
import { DEFAULT_SIM_OPTIONS, type SimOptions } from './options.js';

export const testOptions = (o: Partial<SimOptions> = {}): SimOptions => ({
  ...DEFAULT_SIM_OPTIONS,
  slotMs: 0,
  maxSlots: 40,
  ...o,
});

export async function collect(o: Partial<SimOptions>, afterSlot?: bigint): Promise<SlotBatch[]> {
  const out: SlotBatch[] = [];
  for await (const b of createSimSource(testOptions(o)).batches({ afterSlot })) out.push(b);
  return out;
}

export function verifyEd25519(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
  return verify(null, message, key, signature);
}
