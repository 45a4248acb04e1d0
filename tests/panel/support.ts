import { createPairingCode } from '../../src/features/panel/pairing.ts';
import type { TestApp } from '../support/app.ts';

export const SHOP = 'https://shop.example.com';
export const BOTH = ['svc_manage_operations', 'svc_manage_settings'];

/** Links `origin` to the test app's workspace through a fresh pairing code; returns the host credential. */
export async function link(ctx: TestApp, origin = SHOP, platform = 'wordpress'): Promise<string> {
  const { pairingCode } = await createPairingCode(ctx.deps, ctx.workspace.id);
  const response = await ctx.request('PUT', `/api/integrations/${platform}/panel/origin`, {
    headers: { authorization: `SvcPair ${pairingCode}` },
    body: { version: 1, workspaceSlug: ctx.workspace.slug, origin },
  });
  if (response.status !== 201) throw new Error(`linking failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.hostCredential;
}

export interface BootstrapOptions {
  origin?: string;
  subject?: string;
  role?: string;
  capabilities?: string[];
  platform?: string;
}

export function bootstrapRequest(ctx: TestApp, credential: string, options: BootstrapOptions = {}) {
  return ctx.request('POST', `/api/integrations/${options.platform ?? 'wordpress'}/panel/bootstrap`, {
    headers: { authorization: `SvcHost ${credential}` },
    body: {
      version: 1,
      workspaceSlug: ctx.workspace.slug,
      origin: options.origin ?? SHOP,
      subject: options.subject ?? 'wp-user-1',
      role: options.role ?? 'ADMIN',
      capabilities: options.capabilities ?? BOTH,
    },
  });
}

/** A live embedded session token with `capabilities`. */
export async function embeddedSession(ctx: TestApp, credential: string, capabilities = BOTH): Promise<string> {
  const boot = await bootstrapRequest(ctx, credential, { capabilities });
  if (boot.status !== 201) throw new Error(`bootstrap failed: ${boot.status} ${JSON.stringify(boot.body)}`);
  const session = await ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } });
  if (session.status !== 201) throw new Error(`session failed: ${session.status} ${JSON.stringify(session.body)}`);
  return session.body.token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
