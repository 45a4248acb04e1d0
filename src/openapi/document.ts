import { toOpenAPISchema } from '@elysiajs/openapi';
import type { AnyElysia } from 'elysia';
import { API_KEY_HEADER } from '../auth/api-key.ts';

const DESCRIPTION = `REST API v1 of svc, a self-hostable booking, scheduling and payments service.

Conventions (the public contract):
- Authenticate with a workspace API key in the \`${API_KEY_HEADER}\` header (create one with \`svc apikey create\`). Keep it on your backend: keyed routes send no CORS headers. The public routes (widget config, availability, keyless createBooking from an allowed domain) say so.
- Every success is 200 with \`success: true\`; every error has the body \`{ success: false, error, code }\` (a validation error may add \`details\`). Codes: VALIDATION_ERROR, CAPTCHA_FAILED, SERVICE_NOT_FOUND (400), UNAUTHORIZED (401), DOMAIN_NOT_ALLOWED, FORBIDDEN (403), NOT_FOUND (404), SLOT_UNAVAILABLE, INVALID_TRANSITION (409), PAYLOAD_TOO_LARGE (413, bodies over 64 KiB), RATE_LIMITED (429), INTERNAL_ERROR (500), PAYMENT_PROVIDER_ERROR (502: the payment provider could not open a checkout; the booking was released). On keyed routes an unknown slug is checked before the key (404, then 401).
- Date-times are RFC 3339; the API returns UTC with Z and refuses a date-time without an offset. \`date\` parameters are calendar days in the workspace time zone; slots are \`HH:mm\` in that zone. Durations, buffers and notice are minutes; \`maxAdvance\` is days; money is decimal major units with an ISO 4217 currency.
- Rate limit: 120 requests per minute per API key (per client IP without a key); every v1 response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds); past the limit, 429 with Retry-After.
- Booking lifecycle: PENDING → CONFIRMED (confirm, or payment) → COMPLETED (complete once started, or automatically after the end); PENDING | CONFIRMED → CANCELLED. CANCELLED and COMPLETED are final; any other move is 409 INVALID_TRANSITION.
- Lists are cursor-paginated: pass \`nextCursor\` back as \`cursor\`; it is null on the last page.`;

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, any>> };

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader('requests allowed per minute'),
  'X-RateLimit-Remaining': integerHeader('requests left in the current minute'),
  'X-RateLimit-Reset': integerHeader('when the window resets, Unix seconds'),
};

/**
 * What the app's global plugins add to every v1 operation, written once here rather than on each route: the
 * rate-limit headers on every answer, the 429, and the 413 of a route that takes a body.
 */
function withGlobalResponses(operation: Record<string, any>): Record<string, any> {
  const responses = { ...operation.responses };
  const errorContent = responses['401']?.content ?? responses['404']?.content ?? responses['400']?.content;
  for (const [status, response] of Object.entries(responses)) {
    responses[status] = { ...(response as object), headers: { ...(response as any).headers, ...RATE_LIMIT_HEADERS } };
  }
  responses['429'] = {
    description: 'Too many requests: 120 per minute per API key (per client IP without one)',
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': integerHeader('seconds to wait') },
    ...(errorContent ? { content: errorContent } : {}),
  };
  if (operation.requestBody) {
    responses['413'] = { description: 'Request body over 64 KiB', ...(errorContent ? { content: errorContent } : {}) };
  }
  return { ...operation, responses };
}

/** The OpenAPI 3.1 description of every v1 route, generated from the routes' own TypeBox schemas. */
export function buildOpenApiDocument(app: AnyElysia, publicUrl: string): OpenApiDocument {
  const generated = toOpenAPISchema(app, { paths: [/^(?!\/api\/v1\/)/, '/api/v1/openapi.json', '/api/v1/docs'] }, undefined, undefined, '3.1.0');
  const paths = Object.fromEntries(Object.entries(generated.paths).map(([path, item]) => [
    path.replace(/^\/api\/v1/, ''),
    Object.fromEntries(Object.entries(item as Record<string, any>).map(([method, operation]) => [method, withGlobalResponses(operation)])),
  ]));
  return {
    openapi: '3.1.0',
    info: { title: 'svc API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: `${publicUrl}/api/v1` }],
    security: [{ apiKey: [] }],
    ...generated,
    paths: paths as OpenApiDocument['paths'],
    components: {
      ...generated.components,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'A workspace API key (svc_live_…). Backend use only.' },
      },
    },
  };
}
