import { Type } from '@sinclair/typebox';
import { t } from 'elysia';

const version = Type.Literal(1, { description: 'protocol version: 1' });
const slug = t.String({ minLength: 1, maxLength: 64, description: 'workspace slug' });
const origin = t.String({
  minLength: 1,
  maxLength: 300,
  description: 'the site origin, scheme://host[:port] (http or https; a DNS name or an IP literal, no wildcard), such as https://shop.example.com',
});

export const LinkOriginBody = t.Object({ version, workspaceSlug: slug, origin });
export const LinkOriginResponse = t.Object({
  success: t.Boolean(),
  hostCredential: t.String({ description: 'the long-lived secret for bootstrap calls; shown this once, keep it on your server' }),
  origin: t.String({ description: 'the linked origin as stored' }),
  workspaceSlug: t.String(),
});

export const BootstrapBody = t.Object({
  version,
  workspaceSlug: slug,
  origin,
  subject: t.String({ minLength: 1, maxLength: 200, description: "the end user's identifier in the host system" }),
  role: t.String({ minLength: 1, maxLength: 50, description: 'only ADMIN opens the panel; any other role is refused with 401' }),
  capabilities: t.Array(t.String({ maxLength: 100 }), { maxItems: 20, description: 'svc_manage_operations, svc_manage_settings; unknown names are dropped' }),
});
export const BootstrapResponse = t.Object({
  success: t.Boolean(),
  code: t.String({ description: 'one-time code for the panel, valid 60 seconds; hand it to the iframe by message, never by URL' }),
  frameContext: t.String({ description: 'signed token for the iframe address (URL-encode it)' }),
  expiresAt: t.String({ format: 'date-time', description: 'when the code expires' }),
  workspaceSlug: t.String(),
});

/** Either `{ code, frameContext }` (the embedded panel) or `{ workspaceSlug, apiKey }` (the standalone /admin). */
export const SessionBody = t.Object(
  {
    code: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'embedded: the one-time code of the bootstrap message' })),
    frameContext: t.Optional(t.String({ minLength: 1, maxLength: 4000, description: 'embedded: the frameContext issued with the code' })),
    workspaceSlug: t.Optional(slug),
    apiKey: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'standalone: an API key of the workspace; it is not kept' })),
  },
  { description: 'PanelSessionRequest: { code, frameContext } or { workspaceSlug, apiKey }' },
);

export const SessionResponse = t.Object({
  success: t.Boolean(),
  token: t.String({ description: 'send as Authorization: Bearer <token> to v1 routes; keep it in memory only' }),
  expiresAt: t.String({ format: 'date-time' }),
  expiresIn: t.Integer({ description: 'seconds until expiresAt' }),
  renewableUntil: t.String({ format: 'date-time', description: 'no renewal after this (12 hours after sign-in)' }),
  capabilities: t.Array(t.String()),
  origin: t.Union([t.String(), t.Null()], { description: 'the host origin the panel may talk to; null when standalone' }),
  workspace: t.Object({
    id: t.String(),
    slug: t.String(),
    name: t.String(),
    logoUrl: t.Union([t.String(), t.Null()]),
    primaryColor: t.Union([t.String(), t.Null()]),
  }),
});
