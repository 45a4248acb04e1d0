import { CAPABILITY_TOKEN_BYTES, randomToken, sha256Hex } from '../../core/secrets.ts';
import { openSigningSecret, sealSigningSecret } from '../sealed-secrets.ts';

/*
 * Manage-link tokens (docs/contract/notifications.md): 256 random bits, looked up by their SHA-256. The reminder mails
 * the link again days later, so the token is also kept sealed (AES-256-GCM under SVC_SECRET, the sealing the
 * webhook signing secrets use, bound to the booking id): a database dump alone holds no working link.
 */

export interface ManageToken {
  token: string;
  hash: string;
  /** null without SVC_SECRET: the link is shown once (createBooking) but later mails cannot repeat it */
  sealed: string | null;
}

const sealingContext = (bookingId: string) => `manage-link:${bookingId}`;

export async function newManageToken(bookingId: string, svcSecret: string | undefined): Promise<ManageToken> {
  const token = randomToken('', CAPABILITY_TOKEN_BYTES);
  return { token, hash: hashManageToken(token), sealed: svcSecret ? await sealSigningSecret(token, svcSecret, sealingContext(bookingId)) : null };
}

export const hashManageToken = (token: string) => sha256Hex(token);

/** The token sealed by newManageToken, or null when it does not open (another SVC_SECRET). */
export async function openManageToken(sealed: string, svcSecret: string, bookingId: string): Promise<string | null> {
  try {
    return await openSigningSecret(sealed, svcSecret, sealingContext(bookingId));
  } catch {
    return null;
  }
}

export const manageUrl = (publicUrl: string, token: string) => `${publicUrl}/manage/${token}`;

/*
 * Waiting-list offer links (docs/contract/classes.md §3) follow the same rules: 256 random bits, stored hashed,
 * sealed (bound to the entry id) for the offer mail.
 */
const offerContext = (entryId: string) => `waitlist-link:${entryId}`;

export async function newOfferToken(entryId: string, svcSecret: string | undefined): Promise<ManageToken> {
  const token = randomToken('', CAPABILITY_TOKEN_BYTES);
  return { token, hash: hashManageToken(token), sealed: svcSecret ? await sealSigningSecret(token, svcSecret, offerContext(entryId)) : null };
}

/** The token sealed by newOfferToken, or null when it does not open (no secret, another SVC_SECRET). */
export async function openOfferToken(sealed: string | null, svcSecret: string | undefined, entryId: string): Promise<string | null> {
  if (!sealed || !svcSecret) return null;
  try {
    return await openSigningSecret(sealed, svcSecret, offerContext(entryId));
  } catch {
    return null;
  }
}

export const waitlistUrl = (publicUrl: string, token: string) => `${publicUrl}/waitlist/${token}`;
