// Is a 32-byte string a valid compressed ed25519 point? PDAs must NOT be. Same decision as
// @solana/kit's isOffCurveAddress (RFC 8032 §5.1.3 decompression: a square root of
// u/v = (y²-1)/(d·y²+1) must exist; x = 0 with the sign bit set is rejected), but on raw bytes and
// with reductions mod 2^255-19 done by shifts instead of BigInt division, which made PDA search the
// simulator's top cost. curve.unit.test.ts checks it against kit on random inputs.
const P = 2n ** 255n - 19n;
const MASK = 2n ** 255n - 1n;
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
const SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752n;

/** r mod P for 0 <= r < 2^510 (any product of two reduced values). */
function red(r: bigint): bigint {
  r = (r & MASK) + 19n * (r >> 255n);
  r = (r & MASK) + 19n * (r >> 255n);
  return r >= P ? r - P : r;
}

const mul = (a: bigint, b: bigint): bigint => red(a * b);

function sqrN(x: bigint, n: number): bigint {
  let r = x;
  for (let i = 0; i < n; i++) r = red(r * r);
  return r;
}

/** x^((p-5)/8) = x^(2^252 - 3), by the usual addition chain. */
function pow22523(x: bigint): bigint {
  const x2 = mul(x, x);
  const b2 = mul(x2, x); // x^3
  const b4 = mul(sqrN(b2, 2), b2); // x^15
  const b5 = mul(sqrN(b4, 1), x); // x^31
  const b10 = mul(sqrN(b5, 5), b5);
  const b20 = mul(sqrN(b10, 10), b10);
  const b40 = mul(sqrN(b20, 20), b20);
  const b80 = mul(sqrN(b40, 40), b40);
  const b160 = mul(sqrN(b80, 80), b80);
  const b240 = mul(sqrN(b160, 80), b80);
  const b250 = mul(sqrN(b240, 10), b10);
  return mul(sqrN(b250, 2), x);
}

export function isOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i]! & 0x7f : bytes[i]!);
  y = red(y);
  const y2 = mul(y, y);
  const u = red(y2 + P - 1n);
  const v = red(mul(D, y2) + 1n);
  const v3 = mul(mul(v, v), v);
  const v7 = mul(mul(v3, v3), v);
  let x = mul(mul(u, v3), pow22523(mul(u, v7)));
  const vx2 = mul(v, mul(x, x));
  const negU = u === 0n ? 0n : P - u;
  if (vx2 !== u && vx2 !== negU) return false;
  if (vx2 === negU) x = mul(x, SQRT_M1);
  return !(x === 0n && (bytes[31]! & 0x80) !== 0);
}
