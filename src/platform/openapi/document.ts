import type { TSchema } from '@sinclair/typebox';
import { toOpenAPISchema, unwrapSchema } from '@elysiajs/openapi/openapi';
import { OptionalKind } from '@sinclair/typebox';
import type { AnyElysia } from 'elysia';
import { API_KEY_HEADER } from '../access/api-key.ts';
import { MAX_BODY_BYTES } from '../http/body-limit.ts';
import { ERROR_STATUS, type ErrorCode } from '../../core/errors.ts';

/** What the document states that is not in the routes: where the API is served and how many requests it allows. */
export interface OpenApiSettings {
  /** the server's public address (SVC_PUBLIC_URL) */
  publicUrl: string;
  /** v1 requests per minute per API key, per client IP without one (SVC_RATE_LIMIT) */
  rateLimit: number;
  /** the events svc sends, each with its body's schema and what it means (the webhooks feature's list) */
  webhookEvents: Record<string, { schema: TSchema; description: string }>;
  /** how long svc waits for a webhook endpoint's answer, ms */
  webhookTimeoutMs: number;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
};

/** One tag per feature folder, in the order the app mounts them. */
const TAGS = [
  { name: 'Widget', description: 'What the booking widget reads without a key.' },
  { name: 'Workspaces', description: 'Workspace settings, allowed widget domains and the custom fields of the booking form.' },
  { name: 'Services', description: 'What can be booked: duration, price, capacity, notice and buffers.' },
  { name: 'Providers', description: 'Who or what is booked: staff, rooms, any bookable resource.' },
  { name: 'Calendars', description: "A provider's other calendars (CalDAV, iCalendar URLs): their events block times." },
  { name: 'Working hours', description: 'Weekly hours and date exceptions of the workspace and of each provider.' },
  { name: 'Availability', description: 'Bookable times, computed from services, working hours and existing bookings. Public.' },
  { name: 'Bookings', description: 'Bookings and their lifecycle.' },
  { name: 'Waiting lists', description: 'Waiting lists of the full times of classes: joining, listing, removing; offers are claimed by link.' },
  { name: 'Webhooks', description: 'Endpoints that receive the events of a workspace, and their delivery log.' },
  { name: 'API keys', description: 'The keys of a workspace: listed without the key, created (shown once), revoked.' },
  { name: 'Embedded panel', description: 'Pairing codes for linking a site, and the linked sites of the embedded admin panel.' },
  { name: 'Webhook events', description: 'What svc POSTs to a webhook endpoint (see the `webhooks` section).' },
];

const codesByStatus = (): Map<number, ErrorCode[]> => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return byStatus;
};

const listCodes = (codes: readonly string[]) => (codes.length === 1 ? codes[0]! : `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}`);

const KIB = `${MAX_BODY_BYTES / 1024} KiB`;

function describeApi({ rateLimit }: OpenApiSettings): string {
  const codes = [...codesByStatus()].map(([status, list]) => `${list.join(', ')} (${status})`).join('; ');
  return `REST API v1 of svc, a self-hostable booking, scheduling and payments service.

Conventions (the public contract):
- Authenticate with a workspace API key in the \`${API_KEY_HEADER}\` header (create one with \`svc apikey create\`). Keep it on your backend: keyed routes send no CORS headers. The public routes (widget config, availability, keyless createBooking from an allowed domain) say so, and have an empty \`security\`. The embedded admin panel calls the keyed routes with a panel session instead (the \`panelSession\` scheme), whose capabilities decide what it may change (else 403 FORBIDDEN).
- Request bodies are JSON objects (\`content-type: application/json\`) of at most ${KIB} (${MAX_BODY_BYTES} bytes), whether or not the request declares its length; a larger body is 413 PAYLOAD_TOO_LARGE, a body that is not a JSON object 400 VALIDATION_ERROR. A PATCH body naming a field the route does not know is 400 VALIDATION_ERROR naming it; other routes ignore unknown fields.
- Every success is 200 with \`success: true\`; every error has the body \`{ success: false, error, code }\` (the \`Error\` schema; a validation error may add \`details: [{ path, message }]\`). The codes are a closed list: ${codes}. A 500 names a request id to quote; 502 PAYMENT_PROVIDER_ERROR means the payment provider could not open a checkout and the booking was released; 503 UNAVAILABLE (any route) means the database does not answer for the moment: retry after the Retry-After seconds. On keyed routes an unknown slug is checked before the key (404, then 401).
- Date-times are RFC 3339; the API returns UTC with Z and refuses a date-time without an offset. \`date\` parameters are calendar days in the workspace time zone; slots are \`HH:mm\` in that zone. Durations, buffers and notice are minutes; \`maxAdvance\` is days; money is decimal major units with an ISO 4217 currency.
- Rate limit: ${rateLimit} requests per minute per API key (per client IP without a key, and for a request whose key is refused); every v1 response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds); past the limit, 429 RATE_LIMITED with Retry-After.
- Booking lifecycle: PENDING → CONFIRMED (confirm, or payment) → COMPLETED (complete once started, or automatically after the end); PENDING | CONFIRMED → CANCELLED. CANCELLED and COMPLETED are final; any other move is 409 INVALID_TRANSITION.
- Lists of bookings are cursor-paginated: pass \`nextCursor\` back as \`cursor\`; it is null on the last page.
- Webhooks follow the Standard Webhooks specification; the \`webhooks\` section describes every event.`;
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader('requests allowed per minute'),
  'X-RateLimit-Remaining': integerHeader('requests left in the current minute'),
  'X-RateLimit-Reset': integerHeader(
    'when the window resets, Unix seconds: the 60-s window slides, and this is when its oldest request leaves it (Remaining grows again)',
  ),
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * The description of an error response: the codes of that status that the operation's description names (a 400
 * is always possibly VALIDATION_ERROR), or every code of that status when it names none.
 */
function errorResponseDescription(status: number, operationDescription = ''): string {
  const codes = codesByStatus().get(status) ?? [];
  const named = codes.filter((code) => operationDescription.includes(code) || code === 'VALIDATION_ERROR');
  const listed = named.length > 0 ? named : codes;
  return listed.length > 0 ? `Error ${listCodes(listed)}` : 'Error';
}

/**
 * What the app's global plugins add to every v1 operation, written once here rather than on each route: the
 * rate-limit headers on every answer, the 429, and the 413 of a route that takes a body.
 */
function withGlobalResponses(operation: Record<string, any>, { rateLimit }: OpenApiSettings): Record<string, any> {
  const responses: Record<string, any> = {};
  for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, any][]) {
    const description = Number(status) >= 400 ? errorResponseDescription(Number(status), operation.description) : response.description;
    responses[status] = { ...response, description, headers: { ...response.headers, ...RATE_LIMIT_HEADERS } };
    // A 204 has no body: the framework's `t.Void()` would come out as a content entry.
    if (status === '204') delete responses[status].content;
  }
  if (operation.requestBody) {
    responses['413'] = { description: `Error PAYLOAD_TOO_LARGE: the request body is over ${KIB}`, headers: RATE_LIMIT_HEADERS, content: errorContent };
  }
  responses['429'] = {
    description: `Error RATE_LIMITED: over ${rateLimit} requests per minute per API key (per client IP without one)`,
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': integerHeader('seconds to wait') },
    content: errorContent,
  };
  return { ...operation, responses };
}

/** How each security scheme reads in an operation's description. */
const CREDENTIAL_PHRASES: Record<string, string> = {
  apiKey: `the workspace API key (\`${API_KEY_HEADER}\`)`,
  panelSession: 'a panel session of the workspace (`Authorization: Bearer …`)',
  hostCredential: 'a host platform credential (`Authorization: SvcHost …`)',
};

/** Who may call an operation, said in its description from its `security` (the document's default is the API key). */
function withAccessNote(operation: Record<string, any>): Record<string, any> {
  const security: Record<string, unknown>[] = operation.security ?? [{ apiKey: [] }];
  const credentials = security.flatMap((requirement) => Object.keys(requirement)).map((scheme) => CREDENTIAL_PHRASES[scheme] ?? scheme);
  const keyless = security.some((requirement) => Object.keys(requirement).length === 0);
  const note = credentials.length === 0 ? 'Access: public, no API key.' : `Access: ${credentials.join(', or ')}${keyless ? ', or none as said above' : ''}.`;
  return { ...operation, description: operation.description ? `${operation.description}\n\n${note}` : note };
}

/**
 * The routes as the generator should see them. svc's body parser is one global hook (src/platform/http/body-limit.ts:
 * size limit, objects only), which @elysiajs/openapi cannot read and so documents as `content: {}`; what that
 * hook accepts is JSON, so every route with a body is presented as parsing `application/json`. Models are named
 * with TypeBox `$id` (see hoistNamedSchemas), not with Elysia's `.model()`, so there are no definitions to pass.
 */
function routesWithJsonBodies(app: AnyElysia): AnyElysia {
  const routes = app.routes.map((route) => (route.hooks?.body ? { ...route, hooks: { ...route.hooks, parse: [{ fn: 'application/json' }] } } : route));
  return { getGlobalRoutes: () => routes, getGlobalDefinitions: () => ({ type: {}, error: {} }) } as unknown as AnyElysia;
}

const OPENAPI_VERSION = '3.1.0';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Moves every schema that carries a TypeBox `$id` (the model names of src/*\/model.ts) to
 * `components.schemas` and puts a `$ref` in its place, so a generated client has one named type per model.
 * Two different schemas under one name are a programming error.
 */
function hoistNamedSchemas<T>(node: T, schemas: Record<string, unknown>): T {
  if (Array.isArray(node)) return node.map((item) => hoistNamedSchemas(item, schemas)) as T;
  if (!isObject(node)) return node;
  const { $id, ...rest } = node;
  const hoisted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, hoistNamedSchemas(value, schemas)]));
  if (typeof $id !== 'string') return hoisted as T;
  const existing = schemas[$id];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(hoisted))
    throw new Error(`two different schemas are named ${$id}: ${JSON.stringify(existing)} and ${JSON.stringify(hoisted)}`);
  schemas[$id] = hoisted;
  return { $ref: `#/components/schemas/${$id}` } as T;
}

/** TypeBox writes `t.Record(t.String(), …)` as a catch-all `patternProperties`; clients read `additionalProperties`. */
function recordsAsAdditionalProperties<T>(node: T): T {
  if (Array.isArray(node)) return node.map(recordsAsAdditionalProperties) as T;
  if (!isObject(node)) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, recordsAsAdditionalProperties(value)]));
  const patterns = copy.patternProperties;
  if (isObject(patterns) && Object.keys(patterns).length === 1 && '^(.*)$' in patterns) {
    delete copy.patternProperties;
    copy.additionalProperties = patterns['^(.*)$'];
  }
  return copy as T;
}

/** A body that the route declares `t.Optional(…)` may be left out. */
function markOptionalBodies(app: AnyElysia, paths: Record<string, Record<string, any>>) {
  for (const route of app.routes) {
    const body = route.hooks?.body as Record<PropertyKey, unknown> | undefined;
    if (body?.[OptionalKind] !== 'Optional') continue;
    const operation = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    if (operation?.requestBody) operation.requestBody.required = false;
  }
}

const STANDARD_WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'the message id (msg_…), the same on every retry: deduplicate on it',
    schema: { type: 'string' },
  },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'when the attempt was signed, Unix seconds', schema: { type: 'integer' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the webhook secret after `whsec_`',
    schema: { type: 'string' },
  },
];

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, its body and the Standard Webhooks headers. */
function webhookEvents({ webhookEvents: events, webhookTimeoutMs }: OpenApiSettings): Record<string, unknown> {
  const timeout = `${webhookTimeoutMs / 1000} s`;
  return Object.fromEntries(
    Object.entries(events).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `on${type
            .split(/[._]/)
            .map((word) => word[0]!.toUpperCase() + word.slice(1))
            .join('')}`,
          summary: type,
          description: `${event.description} Sent as a Standard Webhooks message to every active webhook of the workspace subscribed to \`${type}\` (or to every event).`,
          tags: ['Webhook events'],
          parameters: STANDARD_WEBHOOK_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: unwrapSchema(event.schema, undefined, 'input', OPENAPI_VERSION) } } },
          responses: {
            '200': { description: `Any 2xx answer within ${timeout} acknowledges the message; anything else is retried` },
            '410': { description: 'Gone: the webhook is set `isActive: false` at once and receives nothing more' },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 description of every v1 route, generated from the routes' own TypeBox schemas. */
export function buildOpenApiDocument(app: AnyElysia, prefix: string, settings: OpenApiSettings): OpenApiDocument {
  const generated = toOpenAPISchema(
    routesWithJsonBodies(app),
    { paths: [new RegExp(`^(?!${prefix}/)`), `${prefix}/openapi.json`, `${prefix}/docs`] },
    undefined,
    undefined,
    OPENAPI_VERSION,
  );
  markOptionalBodies(app, generated.paths as OpenApiDocument['paths']);
  const paths = Object.fromEntries(
    Object.entries(generated.paths).map(([path, item]) => [
      path.slice(prefix.length),
      Object.fromEntries(
        Object.entries(item as Record<string, any>).map(([method, operation]) => [method, withGlobalResponses(withAccessNote(operation), settings)]),
      ),
    ]),
  );
  const schemas: Record<string, unknown> = {};
  const namedPaths = hoistNamedSchemas(recordsAsAdditionalProperties(paths), schemas);
  const webhooks = hoistNamedSchemas(recordsAsAdditionalProperties(webhookEvents(settings)), schemas);
  const sortedSchemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'svc API', version: '1.0.0', description: describeApi(settings) },
    servers: [{ url: `${settings.publicUrl}${prefix}` }],
    security: [{ apiKey: [] }],
    tags: TAGS,
    paths: namedPaths,
    webhooks,
    components: {
      schemas: sortedSchemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'A workspace API key (svc_live_…). Backend use only.' },
        panelSession: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A panel session token (Authorization: Bearer …). Reads need any session of the workspace; writes need the svc_manage_operations or svc_manage_settings capability, and minting a credential (creating or revoking an API key, creating a pairing code) needs both; else 403 FORBIDDEN.',
        },
      },
    },
  };
}
