import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bootstrapRequest, link, SHOP } from './support.ts';

const BASE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: https:; base-uri 'none'; form-action 'none'";

describeEachAdapter('panel pages', (adapter) => {
  let ctx: TestApp;
  beforeEach(async () => {
    ctx = await createTestApp(adapter);
  });
  afterEach(() => ctx.close());

  test('the iframe page may be framed by the linked origin its frameContext names and by svc, nothing else; it is not cached', async () => {
    const credential = await link(ctx);
    const { frameContext } = (await bootstrapRequest(ctx, credential)).body;
    const page = await ctx.request('GET', `/widget/panel/admin/acme?channelId=c1&frameContext=${encodeURIComponent(frameContext)}&section=hours`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(`${BASE_CSP}; frame-ancestors ${SHOP} 'self'`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('<script src="/panel/panel.js?v=');
    expect(page.body).not.toContain(frameContext);
    // an hour later (a reload) the same address is still framed by that site
    ctx.clock.advance(3_600_000);
    expect(
      (await ctx.request('GET', `/widget/panel/admin/acme?channelId=c1&frameContext=${encodeURIComponent(frameContext)}`)).headers.get(
        'content-security-policy',
      ),
    ).toBe(`${BASE_CSP}; frame-ancestors ${SHOP} 'self'`);
  });

  test('without a frameContext, with an altered one, or once the site is unlinked, only svc may frame it; an unknown slug is 404', async () => {
    const credential = await link(ctx);
    const { frameContext } = (await bootstrapRequest(ctx, credential)).body;
    const altered = frameContext.slice(0, -2) + (frameContext.endsWith('AA') ? 'BB' : 'AA');
    for (const query of ['', `?frameContext=${encodeURIComponent(altered)}`]) {
      expect((await ctx.request('GET', `/widget/panel/admin/acme${query}`)).headers.get('content-security-policy')).toBe(`${BASE_CSP}; frame-ancestors 'self'`);
    }
    await ctx.request('DELETE', '/api/integrations/wordpress/panel/origin', { headers: { authorization: `SvcHost ${credential}` } });
    expect((await ctx.request('GET', `/widget/panel/admin/acme?frameContext=${encodeURIComponent(frameContext)}`)).headers.get('content-security-policy')).toBe(
      `${BASE_CSP}; frame-ancestors 'self'`,
    );
    expect((await ctx.request('GET', '/widget/panel/admin/nobody')).status).toBe(404);
  });

  test('/admin frames nowhere, and the host script and panel assets are served', async () => {
    const admin = await ctx.request('GET', '/admin');
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-security-policy')).toBe(`${BASE_CSP}; frame-ancestors 'none'`);
    for (const path of ['/svc-panel-host.js', '/panel/panel.js', '/panel/panel.css']) {
      const asset = await ctx.request('GET', path);
      expect({ path, status: asset.status }).toEqual({ path, status: 200 });
    }
    expect((await ctx.request('GET', '/svc-panel-host.js')).body).toContain('SvcPanelHost');
  });

  test('every section and booking of /admin has an address: the same page, framed nowhere', async () => {
    const shell = (await ctx.request('GET', '/admin')).body;
    for (const path of ['/admin/bookings', '/admin/bookings/bk_01abc', '/admin/services', '/admin/settings']) {
      const page = await ctx.request('GET', path);
      expect({ path, status: page.status, csp: page.headers.get('content-security-policy') }).toEqual({
        path,
        status: 200,
        csp: `${BASE_CSP}; frame-ancestors 'none'`,
      });
      expect(page.body).toBe(shell);
    }
  });
});
