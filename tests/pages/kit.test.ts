import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { translate } from '../../src/core/i18n/catalogue.ts';
import { mail as deMail } from '../../src/core/i18n/de/mail.ts';
import { pages as dePages } from '../../src/core/i18n/de/pages.ts';
import { panel as dePanel } from '../../src/core/i18n/de/panel.ts';
import { widget as deWidget } from '../../src/core/i18n/de/widget.ts';
import { mail as enMail } from '../../src/core/i18n/en/mail.ts';
import { pages as enPages } from '../../src/core/i18n/en/pages.ts';
import { panel as enPanel } from '../../src/core/i18n/en/panel.ts';
import { widget as enWidget } from '../../src/core/i18n/en/widget.ts';
import { html, raw } from '../../src/platform/pages/html.ts';
import { layout } from '../../src/platform/pages/layout.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/*
 * The page kit (src/platform/pages/) and the message catalogues (src/core/i18n/): one escaping rule, one
 * document shape with nothing inline, the workspace's colour from a stylesheet, and German saying all English says.
 */

describe('html``', () => {
  test('escapes every interpolated value, in content and in attributes', () => {
    const name = `Tom & Jerry's <b>"Salon"</b>`;
    expect(html`<p title="${name}">${name}</p>`.markup).toBe(
      '<p title="Tom &amp; Jerry&#39;s &lt;b&gt;&quot;Salon&quot;&lt;/b&gt;">Tom &amp; Jerry&#39;s &lt;b&gt;&quot;Salon&quot;&lt;/b&gt;</p>',
    );
  });

  test('a fragment built by html`` or vouched for by raw() goes in as it is; arrays join, null/undefined/false write nothing', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.markup).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
    expect(html`<div>${raw('<br>')}${'<br>'}</div>`.markup).toBe('<div><br>&lt;br&gt;</div>');
  });
});

describe('layout', () => {
  test('one document: language, escaped title, the pages stylesheet, the brand stylesheet of a #rrggbb colour; nothing inline', () => {
    const page = layout({ title: 'A <b>', lang: 'de', brandColor: '#0F766e', body: html`<main>${'x'}</main>` });
    expect(page).toStartWith('<!doctype html>\n<html lang="de">\n<head>\n<meta charset="utf-8">');
    expect(page).toContain('<title>A &lt;b&gt;</title>');
    expect(page).toMatch(/<link rel="stylesheet" href="\/svc-pages\.css\?v=[\w-]+">\n<link rel="stylesheet" href="\/svc-brand\/0F766e\.css">/);
    expect(page).toContain('<body>\n<main>x</main>\n</body>');
    expect(page).not.toMatch(/<style|style=|<script/);
  });

  test('a colour that is not a plain #rrggbb links no brand stylesheet (svc blue stays)', () => {
    for (const brandColor of ['red', '#fff', 'url(x)', '#0f766e;x', null]) {
      expect(layout({ title: 't', brandColor, body: html`` })).not.toContain('/svc-brand/');
    }
  });
});

describe('pages under a strict CSP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('libsql', { payments: 'test' });
    await t.deps.storage.updateWorkspace(t.workspace.id, { primaryColor: '#fde047' }, Date.now());
  });
  afterAll(() => t.close());
  const get = (path: string) => t.app.handle(new Request(`http://localhost${path}`));

  test('every server-rendered page: no unsafe-inline in its CSP, no inline style or script in its HTML', async () => {
    for (const path of ['/', '/book/acme', '/book/nobody', '/manage/not-a-token', '/admin', '/widget/panel/admin/acme']) {
      const response = await get(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect({ path, type: response.headers.get('content-type'), styleSelf: csp.includes("style-src 'self'") }).toEqual({
        path,
        type: 'text/html; charset=utf-8',
        styleSelf: true,
      });
      expect(csp).not.toContain('unsafe-inline');
      const body = await response.text();
      expect(body).not.toMatch(/<style|style=|<script>/);
    }
  });

  test('GET /svc-brand/<rrggbb>.css: --brand and a readable --brand-text, cached for a year; anything else 404', async () => {
    const light = await get('/svc-brand/fde047.css');
    expect(light.status).toBe(200);
    expect(light.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(light.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await light.text()).toBe(':root{--brand:#fde047;--brand-text:#111111}\n');
    expect(await (await get('/svc-brand/1d4ed8.css')).text()).toBe(':root{--brand:#1d4ed8;--brand-text:#ffffff}\n');
    for (const path of ['/svc-brand/red.css', '/svc-brand/0f766e', '/svc-brand/0f766e.css%7Bx']) expect((await get(path)).status).toBe(404);
  });

  test('the booking page carries the workspace colour by its stylesheet', async () => {
    expect(await (await get('/book/acme')).text()).toContain('<link rel="stylesheet" href="/svc-brand/fde047.css">');
  });
});

/** Every key path of a catalogue, with whether it is a text or a function. */
function shape(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? shape(value, `${prefix}${key}.`) : [`${prefix}${key}:${typeof value}`],
  );
}

describe('message catalogues', () => {
  test('German has exactly the keys of English in every namespace, each a text where English has a text', () => {
    expect(shape(dePages)).toEqual(shape(enPages));
    expect(shape(deMail)).toEqual(shape(enMail));
    expect(shape(deWidget)).toEqual(shape(enWidget));
    expect(shape(dePanel)).toEqual(shape(enPanel));
  });

  test('translate: by the primary language subtag, English for any other language, parameters filled in', () => {
    expect(translate('de-CH', 'pages.checkout.pay', { amount: 'CHF 35.00' })).toBe('CHF 35.00 bezahlen');
    expect(translate('fr', 'pages.checkout.pay', { amount: '35,00 €' })).toBe('Pay 35,00 €');
    expect(translate('en', 'pages.manage.statuses.CANCELLED')).toBe('Cancelled');
    expect(translate('de', 'widget.minutes', 30)).toBe('30 Min.');
    expect(translate('de', 'panel.sections.hours')).toBe('Arbeitszeiten');
  });
});
