import { describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { webAsset } from '../../src/platform/web-assets/routes.ts';
import {
  acceptHostMessage,
  acceptPanelMessage,
  frameContextOrigin,
  hostEnvelope,
  panelAddress,
  panelEnvelope,
  sectionOf,
} from '../../web/protocol/panel-protocol.ts';

const PANEL = 'https://svc.example.com';
const HOST = 'https://shop.example.com';

describe('panel message protocol (web/protocol/panel-protocol.ts)', () => {
  const fromPanel = (data: unknown, origin = PANEL) => acceptPanelMessage({ origin, data }, PANEL, 'c1');
  const fromHost = (data: unknown, origin = HOST) => acceptHostMessage({ origin, data }, HOST, 'c1');

  test('the host accepts a panel message that passes the four checks, with its payload', () => {
    expect(fromPanel(panelEnvelope('c1', { type: 'svc:panel:resize', height: 640 }))).toEqual({ type: 'svc:panel:resize', height: 640 });
    expect(fromPanel(panelEnvelope('c1', { type: 'svc:panel:ready' }))).toEqual({ type: 'svc:panel:ready' });
    expect(fromPanel(panelEnvelope('c1', { type: 'svc:panel:focus-mode', enabled: true }))).toEqual({ type: 'svc:panel:focus-mode', enabled: true });
  });

  test('the host drops a message from another origin, of another source, version or channel, or with a bad payload', () => {
    const good = panelEnvelope('c1', { type: 'svc:panel:resize', height: 640 });
    expect(fromPanel(good, 'https://evil.example.com')).toBeNull();
    expect(fromPanel(good, 'http://svc.example.com')).toBeNull();
    expect(fromPanel({ ...good, source: 'svc-wordpress' })).toBeNull();
    expect(fromPanel({ ...good, version: 2 })).toBeNull();
    expect(fromPanel({ ...good, version: '1' })).toBeNull();
    expect(fromPanel({ ...good, channelId: 'c2' })).toBeNull();
    expect(fromPanel({ ...good, height: '640' })).toBeNull();
    expect(fromPanel({ ...good, type: 'svc:panel:unknown' })).toBeNull();
    expect(fromPanel('svc:panel:ready')).toBeNull();
    expect(fromPanel(null)).toBeNull();
  });

  test('the panel accepts the host constant source svc-wordpress only, and checks the bootstrap payload', () => {
    const bootstrap = hostEnvelope('c1', { type: 'svc:panel:bootstrap', code: 'svc_code_x', origin: HOST, frameContext: 'a.b.c' });
    expect(bootstrap.source).toBe('svc-wordpress');
    expect(fromHost(bootstrap)).toEqual({ type: 'svc:panel:bootstrap', code: 'svc_code_x', origin: HOST, frameContext: 'a.b.c' });
    expect(fromHost({ ...bootstrap, source: 'svc-panel' })).toBeNull();
    expect(fromHost({ ...bootstrap, code: '' })).toBeNull();
    expect(fromHost(bootstrap, PANEL)).toBeNull();
    expect(fromHost(hostEnvelope('c1', { type: 'svc:panel:navigate', section: 'hours' }))).toEqual({ type: 'svc:panel:navigate', section: 'hours' });
  });

  test('unknown sections open the dashboard', () => {
    expect(sectionOf('settings')).toBe('settings');
    expect(sectionOf('admin')).toBe('dashboard');
    expect(sectionOf(undefined)).toBe('dashboard');
  });

  test('the iframe address URL-encodes both values, so a # or + in them survives', () => {
    const address = panelAddress(PANEL, 'acme', 'a+b', 'x.y#z', 'hours');
    expect(address).toBe(`${PANEL}/widget/panel/admin/acme?channelId=a%2Bb&frameContext=x.y%23z&section=hours`);
    expect(new URL(address).searchParams.get('frameContext')).toBe('x.y#z');
  });

  test('frameContextOrigin reads the origin of a frameContext; a malformed one gives null', () => {
    const payload = Buffer.from(JSON.stringify({ origin: HOST, slug: 'acme' })).toString('base64url');
    expect(frameContextOrigin(`e30.${payload}.sig`)).toBe(HOST);
    expect(frameContextOrigin('nonsense')).toBeNull();
    expect(frameContextOrigin('a.%%%.c')).toBeNull();
  });
});

describe('svc-panel-host.js', () => {
  test('is at most 10 KB gzip', () => {
    const asset = webAsset('/svc-panel-host.js');
    expect(gzipSync(asset.body, { level: 9 }).length).toBeLessThanOrEqual(10 * 1024);
  });

  test('the panel app and its styles stay within the 150 KB gzip budget', () => {
    const total = ['/panel/panel.js', '/panel/panel.css'].reduce((sum, path) => sum + gzipSync(webAsset(path).body, { level: 9 }).length, 0);
    expect(total).toBeLessThanOrEqual(150 * 1024);
  });
});
