/*
 * Webhook signing secrets (docs/contract/events.md): `whsec_` + base64 of 32 random bytes, shown once at creation.
 * The delivery loop must sign with the secret later, so it cannot be kept as a hash like API keys are; it is
 * stored sealed instead: AES-256-GCM under a key derived (HKDF-SHA-256) from SVC_SECRET, with the webhook id
 * as additional data, so a sealed secret copied onto another webhook's row does not open. Calendar passwords
 * are sealed the same way under a key of their own, bound to their connection's id, and so are payments'
 * checkout addresses, bound to the payment's id.
 */

export const SIGNING_SECRET_PREFIX = 'whsec_';
const SEALED_VERSION = 'v1';
const encoder = new TextEncoder();

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
}

const derivedKeys = new Map<string, Promise<CryptoKey>>();

/** What a sealed secret is for: each purpose has its own key, so one kind of secret never opens as another. */
type Purpose = 'webhook-signing-secret' | 'calendar-credentials' | 'checkout-url';

/** The AES-256-GCM key for sealing secrets of `purpose`, derived once per SVC_SECRET. */
function sealingKey(svcSecret: string, purpose: Purpose): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${svcSecret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey('raw', encoder.encode(svcSecret), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(`svc/${purpose}`), info: encoder.encode('aes-256-gcm/v1') },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      );
    })();
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/** Thrown when a sealed secret does not open: another SVC_SECRET, another webhook, or altered bytes. */
export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

async function seal(plain: string, svcSecret: string, purpose: Purpose, boundTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(boundTo) },
    await sealingKey(svcSecret, purpose),
    encoder.encode(plain),
  );
  return `${SEALED_VERSION}.${Buffer.from(iv).toString('base64url')}.${Buffer.from(sealed).toString('base64url')}`;
}

async function open(sealed: string, svcSecret: string, purpose: Purpose, boundTo: string, what: string): Promise<string> {
  const [version, iv, data] = sealed.split('.');
  if (version !== SEALED_VERSION || !iv || !data) throw new SealedSecretError(`the stored ${what} has an unknown format`);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: Buffer.from(iv, 'base64url'), additionalData: encoder.encode(boundTo) },
      await sealingKey(svcSecret, purpose),
      Buffer.from(data, 'base64url'),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new SealedSecretError(`the stored ${what} does not open with this SVC_SECRET (was SVC_SECRET changed?)`);
  }
}

/** `v1.<iv>.<ciphertext>` (base64url): what WebhookRecord.secret holds. */
export function sealSigningSecret(secret: string, svcSecret: string, webhookId: string): Promise<string> {
  return seal(secret, svcSecret, 'webhook-signing-secret', webhookId);
}

/** The signing secret sealed by sealSigningSecret for this webhook. */
export function openSigningSecret(sealed: string, svcSecret: string, webhookId: string): Promise<string> {
  return open(sealed, svcSecret, 'webhook-signing-secret', webhookId, 'signing secret');
}

/** A calendar connection's password (or tokens), sealed for that connection: what its `sealedSecret` holds. */
export function sealCalendarSecret(secret: string, svcSecret: string, connectionId: string): Promise<string> {
  return seal(secret, svcSecret, 'calendar-credentials', connectionId);
}

/** The secret sealed by sealCalendarSecret for this connection. */
export function openCalendarSecret(sealed: string, svcSecret: string, connectionId: string): Promise<string> {
  return open(sealed, svcSecret, 'calendar-credentials', connectionId, 'calendar password');
}

/**
 * A payment's checkout address, sealed for that payment: the test page's address carries the id that pays or
 * cancels the hold, so it is kept like any other secret, and opened only for the awaiting-payment mail.
 */
export function sealCheckoutUrl(url: string, svcSecret: string, paymentId: string): Promise<string> {
  return seal(url, svcSecret, 'checkout-url', paymentId);
}

/** The address sealed by sealCheckoutUrl for this payment. */
export function openCheckoutUrl(sealed: string, svcSecret: string, paymentId: string): Promise<string> {
  return open(sealed, svcSecret, 'checkout-url', paymentId, 'checkout address');
}
