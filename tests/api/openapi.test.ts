import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { documentedOperations, servedRoutes } from './routes.ts';

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

  test('is OpenAPI 3.1 with info.version 1.0.0 and the x-svc-api-key security scheme applied to the API', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-svc-api-key', description: expect.any(String) },
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.servers).toEqual([{ url: 'http://localhost:8080/api/v1' }]);
  });

  test('lists exactly the v1 routes the app serves, no more and no fewer', () => {
    const documented = documentedOperations(document).map((operation) => `${operation.method} ${operation.path}`).sort();
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
      expect(Object.keys(operation.spec.responses), label).toContain('200');
      if (operation.keyed) expect(Object.keys(operation.spec.responses), label).toEqual(expect.arrayContaining(['401', '404']));
      if (operation.hasBody) expect(Object.keys(operation.spec.responses), label).toEqual(expect.arrayContaining(['400', '413']));
      expect(Object.keys(operation.spec.responses), label).toContain('429');
      expect(Object.keys(operation.spec.responses['429'].headers), label).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']);
      expect(Object.keys(operation.spec.responses['200'].headers), label).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
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

  test('the widget config route is public; getWorkspace requires the key', () => {
    expect(document.paths['/workspaces/{slug}/config'].get.security).toEqual([]);
    expect(document.paths['/workspaces/{slug}'].get.security).toBeUndefined();
  });

  test('error responses use the contract error body', () => {
    const error = document.paths['/workspaces/{slug}'].get.responses['401'].content['application/json'].schema;
    expect(error.required).toEqual(expect.arrayContaining(['success', 'error', 'code']));
  });

  test('/api/v1/docs is an HTML page that loads the document from this server only', async () => {
    const response = await ctx.request('GET', '/api/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.body).toContain("fetch('openapi.json')");
    expect(response.body).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
  });
});
