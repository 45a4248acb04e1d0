import { constantTimeEqual, sha256Hex } from '../../core/secrets.ts';
import { authorizationCredential } from './credentials.ts';

/** Whether `Authorization` carries the metrics token; compared as SHA-256 digests in constant time. */
export function presentsMetricsToken(authorization: string | null, token: string): boolean {
  const presented = authorizationCredential(authorization, 'Bearer');
  return presented !== null && constantTimeEqual(sha256Hex(presented), sha256Hex(token));
}
