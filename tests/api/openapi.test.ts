import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { bookingEvents } from '../../src/features/bookings/events.ts';
import { MAX_BODY_BYTES } from '../../src/platform/http/body-limit.ts';
import { paymentEvents } from '../../src/features/bookings/events.ts';
import { ERROR_STATUS } from '../../src/core/errors.ts';
import type { PaymentRecord, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { testEvent, WEBHOOK_EVENT_TYPES } from '../../src/features/webhooks/events.ts';
import { BookingEvent, PaymentEvent, TestEvent } from '../../src/features/webhooks/model.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { documentedOperations, HIDDEN_V1_PATHS, servedRoutes } from './routes.ts';

const COMPONENT_REF = /^#\/components\/schemas\/[A-Za-z]+$/;

describe('OpenAPI document', () => {
  let ctx: TestApp;
  let document: any;
  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    const response = await ctx.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => ctx.close());

  test('is OpenAPI 3.1 with info.version 1.0.0, the x-svc-api-key scheme applied to the API, and the panel session scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-svc-api-key', description: expect.any(String) },
      panelSession: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.servers).toEqual([{ url: 'http://localhost:8080/api/v1' }]);
  });

  test('lists exactly the v1 routes the app serves, no more and no fewer', () => {
    const documented = documentedOperations(document)
      .map((operation) => `${operation.method} ${operation.path}`)
      .sort();
    expect(documented).toEqual(servedRoutes(ctx.app));
  });

  test('every operation has a unique operationId, a summary, a 200 response and its error responses', () => {
    const operations = documentedOperations(document);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of operations) {
      const label = `${operation.method} ${operation.path}`;
      expect(operation.operationId, label).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.spec.summary, label).toBeString();
      // 200, or 204 for a DELETE that answers no body
      expect(Object.keys(operation.spec.responses), label).toContain(operation.method === 'DELETE' && operation.spec.responses['204'] ? '204' : '200');
      if (operation.keyed) expect(Object.keys(operation.spec.responses), label).toEqual(expect.arrayContaining(['401', '404']));
      if (operation.hasBody) expect(Object.keys(operation.spec.responses), label).toEqual(expect.arrayContaining(['400', '413']));
      expect(Object.keys(operation.spec.responses), label).toContain('429');
      expect(Object.keys(operation.spec.responses['429'].headers), label).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]);
      expect(Object.keys((operation.spec.responses['200'] ?? operation.spec.responses['204']).headers), label).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ]);
    }
  });

  test('the operations the spec names exist with its operationIds, methods and paths', () => {
    const byId = Object.fromEntries(documentedOperations(document).map((operation) => [operation.operationId, `${operation.method} ${operation.path}`]));
    expect(byId).toMatchObject({
      getWorkspace: 'GET /workspaces/{slug}',
      listServices: 'GET /workspaces/{slug}/services',
      getWidgetConfig: 'GET /workspaces/{slug}/config',
    });
  });

  test('the widget config route is public; getWorkspace requires the key or a panel session', () => {
    expect(document.paths['/workspaces/{slug}/config'].get.security).toEqual([]);
    expect(document.paths['/workspaces/{slug}'].get.security).toEqual([{ apiKey: [] }, { panelSession: [] }]);
  });

  test('error responses use the contract error body, whose code is the closed list of src/core/errors.ts', () => {
    expect(document.paths['/workspaces/{slug}'].get.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const error = document.components.schemas.Error;
    expect(error.required).toEqual(['success', 'error', 'code']);
    expect(error.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(document.info.description).toMatch(new RegExp(`${code}[A-Z_, ]*\\(${status}\\)`));
  });

  test('operation descriptions name only codes of the closed list, and each error response lists the codes its operation names', () => {
    for (const operation of documentedOperations(document)) {
      const named = (operation.spec.description.match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? []).filter((word: string) => !word.startsWith('SVC_'));
      for (const code of named) expect(Object.keys(ERROR_STATUS), `${operation.operationId} names ${code}`).toContain(code);
    }
    expect(document.paths['/workspaces/{slug}/bookings/{bookingId}/confirm'].post.responses['409'].description).toBe('Error INVALID_TRANSITION');
    expect(document.paths['/workspaces/{slug}/bookings'].post.responses['400'].description).toBe('Error VALIDATION_ERROR, CAPTCHA_FAILED or SERVICE_NOT_FOUND');
    expect(document.paths['/workspaces/{slug}/services'].post.responses['400'].description).toBe('Error VALIDATION_ERROR');
  });

  test('every route that takes a body documents it as application/json with a named schema', () => {
    const withBody = ctx.app.routes.filter((route) => route.path.startsWith('/api/v1/') && !HIDDEN_V1_PATHS.includes(route.path) && route.hooks?.body);
    expect(withBody.map((route) => `${route.method} ${route.path.slice('/api/v1'.length).replace(/:(\w+)/g, '{$1}')}`).sort()).toEqual(
      documentedOperations(document)
        .filter((operation) => operation.hasBody)
        .map((operation) => `${operation.method} ${operation.path}`),
    );
    expect(withBody.length).toBeGreaterThan(10);
    for (const route of withBody) {
      const operation = document.paths[route.path.slice('/api/v1'.length).replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
      const label = `${route.method} ${route.path}`;
      expect(Object.keys(operation.requestBody.content), label).toEqual(['application/json']);
      expect(operation.requestBody.content['application/json'].schema.$ref, label).toMatch(COMPONENT_REF);
    }
    expect(document.paths['/workspaces/{slug}/bookings'].post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/BookingCreate' } } },
    });
    // a route whose body is t.Optional(…) may be called without one
    expect(document.paths['/workspaces/{slug}/bookings/{bookingId}/cancel'].post.requestBody.required).toBe(false);
  });

  test('every response with a body refers to a named schema, and every reference resolves', () => {
    for (const operation of documentedOperations(document)) {
      for (const [status, response] of Object.entries(operation.spec.responses) as [string, any][]) {
        if (status === '204') {
          expect(response.content, `${operation.operationId} 204`).toBeUndefined();
          continue;
        }
        expect(response.content['application/json'].schema.$ref, `${operation.operationId} ${status}`).toMatch(COMPONENT_REF);
      }
    }
    const refs = JSON.stringify(document).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    for (const ref of new Set(refs)) expect(document.components.schemas).toHaveProperty(ref.slice('"#/components/schemas/'.length, -1));
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['BookingCreate', 'BookingResponse', 'Booking', 'Error', 'WebhookCreate']));
  });

  test('every operation has a description that says who may call it, and one tag the document declares', () => {
    const declared = document.tags.map((tag: { name: string }) => tag.name);
    for (const operation of documentedOperations(document)) {
      expect(operation.spec.tags, operation.operationId).toHaveLength(1);
      expect(declared, operation.operationId).toContain(operation.spec.tags[0]);
      expect(operation.spec.description, operation.operationId).toMatch(operation.keyed ? /Access: the workspace API key/ : /Access: public|or none/);
    }
    expect(document.paths['/workspaces/{slug}/availability'].get.description).toEndWith('Access: public, no API key.');
  });

  test('the body limit and the rate limit are stated as the code and the configuration set them', () => {
    const kib = `${MAX_BODY_BYTES / 1024} KiB`;
    expect(document.info.description).toContain(`at most ${kib} (${MAX_BODY_BYTES} bytes)`);
    expect(document.paths['/workspaces/{slug}/bookings'].post.responses['413'].description).toContain(kib);
    expect(document.info.description).toContain(`Rate limit: ${ctx.deps.config.SVC_RATE_LIMIT} requests per minute`);
    expect(document.paths['/workspaces/{slug}'].get.responses['429'].description).toContain(`over ${ctx.deps.config.SVC_RATE_LIMIT} requests per minute`);
  });

  test('the webhooks section has every event type, with the Standard Webhooks headers and a named body', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, 'webhook.test'].sort());
    for (const [type, item] of Object.entries(document.webhooks) as [string, any][]) {
      expect(
        item.post.parameters.map((parameter: { name: string; in: string }) => `${parameter.in} ${parameter.name}`),
        type,
      ).toEqual(['header webhook-id', 'header webhook-timestamp', 'header webhook-signature']);
      const schema = item.post.requestBody.content['application/json'].schema;
      expect(schema, type).toEqual({
        $ref: `#/components/schemas/${
          type === 'webhook.test'
            ? 'WebhookTestEvent'
            : type.startsWith('payment.')
              ? 'PaymentEvent'
              : type.startsWith('calendar.')
                ? 'CalendarConnectionEvent'
                : type.startsWith('waitlist.')
                  ? 'WaitlistEvent'
                  : 'BookingEvent'
        }`,
      });
      expect(
        document.components.schemas[schema.$ref.split('/').at(-1)].properties.type.enum ?? [
          document.components.schemas[schema.$ref.split('/').at(-1)].properties.type.const,
        ],
        type,
      ).toContain(type);
    }
  });

  test('/api/v1/docs is an HTML page that loads the document from this server only', async () => {
    const response = await ctx.request('GET', '/api/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    // Redoc and its start script, served by svc (tests/api/docs-page.browser.test.ts renders it)
    expect(response.body).toContain('<div id="redoc"></div>');
    expect(response.body).toMatch(/<script src="\/api\/v1\/docs\/redoc\.standalone\.js\?v=/);
    expect(response.body).not.toMatch(/<script[^>]+src="https?:|<link[^>]+href="https?:/);
  });
});

describe('OpenAPI event schemas', () => {
  const workspace = { id: 'ws_1', slug: 'acme' } as WorkspaceRecord;
  const booking = {
    id: 'bk_1',
    startTime: '2026-12-01T09:00:00.000Z',
    endTime: '2026-12-01T09:30:00.000Z',
    status: 'CONFIRMED' as const,
    awaitingPayment: false,
    customerName: 'Ada',
    customerEmail: 'ada@example.com',
    serviceName: 'Haircut',
    providerName: 'Grace',
    amount: 35.5,
    payment: { currency: 'EUR', total: 35.5, paid: 35.5, due: 0, status: 'paid' as const, refunded: 0 },
    serviceId: 'srv_1',
    providerId: 'prv_1',
    phone: null,
    notes: null,
    customFields: {},
    createdAt: '2026-11-23T08:00:00.000Z',
    seriesId: null,
  };
  const payment: PaymentRecord = {
    id: 'pay_1',
    workspaceId: 'ws_1',
    bookingId: 'bk_1',
    provider: 'test',
    reference: 'chk_1',
    amountMinor: 3550,
    currency: 'EUR',
    status: 'paid',
    refundDue: false,
    checkoutUrlSealed: null,
    createdAt: 0,
    updatedAt: 0,
  };
  const bodyOf = (event: { body: string }) => JSON.parse(event.body);

  test('match the bodies svc builds for booking, payment and test events', () => {
    for (const event of bookingEvents(['booking.created', 'booking.cancelled'], workspace, booking, 0))
      expect(Value.Errors(BookingEvent, bodyOf(event)).First()).toBeUndefined();
    const [received, confirmed] = paymentEvents(['payment.received', 'booking.confirmed'], workspace, booking, payment, 0);
    expect(Value.Errors(PaymentEvent, bodyOf(received!)).First()).toBeUndefined();
    expect(bodyOf(received!).data.payment).toEqual({ amount: 35.5, currency: 'EUR', provider: 'test', reference: 'chk_1' });
    expect(Value.Errors(BookingEvent, bodyOf(confirmed!)).First()).toBeUndefined();
    expect(Value.Errors(TestEvent, bodyOf(testEvent(workspace, { id: 'wh_1', url: 'https://example.com/hook' }, 0))).First()).toBeUndefined();
  });

  test('refuse a body of the wrong kind, so the check above can fail', () => {
    const [created] = bookingEvents(['booking.created'], workspace, booking, 0);
    expect(Value.Check(PaymentEvent, bodyOf(created!))).toBe(false);
    expect(Value.Check(BookingEvent, { ...bodyOf(created!), type: 'booking.deleted' })).toBe(false);
  });
});

describe('OpenAPI document of a server with its own rate limit', () => {
  test('states the configured SVC_RATE_LIMIT', async () => {
    const ctx = await createTestApp('libsql', { config: { SVC_RATE_LIMIT: 7 } });
    try {
      const { body } = await ctx.request('GET', '/api/v1/openapi.json');
      expect(body.info.description).toContain('Rate limit: 7 requests per minute per API key');
      expect(body.paths['/workspaces/{slug}/bookings'].get.responses['429'].description).toBe(
        'Error RATE_LIMITED: over 7 requests per minute per API key (per client IP without one)',
      );
    } finally {
      await ctx.close();
    }
  });
});
