import { createHash, timingSafeEqual } from 'node:crypto';

/** `prefix` + base64url of `bytes` random bytes. */
export function randomToken(prefix: string, bytes = 32): string {
  return prefix + Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** Random bytes of a token in a path that is itself the credential (manage links, calendar feeds). */
export const CAPABILITY_TOKEN_BYTES = 32;
const CAPABILITY_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `token` has the shape randomToken('', CAPABILITY_TOKEN_BYTES) gives; anything else is not looked up at all. */
export const isCapabilityToken = (token: string) => CAPABILITY_TOKEN_SHAPE.test(token);

/** Hex SHA-256; secrets (API keys, pairing codes, host credentials, panel codes) are stored only as this. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison; unequal lengths compare a fixed buffer so timing does not leak length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
