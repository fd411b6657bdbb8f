// Optional shared token (behaviour.md Auth): `Authorization: Bearer <token>` or `x-token: <token>`.
// Both sides are hashed first so the comparison is constant-time whatever the lengths.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Pure: the token a request carries, from its headers (lower-case names as Node gives them). */
export function presentedToken(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1]!.trim();
  }
  const x = headers['x-token'];
  return typeof x === 'string' ? x : undefined;
}

/** Returns a check: true when no token is configured or the presented one matches. */
export function tokenCheck(expected: string | undefined): (presented: string | undefined) => boolean {
  if (expected === undefined || expected === '') return () => true;
  const want = digest(expected);
  return (presented) => presented !== undefined && timingSafeEqual(digest(presented), want);
}
