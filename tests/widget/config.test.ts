import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';

describe('getWidgetConfig: everything the widget needs in one answer (docs/contract/widget.md)', () => {
  let t: TestApp;
  let ids: { alex: string; sam: string; retired: string; haircut: string; colour: string };
  beforeAll(async () => {
    t = await createTestApp('libsql', {
      config: { SVC_PUBLIC_URL: 'https://book.example.net', SVC_CAPTCHA_PROVIDER: 'turnstile', SVC_CAPTCHA_SITE_KEY: '0x4AAA-site' },
    });
    const provider = async (name: string) =>
      (await t.request('POST', '/api/v1/workspaces/acme/providers', { key: t.apiKey, body: { name } })).body.provider.id as string;
    const alex = await provider('Alex');
    const sam = await provider('Sam');
    const retired = await provider('Retired');
    await t.request('PATCH', `/api/v1/workspaces/acme/providers/${retired}`, { key: t.apiKey, body: { active: false } });
    const service = async (body: object) => (await t.request('POST', '/api/v1/workspaces/acme/services', { key: t.apiKey, body })).body.service.id as string;
    const colour = await service({ name: 'Colour', duration: 90, price: 89.5, deposit: 20, currency: 'CHF', providerIds: [sam, retired], order: 1 });
    const haircut = await service({ name: 'Haircut', description: 'Wash and cut', duration: 30, price: 35, currency: 'CHF', providerIds: [alex], order: 0 });
    const hidden = await service({ name: 'Old', duration: 30, price: 1, currency: 'CHF', providerIds: [alex], order: 2 });
    await t.request('DELETE', `/api/v1/workspaces/acme/services/${hidden}`, { key: t.apiKey });
    await t.request('PUT', '/api/v1/workspaces/acme/domains', { key: t.apiKey, body: { domains: ['shop.example.com'] } });
    ids = { alex, sam, retired, haircut, colour };
  });
  afterAll(() => t.close());

  test('config lists the workspace, active services in order, their active providers, and the captcha', async () => {
    const response = await t.request('GET', '/api/v1/workspaces/acme/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      workspace: {
        id: t.workspace.id,
        name: 'Acme Studio',
        primaryColor: null,
        slug: 'acme',
        timezone: 'Europe/Berlin',
        language: 'en',
        locale: 'en',
        timeFormat: '24h',
        currency: 'CHF',
        logoUrl: null,
      },
      customFields: [],
      services: [
        {
          id: ids.haircut,
          name: 'Haircut',
          description: 'Wash and cut',
          duration: 30,
          price: 35,
          currency: 'CHF',
          depositAmount: null,
          providerIds: [ids.alex],
          repeatable: false,
        },
        {
          id: ids.colour,
          name: 'Colour',
          description: null,
          duration: 90,
          price: 89.5,
          currency: 'CHF',
          depositAmount: 20,
          providerIds: [ids.sam],
          repeatable: false,
        },
      ],
      providers: [
        { id: ids.alex, name: 'Alex' },
        { id: ids.sam, name: 'Sam' },
      ],
      booking: { allowed: true, captcha: { provider: 'turnstile', siteKey: '0x4AAA-site' }, onlinePayment: false },
    });
  });

  test('config is cacheable for 30 s and varies by Origin', async () => {
    const response = await t.request('GET', '/api/v1/workspaces/acme/config', { headers: { origin: 'https://shop.example.com' } });
    expect(response.headers.get('cache-control')).toBe('public, max-age=30');
    expect(response.headers.get('vary')).toBe('Origin');
    const bare = await t.request('GET', '/api/v1/workspaces/acme/config');
    expect(bare.headers.get('vary')).toBe('Origin');
  });

  test('booking.allowed follows the Origin: allowed domain and svc own origin yes, another site no', async () => {
    const allowedFor = async (origin: string) => (await t.request('GET', '/api/v1/workspaces/acme/config', { headers: { origin } })).body.booking.allowed;
    expect(await allowedFor('https://shop.example.com')).toBe(true);
    expect(await allowedFor('https://book.example.net')).toBe(true);
    expect(await allowedFor('https://evil.example.org')).toBe(false);
    expect(await allowedFor('http://book.example.net:8443')).toBe(false);
  });

  test('svc own origin may book keylessly for any workspace; another origin gets 403 DOMAIN_NOT_ALLOWED', async () => {
    const body = { serviceId: ids.haircut, email: 'a@example.com', name: 'A', date: '2026-11-24T10:00:00+01:00' };
    const own = await t.request('POST', '/api/v1/workspaces/acme/bookings', { headers: { origin: 'https://book.example.net' }, body });
    // the captcha is not configured with a secret here, so only the domain decides
    expect(own.status).toBe(200);
    const other = await t.request('POST', '/api/v1/workspaces/acme/bookings', {
      headers: { origin: 'https://evil.example.org' },
      body: { ...body, date: '2026-11-24T11:00:00+01:00' },
    });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('DOMAIN_NOT_ALLOWED');
  });

  test('config of an unknown workspace -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', '/api/v1/workspaces/nope/config');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: expect.any(String), code: 'NOT_FOUND' });
  });
});

describe('getWidgetConfig of a workspace without services', () => {
  test('currency falls back to EUR, lists are empty, no captcha', async () => {
    const t = await createTestApp();
    try {
      const response = await t.request('GET', '/api/v1/workspaces/acme/config');
      expect(response.body.workspace.currency).toBe('EUR');
      expect(response.body.services).toEqual([]);
      expect(response.body.providers).toEqual([]);
      expect(response.body.booking).toEqual({ allowed: true, captcha: null, onlinePayment: false });
    } finally {
      await t.close();
    }
  });
});
