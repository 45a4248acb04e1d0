import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Frame, Page } from 'playwright-core';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { waitFor } from '../support/wait.ts';
import { mountPage, startPanelBrowserEnv, type PanelBrowserEnv } from './panel-browser-env.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/*
 * The host script (web/panel-host/main.ts, docs/contract/panel.md) in Chromium: `destroy()` removes the
 * iframe and every listener, and each of the spec's four checks (origin, source, version, channelId) drops a
 * panel message on its own. The panel's side of the checks (a host message with a wrong channelId, source,
 * version or origin) is in panel.browser.test.ts.
 */

const PANEL_IFRAME = 'iframe[title="Admin panel"]';

/**
 * Records every listener added to and removed from `window` and `document` from the first script on, so a
 * test can tell which are still registered.
 */
const LISTENER_SPY = `
(() => {
  window.listenerLog = [];
  for (const [name, target] of [['window', window], ['document', document]]) {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    target.addEventListener = (type, listener, options) => {
      window.listenerLog.push({ op: 'add', target: name, type, listener });
      return add(type, listener, options);
    };
    target.removeEventListener = (type, listener, options) => {
      window.listenerLog.push({ op: 'remove', target: name, type, listener });
      return remove(type, listener, options);
    };
  }
  window.liveListeners = () => {
    const live = [];
    for (const entry of window.listenerLog) {
      if (entry.op === 'add') live.push(entry);
      else {
        const index = live.findIndex((one) => one.target === entry.target && one.type === entry.type && one.listener === entry.listener);
        if (index >= 0) live.splice(index, 1);
      }
    }
    return live.map((one) => one.target + ':' + one.type);
  };
})();
`;

describeBrowser('panel host script in Chromium: destroy and the message checks', () => {
  let env: PanelBrowserEnv;
  beforeAll(async () => {
    env = await startPanelBrowserEnv();
    env.hostPage('/mount', mountPage(env.appUrl));
  });
  afterAll(() => env?.close());

  /** The host page with the panel mounted and shown; the panel's frame and its channel. */
  async function mounted() {
    const opened = await env.open();
    await opened.page.addInitScript({ content: LISTENER_SPY });
    await opened.page.goto(`${env.hostUrl}/mount`);
    await opened.page.frameLocator(PANEL_IFRAME).getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    const src = (await opened.page.locator(PANEL_IFRAME).getAttribute('src'))!;
    const channelId = new URL(src).searchParams.get('channelId')!;
    const frame = opened.page.frames().find((one) => one.url().includes('/widget/panel/admin/')) as Frame;
    return { ...opened, frame, channelId };
  }

  const hostEvents = (page: Page) => page.evaluate(() => (window as any).hostEvents as string[]);

  /** Posts `message` to the host page from the panel's own window, as the panel would. */
  const postFromPanel = (frame: Frame, message: Record<string, unknown>, target: string) =>
    frame.evaluate(([posted, origin]) => window.parent.postMessage(posted, origin as string), [message, target] as const);

  test('destroy() removes the iframe and every listener; a valid message from the panel origin after it reaches no callback', async () => {
    const { page, frame, channelId, close, errors } = await mounted();
    const changed = { type: 'svc:panel:changed', source: 'svc-panel', version: 1, channelId };
    // a real message from the panel's window reaches onChanged while mounted
    await postFromPanel(frame, changed, env.hostUrl);
    await waitFor(async () => (await hostEvents(page)).includes('changed'), { what: 'onChanged' });
    expect(await page.evaluate(() => (window as any).liveListeners())).toContain('window:message');

    // keep the panel's window: after destroy a message event naming it and the panel origin is dispatched
    await page.evaluate(() => {
      (window as any).panelWindow = document.querySelector('iframe')!.contentWindow;
    });
    const beforeDestroy = (await hostEvents(page)).length;
    const dispatch = () =>
      page.evaluate(
        ([data, origin]) => window.dispatchEvent(new MessageEvent('message', { data, origin: origin as string, source: (window as any).panelWindow })),
        [changed, env.appUrl] as const,
      );
    // the same forged event reaches the listener before destroy (so after it, silence means the listener is gone)
    await dispatch();
    expect((await hostEvents(page)).length).toBe(beforeDestroy + 1);

    await page.evaluate(() => (window as any).panel.destroy());
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await page.evaluate(() => document.getElementById('svc-panel')!.childElementCount)).toBe(0);
    expect(await page.evaluate(() => (window as any).liveListeners())).toEqual([]);
    await dispatch();
    // navigate() after destroy posts nothing and throws nothing
    await page.evaluate(() => (window as any).panel.navigate('settings'));
    expect(await hostEvents(page)).toEqual(['changed', 'changed']);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('the host script drops a message from the panel window with a wrong source, version or channelId, one from another window of the panel origin, and one from the host page itself', async () => {
    const { page, frame, channelId, close } = await mounted();
    const valid = { source: 'svc-panel', version: 1, channelId };
    const wrong: Record<string, unknown>[] = [
      { ...valid, source: 'svc-wordpress' },
      { ...valid, source: undefined },
      { ...valid, version: 2 },
      { ...valid, version: '1' },
      { ...valid, version: undefined },
      { ...valid, channelId: `${channelId.slice(0, -1)}0` === channelId ? `${channelId.slice(0, -1)}1` : `${channelId.slice(0, -1)}0` },
      { ...valid, channelId: undefined },
    ];
    for (const fields of wrong) await postFromPanel(frame, { type: 'svc:panel:changed', ...fields }, env.hostUrl);

    // a second window on the panel's origin, with every field right: not the panel's window, dropped
    await page.evaluate((url) => {
      const other = document.createElement('iframe');
      other.id = 'second';
      other.src = url;
      document.body.append(other);
    }, `${env.appUrl}/svc-panel-host.js`);
    const second = await waitFor(() => page.frames().find((one) => one.url().endsWith('/svc-panel-host.js') && one !== page.mainFrame()), {
      what: 'the second frame',
    });
    await postFromPanel(second, { type: 'svc:panel:changed', ...valid }, env.hostUrl);
    // the host page posting to itself: the wrong origin
    await page.evaluate((message) => window.postMessage(message, '*'), { type: 'svc:panel:changed', ...valid });

    // then a right message: messages from one window arrive in order, so once it is seen the others were handled
    await postFromPanel(frame, { type: 'svc:panel:open-admin', ...valid }, env.hostUrl);
    await waitFor(async () => (await hostEvents(page)).includes('open-admin'), { what: 'onOpenAdmin' });
    await page.evaluate((message) => window.postMessage(message, '*'), { type: 'svc:panel:open-admin', ...valid, marker: true });
    await postFromPanel(frame, { type: 'svc:panel:changed', ...valid }, env.hostUrl);
    await waitFor(async () => (await hostEvents(page)).includes('changed'), { what: 'onChanged' });
    expect(await hostEvents(page)).toEqual(['open-admin', 'changed']);
    await close();
  }, 60_000);

  test('the host script drops a message from the panel window once it shows another origin: the origin check alone stops it', async () => {
    const { page, frame, channelId, close } = await mounted();
    // the test's own listener, added after the host script's, sees each message once the host script has handled it
    await page.evaluate(() => {
      (window as any).seen = [];
      window.addEventListener('message', (event) => (window as any).seen.push(event.origin));
    });
    env.hostPage(
      '/forge-changed',
      `<!doctype html><script>
const channelId = new URLSearchParams(location.search).get('channel');
parent.postMessage({ type: 'svc:panel:changed', source: 'svc-panel', version: 1, channelId }, '*');
</script>`,
    );
    // the iframe's window (the host script's peer) navigates away from the panel's origin and posts a perfect message
    await frame.evaluate((url) => {
      location.href = url;
    }, `${env.otherUrl}/forge-changed?channel=${channelId}`);
    await waitFor(async () => (await page.evaluate(() => (window as any).seen as string[])).includes(env.otherUrl), { what: 'the forged message' });
    expect(await hostEvents(page)).toEqual([]);
    await close();
  }, 60_000);
});
