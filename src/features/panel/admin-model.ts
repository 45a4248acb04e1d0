import { t } from 'elysia';

const instant = (description: string) => t.String({ format: 'date-time', description });
const lastUsed = t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'last use, to the minute; null = never' });

export const ApiKeyJson = t.Object(
  {
    id: t.String(),
    name: t.String(),
    prefix: t.String({ description: 'the first characters of the key, to recognise it' }),
    createdAt: instant('when it was created'),
    lastUsedAt: lastUsed,
  },
  { $id: 'ApiKey' },
);
export type ApiKeyJson = typeof ApiKeyJson.static;

export const ApiKeysResponse = t.Object({ success: t.Boolean(), apiKeys: t.Array(ApiKeyJson) }, { $id: 'ApiKeysResponse', description: 'The live API keys' });
export const ApiKeyCreate = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'what the key is for; default "API key"' })),
  },
  { $id: 'ApiKeyCreate' },
);
export const CreatedApiKeyResponse = t.Object(
  {
    success: t.Boolean(),
    apiKey: ApiKeyJson,
    key: t.String({ description: 'the key itself (svc_live_…), shown only in this answer' }),
  },
  { $id: 'CreatedApiKeyResponse', description: 'The new API key, with the key itself shown once' },
);
export const ApiKeyParams = t.Object({ slug: t.String({ description: 'workspace slug' }), keyId: t.String({ description: 'API key id (key_…)' }) });

export const PairingCodeResponse = t.Object(
  {
    success: t.Boolean(),
    pairingCode: t.String({ description: 'single use; links one site origin within an hour' }),
    expiresAt: instant('when the code expires'),
  },
  { $id: 'PairingCodeResponse', description: 'A new pairing code' },
);

export const PanelOriginJson = t.Object(
  {
    id: t.String(),
    origin: t.String({ description: 'scheme://host[:port]' }),
    platform: t.String({ description: 'hostplatform or wordpress: the path it was linked through' }),
    createdAt: instant('when it was linked'),
    lastUsedAt: lastUsed,
  },
  { $id: 'PanelOrigin' },
);
export type PanelOriginJson = typeof PanelOriginJson.static;

export const PanelOriginsResponse = t.Object(
  { success: t.Boolean(), origins: t.Array(PanelOriginJson) },
  { $id: 'PanelOriginsResponse', description: 'The linked sites' },
);
export const PanelOriginParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  originId: t.String({ description: 'linked origin id (hc_…)' }),
});
