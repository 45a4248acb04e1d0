/*
 * Webhook signing secrets (decisions section 5): `whsec_` + base64 of 32 random bytes, shown once at creation.
 * The delivery loop must sign with the secret later, so it cannot be kept as a hash like API keys are; it is
 * stored sealed instead: AES-256-GCM under a key derived (HKDF-SHA-256) from SVC_SECRET, with the webhook id
 * as additional data, so a sealed secret copied onto another webhook's row does not open.
 */

export const SIGNING_SECRET_PREFIX = 'whsec_';
const SEALED_VERSION = 'v1';
const encoder = new TextEncoder();

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
}

const derivedKeys = new Map<string, Promise<CryptoKey>>();

/** The AES-256-GCM key for sealing signing secrets, derived once per SVC_SECRET. */
function sealingKey(svcSecret: string): Promise<CryptoKey> {
  let key = derivedKeys.get(svcSecret);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey('raw', encoder.encode(svcSecret), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('svc/webhook-signing-secret'), info: encoder.encode('aes-256-gcm/v1') },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      );
    })();
    derivedKeys.set(svcSecret, key);
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

/** `v1.<iv>.<ciphertext>` (base64url): what WebhookRecord.secret holds. */
export async function sealSigningSecret(secret: string, svcSecret: string, webhookId: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(webhookId) },
    await sealingKey(svcSecret),
    encoder.encode(secret),
  );
  return `${SEALED_VERSION}.${Buffer.from(iv).toString('base64url')}.${Buffer.from(sealed).toString('base64url')}`;
}

/** The signing secret sealed by sealSigningSecret for this webhook. */
export async function openSigningSecret(sealed: string, svcSecret: string, webhookId: string): Promise<string> {
  const [version, iv, data] = sealed.split('.');
  if (version !== SEALED_VERSION || !iv || !data) throw new SealedSecretError('the stored signing secret has an unknown format');
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: Buffer.from(iv, 'base64url'), additionalData: encoder.encode(webhookId) },
      await sealingKey(svcSecret),
      Buffer.from(data, 'base64url'),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new SealedSecretError('the stored signing secret does not open with this SVC_SECRET (was SVC_SECRET changed?)');
  }
}
