// Test helpers shared by the filter tests: numbered keys and signatures, and compiling a request.
import bs58 from 'bs58';
import { compileSubscribeRequest } from '../../../api/filters/from-stream.js';
import { DEFAULT_FILTER_LIMITS, type CompiledSubscription } from '../../../api/filters/types.js';
import { streamRequest, type StreamRequestInput } from './stream-request.js';

export const raw = (n: number): Buffer => Buffer.alloc(32, n);
export const key = (n: number): string => bs58.encode(raw(n));
export const rawSig = (n: number): Buffer => Buffer.alloc(64, n);
export const sig = (n: number): string => bs58.encode(rawSig(n));

/** Compiles with the default limits; a request the test expects to be valid throws otherwise. */
export function sub(partial: StreamRequestInput): CompiledSubscription {
  const r = compileSubscribeRequest(streamRequest(partial), DEFAULT_FILTER_LIMITS);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
