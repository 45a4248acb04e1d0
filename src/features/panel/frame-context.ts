import { errors, jwtVerify, SignJWT } from 'jose';
import { sha256Hex } from '../../core/secrets.ts';

/** What a frameContext binds: the panel code (by hash) to the workspace, host origin, user and capabilities. */
export interface FrameContext {
  workspaceSlug: string;
  /** the linked origin the panel may talk to */
  origin: string;
  subject: string;
  capabilities: string[];
  /** hex SHA-256 of the one-time code: the token names the code without carrying it */
  codeHash: string;
  /** epoch ms */
  expiresAt: number;
}

const AUDIENCE = 'svc-panel';

/** A signing key of its own, derived from the server secret, so a frameContext cannot pass for any other token. */
function keyOf(secret: string): Uint8Array {
  return new Uint8Array(Buffer.from(sha256Hex(`svc frame context\u0000${secret}`), 'hex'));
}

/** A signed (not encrypted) JWT; the panel reads `origin` from it, the server alone can check it. */
export function signFrameContext(context: FrameContext, secret: string, now: number): Promise<string> {
  return new SignJWT({ slug: context.workspaceSlug, origin: context.origin, caps: context.capabilities, code: context.codeHash })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(context.subject)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.ceil(context.expiresAt / 1000))
    .sign(keyOf(secret));
}

/** The context when `token` is one this server signed and it has not expired at `now` (give or take `toleranceSeconds`); else null. */
export async function verifyFrameContext(
  token: string,
  secret: string,
  now: number,
  options: { toleranceSeconds?: number } = {},
): Promise<FrameContext | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: new Date(now),
      clockTolerance: options.toleranceSeconds ?? 0,
    });
    const { slug, origin, caps, code, sub, exp } = payload as Record<string, unknown>;
    if (typeof slug !== 'string' || typeof origin !== 'string' || typeof code !== 'string' || typeof sub !== 'string' || typeof exp !== 'number') return null;
    if (!Array.isArray(caps) || !caps.every((cap) => typeof cap === 'string')) return null;
    return { workspaceSlug: slug, origin, subject: sub, capabilities: caps, codeHash: code, expiresAt: exp * 1000 };
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
