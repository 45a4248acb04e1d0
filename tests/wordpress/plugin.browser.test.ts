import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Dialog,
  type FrameLocator,
  type Locator,
  type Page,
  type Request,
  type Response as PageResponse,
} from 'playwright-core';
import { freePort } from '../support/process.ts';
import { CHROMIUM, chromiumAvailable } from '../widget/browser-env.ts';
import { bookFirstFreeTime, chooseService, heading, widgetOf } from '../widget/drive.ts';
import { ADMIN, ensurePluginZip, SLUG, startWordPressEnv, SUBSCRIBER, WP_HOST, wordpressAvailable, type WordPressEnv } from './wordpress-env.ts';

const SCREENSHOTS = join(import.meta.dir, '..', '..', 'test-output', 'screenshots', 'wordpress');
const describeWordPress = wordpressAvailable() && chromiumAvailable() ? describe : describe.skip;
// Every wp-admin page is PHP rendering WordPress through `php -S`: on a loaded machine a test of several pages
// needs more than the suite's 30 s.
setDefaultTimeout(90_000);

/** The site owner's journey on a real WordPress: one WordPress, one svc and one Chromium for the whole file. */
describeWordPress('svc-booking on a real WordPress', () => {
  let env: WordPressEnv;
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let serviceId: string;

  const settingsUrl = () => `${env.wpUrl}/wp-admin/options-general.php?page=svc-booking`;
  const panelUrl = () => `${env.wpUrl}/wp-admin/admin.php?page=svc-booking-panel`;
  const svcApi = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${env.appUrl}/api/v1/workspaces/${SLUG}${path}`, {
      method,
      headers: { 'x-svc-api-key': env.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const options = () =>
    env.php<Record<string, { value: string; autoload: string }>>(`
    global $wpdb;
    $rows = $wpdb->get_results( "SELECT option_name, option_value, autoload FROM {$wpdb->options} WHERE option_name LIKE '%svc\\\\_booking%' ORDER BY option_name" );
    $out = new stdClass();
    foreach ( $rows as $row ) { $out->{$row->option_name} = array( 'value' => $row->option_value, 'autoload' => $row->autoload ); }
    return $out;`);
  const credential = async () => (await options()).svc_booking_host_credential?.value;

  async function logIn(user: { login: string; password: string }, viewport = { width: 1280, height: 900 }) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${env.wpUrl}/wp-login.php`);
    // wp-login.php focuses and selects the user name field 200 ms after load (wp_attempt_focus): should that land
    // while the password is being typed, the password replaces the selected name. Type only once it has.
    await page.waitForFunction(() => document.activeElement?.id === 'user_login');
    await page.locator('#user_login').fill(user.login);
    await page.locator('#user_pass').fill(user.password);
    // The wait ends on the landing page's load event: should it not come, say which requests it still waited for.
    const pending = new Map<Request, number>();
    const started = Date.now();
    page.on('request', (request) => pending.set(request, Date.now()));
    page.on('requestfinished', (request) => pending.delete(request));
    page.on('requestfailed', (request) => pending.delete(request));
    try {
      await Promise.all([page.waitForURL(/\/wp-admin\//), page.locator('#wp-submit').click()]);
    } catch (error) {
      const waiting = [...pending].map(([request, at]) => `${request.method()} ${request.url()} (sent after ${at - started} ms)`);
      const refused = await page
        .locator('#login_error')
        .textContent({ timeout: 1_000 })
        .catch(() => null);
      throw new Error(
        `${user.login} logging in, at ${page.url()}${refused ? ` (WordPress said: ${refused.trim()})` : ''}, still waiting for: ${waiting.join(', ') || 'no request'}`,
        { cause: error },
      );
    }
    return { context, page };
  }

  /** Waits for a wp-admin page's h1; should it not come, says where the browser is and what the page shows. */
  async function expectAdminHeading(page: Page, name: string) {
    try {
      await page.getByRole('heading', { name, level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    } catch (error) {
      const shown = await page
        .locator('body')
        .innerText()
        .catch(() => '(no body)');
      throw new Error(`no h1 "${name}" at ${page.url()} ("${await page.title()}"): ${shown.replace(/\s+/g, ' ').slice(0, 600)}`, { cause: error });
    }
  }

  /**
   * Runs `steps` on the page's panel frame; should they fail, says what the panel and its host showed and every
   * request, answer, console line and dialog of the page meanwhile, in ms from the start.
   */
  async function inPanel(page: Page, what: string, steps: (frame: FrameLocator) => Promise<void>) {
    const started = Date.now();
    const log: string[] = [];
    const note = (line: string) => log.push(`${Date.now() - started} ${line}`);
    // WordPress's own scripts, styles and images would bury the few requests that tell what happened
    const asset = (url: string) => /\/load-(scripts|styles)\.php|\.(js|css|png|svg|gif|woff2?)(\?|$)/.test(url) && !url.startsWith(env.appUrl);
    const onRequest = (request: Request) => {
      if (!asset(request.url())) note(`> ${request.method()} ${request.url()}`);
    };
    const onResponse = (response: PageResponse) => {
      if (!asset(response.url())) note(`< ${response.status()} ${response.url()}`);
    };
    const onFailed = (request: Request) => note(`failed ${request.url()}: ${request.failure()?.errorText}`);
    const onConsole = (message: ConsoleMessage) => note(`console.${message.type()} ${message.text()}`);
    const onDialog = (dialog: Dialog) => {
      note(`dialog ${dialog.type()} ${dialog.message()}`);
      void dialog.dismiss();
    };
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('requestfailed', onFailed);
    page.on('console', onConsole);
    page.on('dialog', onDialog);
    const frame = page.frameLocator('#svc-booking-panel iframe');
    try {
      await steps(frame);
    } catch (error) {
      const text = (locator: Locator) =>
        locator
          .innerText({ timeout: 1_000 })
          .then((shown) => shown.replace(/\s+/g, ' ').slice(0, 1_500))
          .catch(() => '(nothing)');
      throw new Error(
        `${what}, at ${page.url()}: the panel shows "${await text(frame.locator('body'))}", its container "${await text(page.locator('#svc-booking-panel'))}"\n${log.join('\n')}`,
        { cause: error },
      );
    } finally {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfailed', onFailed);
      page.off('console', onConsole);
      page.off('dialog', onDialog);
    }
  }

  /** Fills the settings form as a site owner would and submits it; resolves on the page it lands on. */
  async function connect(page: Page, values: { server: string; slug: string; code: string }) {
    await page.goto(settingsUrl());
    await page.getByLabel('Server address').fill(values.server);
    await page.getByLabel('Workspace slug').fill(values.slug);
    await page.getByLabel('Pairing code').fill(values.code);
    await Promise.all([page.waitForURL(/options-general\.php\?page=svc-booking(&|$)/), page.getByRole('button', { name: 'Connect' }).click()]);
  }

  /**
   * A stand-in for an svc at another address, on loopback: it records every request and refuses each with an
   * svc-style error body.
   */
  function otherServer() {
    const requests: { method: string; path: string; authorization: string }[] = [];
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request) {
        requests.push({ method: request.method, path: new URL(request.url).pathname, authorization: request.headers.get('authorization') ?? '' });
        return Response.json({ error: 'invalid pairing code', code: 'UNAUTHORIZED' }, { status: 401 });
      },
    });
    return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
  }

  /** The user's REST nonce, as WordPress hands it to its own scripts (admin-ajax.php?action=rest-nonce). */
  const restNonce = async (context: BrowserContext) => {
    const response = await context.request.get(`${env.wpUrl}/wp-admin/admin-ajax.php?action=rest-nonce`);
    expect(response.status()).toBe(200);
    return response.text();
  };
  const notice = (page: Page) => page.locator('.svc-booking-notice p');
  const shot = async (page: Page, name: string) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // The panel's frame is of another origin and paints in its own process: right after a viewport change it can
    // still be blank when the page is captured, so every frame paints twice first.
    const painted = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(page.frames().map((frame) => frame.evaluate(painted).catch(() => undefined)));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    await ensurePluginZip();
    [env, browser] = await Promise.all([
      startWordPressEnv(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
    ]);
    const provider = await svcApi('POST', '/providers', { name: 'Alex Hoffmann' });
    const service = await svcApi('POST', '/services', {
      name: 'Haircut',
      description: 'Wash, cut and style.',
      duration: 30,
      price: 0,
      currency: 'EUR',
      providerIds: [provider.provider.id],
    });
    serviceId = service.service.id;
    await svcApi('POST', '/services', {
      name: 'Consultation',
      description: 'Fifteen minutes.',
      duration: 15,
      price: 0,
      currency: 'EUR',
      providerIds: [provider.provider.id],
      order: 1,
    });
    const day = [{ start: '09:00', end: '17:00' }];
    await svcApi('PUT', '/schedule', { weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }, exceptions: [] });
    admin = await logIn(ADMIN);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  test('the plugin is active and its settings page shows the labelled fields and Connect', async () => {
    const { page } = admin;
    await page.goto(settingsUrl());
    await expectAdminHeading(page, 'svc Booking');
    for (const label of ['Server address', 'Workspace slug', 'Pairing code']) expect(await page.getByLabel(label).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    await shot(page, 'settings-disconnected-1280');
    await page.setViewportSize({ width: 375, height: 740 });
    await shot(page, 'settings-disconnected-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('an unreachable server: the notice names the address; nothing is linked', async () => {
    const nowhere = `http://127.0.0.1:${freePort()}`;
    await connect(admin.page, { server: nowhere, slug: SLUG, code: await env.pairingCode() });
    expect(await notice(admin.page).textContent()).toStartWith(`The svc server at ${nowhere} could not be reached: `);
    expect(await credential()).toBeUndefined();
  });

  test("a wrong pairing code: svc's own error is shown as an admin notice, nothing is stored", async () => {
    await connect(admin.page, { server: env.appUrl, slug: SLUG, code: 'svc_pair_not-a-real-code' });
    const text = await notice(admin.page).textContent();
    expect(text).toStartWith('svc refused: ');
    expect(text).toMatch(/\((UNAUTHORIZED|[A-Z_]+)\)$/);
    expect(await admin.page.locator('.notice-error.svc-booking-notice').count()).toBe(1);
    expect(await options()).toEqual({});
    // the form keeps what was typed, except the code
    expect(await admin.page.getByLabel('Server address').inputValue()).toBe(env.appUrl);
    expect(await admin.page.getByLabel('Workspace slug').inputValue()).toBe(SLUG);
    expect(await admin.page.getByLabel('Pairing code').inputValue()).toBe('');
    // a notice is shown once
    await admin.page.reload();
    expect(await notice(admin.page).count()).toBe(0);
  });

  test('without SVC_BOOKING_ALLOW_PRIVATE_SERVER a loopback server address is refused before any request, with a notice saying how to allow it', async () => {
    const other = otherServer();
    env.allowPrivateServer(false);
    try {
      await connect(admin.page, { server: other.url, slug: SLUG, code: 'svc_pair_any' });
      expect(await notice(admin.page).textContent()).toBe(
        `WordPress does not call the svc server at ${other.url}: 127.0.0.1 is a private or loopback address. `
          + "For an svc server on a private network, add define( 'SVC_BOOKING_ALLOW_PRIVATE_SERVER', true ); to wp-config.php.",
      );
      expect(await admin.page.locator('.notice-error.svc-booking-notice').count()).toBe(1);
      expect(other.requests).toEqual([]);
      expect(await options()).toEqual({});
    } finally {
      env.allowPrivateServer(true);
      other.stop();
    }
  });

  test('a subscriber gets no Bookings menu, no settings page, and the connect action refuses them with 403', async () => {
    const subscriber = await logIn(SUBSCRIBER);
    try {
      const { page } = subscriber;
      await page.goto(`${env.wpUrl}/wp-admin/profile.php`);
      expect(await page.locator('#adminmenu').count()).toBe(1);
      expect(await page.locator('#toplevel_page_svc-booking-panel').count()).toBe(0);
      for (const url of [panelUrl(), settingsUrl()]) {
        const response = await page.goto(url);
        expect(response!.status()).toBe(403);
      }
      const code = await env.pairingCode();
      const refused = await subscriber.context.request.post(`${env.wpUrl}/wp-admin/admin-post.php`, {
        form: { action: 'svc_booking_connect', svc_booking_server_url: env.appUrl, svc_booking_workspace_slug: SLUG, svc_booking_pairing_code: code },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('Sorry, you are not allowed to change the svc Booking settings.');
      expect(await credential()).toBeUndefined();
    } finally {
      await subscriber.context.close();
    }
  });

  test("an administrator's form post without a nonce is refused with 403 and changes nothing", async () => {
    const code = await env.pairingCode();
    const forms: Record<string, string>[] = [
      { action: 'svc_booking_connect', svc_booking_server_url: env.appUrl, svc_booking_workspace_slug: SLUG, svc_booking_pairing_code: code },
      {
        action: 'svc_booking_connect',
        _wpnonce: 'forged1234',
        svc_booking_server_url: env.appUrl,
        svc_booking_workspace_slug: SLUG,
        svc_booking_pairing_code: code,
      },
      { action: 'svc_booking_display', svc_booking_open_in_window: '1' },
    ];
    for (const form of forms) {
      const refused = await admin.context.request.post(`${env.wpUrl}/wp-admin/admin-post.php`, { form, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('The link you followed has expired.');
    }
    expect(await options()).toEqual({});
  });

  test('connect with a pairing code from the CLI: connected state, the credential kept server side only, the site allowed to book', async () => {
    const { page } = admin;
    await connect(page, { server: env.appUrl, slug: SLUG, code: await env.pairingCode() });
    expect(await notice(page).textContent()).toBe(`Connected to the workspace ${SLUG}. svc now accepts bookings from ${env.wpOrigin}.`);
    expect(await page.locator('.svc-booking-status').textContent()).toContain(`Connected to the workspace ${SLUG} on ${env.appUrl} as ${env.wpOrigin}.`);
    expect(await page.getByRole('button', { name: 'Disconnect' }).count()).toBe(1);
    expect(await page.getByLabel('Pairing code').count()).toBe(0);
    await shot(page, 'settings-connected-1280');
    await page.setViewportSize({ width: 375, height: 740 });
    await shot(page, 'settings-connected-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    const stored = await options();
    const secret = stored.svc_booking_host_credential!.value;
    expect(secret.length).toBeGreaterThan(20);
    expect(stored.svc_booking_host_credential!.autoload).toBe('no');
    expect(stored.svc_booking_linked_origin).toEqual({ value: env.wpOrigin, autoload: 'yes' });

    // svc linked the origin and allows the site's host for the widget
    expect((await svcApi('GET', '/domains')).domains).toContain(WP_HOST);

    // the credential is in no page a browser gets
    for (const url of [settingsUrl(), panelUrl(), `${env.wpUrl}/wp-admin/`, `${env.wpUrl}/`]) {
      const html = await (await admin.context.request.get(url)).text();
      expect(html.length, url).toBeGreaterThan(500);
      expect(html.includes(secret), url).toBe(false);
    }
  });

  test("REST bootstrap: 401 without a nonce, 403 for a subscriber, svc's JSON for an administrator", async () => {
    const route = `${env.wpUrl}/wp-json/svc-booking/v1/bootstrap`;
    const anonymous = await admin.context.request.post(route);
    expect(anonymous.status()).toBe(401);
    expect((await anonymous.json()).code).toBe('rest_forbidden');

    const subscriber = await logIn(SUBSCRIBER);
    try {
      const refused = await subscriber.context.request.post(route, { headers: { 'X-WP-Nonce': await restNonce(subscriber.context) } });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).code).toBe('rest_forbidden');
    } finally {
      await subscriber.context.close();
    }

    const issued = await admin.context.request.post(route, { headers: { 'X-WP-Nonce': await restNonce(admin.context) } });
    expect(issued.status()).toBe(201);
    const body = await issued.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'expiresAt', 'frameContext', 'success', 'workspaceSlug']);
    expect(body.success).toBe(true);
    expect(body.workspaceSlug).toBe(SLUG);
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(JSON.stringify(body).includes((await credential())!)).toBe(false);
    // the frame context names the WordPress user as subject, role ADMIN's capabilities and the linked origin
    const claims = JSON.parse(Buffer.from(body.frameContext.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ slug: SLUG, origin: env.wpOrigin, sub: '1', caps: ['svc_manage_operations', 'svc_manage_settings'] });
    expect(issued.headers()['cache-control']).toContain('no-cache');
  });

  test('the shortcode and the block print the widget tag with their attributes sanitised and escaped', async () => {
    // wp_slash: wp_insert_post unslashes, and the block's JSON escapes must survive as the editor saves them
    const pageId =
      await env.php<number>(`return wp_insert_post( wp_slash( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Book a visit',
      'post_content' => '[svc_booking theme="dark" service="${serviceId}"]' . "\\n\\n" . '[svc_booking position="bottom-left" theme="x" service="a&quot;b" slug="Other Shop!"]'
        . "\\n\\n" . '<!-- wp:svc-booking/booking {"service":"\\\\u0022\\\\u003e\\\\u003cimg src=x onerror=alert(1)\\\\u003e","position":"top","theme":"dark"} /-->' ) ) );`);
    const html = await (await fetch(`${env.wpUrl}/?page_id=${pageId}`)).text();
    const tags = html.match(/<script src="[^"]*svc-widget\.min\.js"[^>]*><\/script>/g);
    expect(tags).toEqual([
      `<script src="${env.appUrl}/svc-widget.min.js" data-slug="${SLUG}" data-position="inline" data-theme="dark" data-service="${serviceId}" async></script>`,
      `<script src="${env.appUrl}/svc-widget.min.js" data-slug="othershop" data-position="bottom-left" data-theme="auto" data-service="a&quot;b" async></script>`,
      `<script src="${env.appUrl}/svc-widget.min.js" data-slug="${SLUG}" data-position="inline" data-theme="dark" data-service="&quot;&gt;" async></script>`,
    ]);
    expect(html).not.toContain('onerror=alert');
  });

  test('a page with the block takes a booking from the WordPress origin in Chromium', async () => {
    const slug = 'book-with-the-block';
    await env.php(`return wp_insert_post( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Book online', 'post_name' => '${slug}',
      'post_content' => '<!-- wp:paragraph --><p>Pick a time that suits you.</p><!-- /wp:paragraph -->' . "\\n" . '<!-- wp:svc-booking/booking {"theme":"light"} /-->' ) );`);
    const html = await (await fetch(`${env.wpUrl}/${slug}/`)).text();
    expect(html).toContain(
      `<div class="wp-block-svc-booking-booking"><script src="${env.appUrl}/svc-widget.min.js" data-slug="${SLUG}" data-position="inline" data-theme="light" async></script></div>`,
    );

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 740 },
    ]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${env.wpUrl}/${slug}/`);
      const widget = widgetOf(page);
      await heading(widget, 'Choose a service');
      await shot(page, `page-with-block-${viewport.width}`);
      if (viewport.width === 1280) {
        await chooseService(widget, 'Haircut');
        await bookFirstFreeTime(widget, { name: 'Mia Schneider', email: 'mia@example.com' });
        await shot(page, 'page-with-block-booked-1280');
        const bookings = await svcApi('GET', '/bookings');
        expect(bookings.bookings.map((booking: { customerEmail: string; serviceId: string }) => [booking.customerEmail, booking.serviceId])).toEqual([
          ['mia@example.com', serviceId],
        ]);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  test('a page with the shortcode takes a booking from the WordPress origin in Chromium', async () => {
    const slug = 'book-with-the-shortcode';
    await env.php(`return wp_insert_post( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Book by shortcode', 'post_name' => '${slug}',
      'post_content' => '<p>Choose a time below.</p>' . "\\n\\n" . '[svc_booking]' ) );`);
    const html = await (await fetch(`${env.wpUrl}/${slug}/`)).text();
    expect(html).toContain(`<script src="${env.appUrl}/svc-widget.min.js" data-slug="${SLUG}" data-position="inline" data-theme="auto" async></script>`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${env.wpUrl}/${slug}/`);
      const widget = widgetOf(page);
      await heading(widget, 'Choose a service');
      await chooseService(widget, 'Consultation');
      await bookFirstFreeTime(widget, { name: 'Lena Vogel', email: 'lena@example.com' });
      await shot(page, 'page-with-shortcode-booked-1280');
      const booked = (await svcApi('GET', '/bookings')).bookings.filter((booking: { customerEmail: string }) => booking.customerEmail === 'lena@example.com');
      expect(booked).toMatchObject([{ customerName: 'Lena Vogel', serviceName: 'Consultation', status: 'CONFIRMED' }]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the block editor offers "svc Booking" with a preview and its controls; saving stores the attributes the server renders', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: await admin.context.storageState() });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${env.wpUrl}/wp-admin/post-new.php?post_type=page`);
      await page.waitForFunction(
        () => (window as any).wp?.blocks?.getBlockType('svc-booking/booking') && (window as any).wp.data.select('core/editor').getCurrentPostId(),
      );
      const type = await page.evaluate(() => {
        const block = (window as any).wp.blocks.getBlockType('svc-booking/booking');
        return {
          title: block.title,
          attributes: Object.keys(block.attributes)
            .filter((name) => ['slug', 'service', 'position', 'theme'].includes(name))
            .sort(),
        };
      });
      expect(type).toEqual({ title: 'svc Booking', attributes: ['position', 'service', 'slug', 'theme'] });
      await page.evaluate(() => {
        const { wp } = window as any;
        wp.data.dispatch('core/editor').editPost({ title: 'Book from the editor' });
        wp.data.dispatch('core/block-editor').insertBlocks(wp.blocks.createBlock('svc-booking/booking'));
      });
      const preview = page.locator('.svc-booking-block-preview');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('In the page · Follow the visitor (light or dark)');
      // the site owner sets everything in the block's sidebar controls
      await preview.click();
      await page.getByLabel('Position', { exact: true }).selectOption({ label: 'Button, bottom right' });
      await page.getByLabel('Theme', { exact: true }).selectOption({ label: 'Dark' });
      expect(await preview.textContent()).toContain('Button, bottom right · Dark');
      await page.getByLabel('Service id (optional)').fill(serviceId);
      expect(await preview.textContent()).toContain(`Starts with service ${serviceId}`);
      await shot(page, 'block-editor-1280');
      await page.evaluate(() => (window as any).wp.data.dispatch('core/editor').savePost());
      await page.waitForFunction(
        () => !(window as any).wp.data.select('core/editor').isSavingPost() && !(window as any).wp.data.select('core/editor').isEditedPostDirty(),
      );
      const id = await page.evaluate(() => (window as any).wp.data.select('core/editor').getCurrentPostId());
      const content = await env.php<string>(`return get_post_field( 'post_content', ${Number(id)} );`);
      expect(content).toBe(`<!-- wp:svc-booking/booking {"service":"${serviceId}","position":"bottom-right","theme":"dark"} /-->`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the Bookings page mounts the panel: the handshake completes and it shows the workspace', async () => {
    const { page } = admin;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(panelUrl());
    expect(await page.locator('#toplevel_page_svc-booking-panel').count()).toBe(1);
    const config = await page.evaluate(() => (window as any).svcBookingPanel);
    expect(config).toEqual({
      panelOrigin: env.appUrl,
      adminUrl: `${env.appUrl}/admin?workspace=${SLUG}`,
      bootstrapUrl: `${env.wpUrl}/wp-json/svc-booking/v1/bootstrap`,
      restNonce: expect.any(String),
      section: 'dashboard',
      mode: 'iframe',
    });
    expect(await page.locator(`script[src="${env.appUrl}/svc-panel-host.js"]`).count()).toBe(1);

    const iframe = page.locator('#svc-booking-panel iframe');
    const frame = page.frameLocator('#svc-booking-panel iframe');
    await frame.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    await frame.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    await frame.getByText('Europe/Berlin').waitFor();
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${env.appUrl}/widget/panel/admin/${SLUG}`);
    expect(src.searchParams.get('channelId')).toMatch(/.{16,}/);
    // the one-time code travels by message only
    expect(src.search.includes('code=')).toBe(false);
    await shot(page, 'bookings-1280');
    await page.setViewportSize({ width: 782, height: 900 });
    await shot(page, 'bookings-782');
    await page.setViewportSize({ width: 375, height: 740 });
    await shot(page, 'bookings-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await frame.getByRole('button', { name: 'Bookings', exact: true }).click();
    await frame.getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    expect(errors).toEqual([]);
  });

  test('a PENDING booking is confirmed from the Bookings page: svc shows it CONFIRMED', async () => {
    // a keyless booking from the site while the workspace confirms by hand is PENDING
    await svcApi('PATCH', '', { requiresConfirmation: true });
    const free = await svcApi(
      'GET',
      `/availability/days?serviceId=${serviceId}&from=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    const day = free.days[0] as string;
    const time = (await svcApi('GET', `/availability?serviceId=${serviceId}&date=${day}`)).slots[0] as string;
    const made = await fetch(`${env.appUrl}/api/v1/workspaces/${SLUG}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: env.wpOrigin },
      body: JSON.stringify({
        serviceId,
        email: 'jonas@example.com',
        name: 'Jonas Keller',
        date: Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime('Europe/Berlin').toString({ timeZoneName: 'never' }),
      }),
    });
    await svcApi('PATCH', '', { requiresConfirmation: false });
    expect(made.status).toBe(200);
    const booking = ((await made.json()) as { booking: { id: string; status: string } }).booking;
    expect(booking.status).toBe('PENDING');

    const { page } = admin;
    await inPanel(page, 'confirming from the dashboard', async (frame) => {
      await page.goto(panelUrl());
      await frame.getByRole('button', { name: 'Confirm: Jonas Keller' }).click();
      await frame.getByRole('status').filter({ hasText: 'Booking of Jonas Keller confirmed.' }).waitFor();
    });
    expect((await svcApi('GET', `/bookings/${booking.id}`)).booking.status).toBe('CONFIRMED');
  });

  test("the panel's requests reach WordPress from clicks in the panel: a logo from the media library, focus mode without the admin menu, the full admin", async () => {
    const logo = await env.php<string>(`
      $upload = wp_upload_bits( 'acme-logo.png', null, base64_decode( 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' ) );
      $id = wp_insert_attachment( array( 'post_mime_type' => 'image/png', 'post_title' => 'Acme logo', 'post_status' => 'inherit' ), $upload['file'] );
      return wp_get_attachment_url( $id );`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: await admin.context.storageState() });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${panelUrl()}&section=settings`);
      const frame = page.frameLocator('#svc-booking-panel iframe');
      await frame.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();

      // "Choose logo" in the panel → the host script → the media library of WordPress → logoUrl saved on svc
      await frame.getByRole('button', { name: 'Choose logo' }).click();
      const modal = page.locator('.media-modal');
      await modal.getByRole('heading', { name: 'Choose a logo' }).waitFor();
      // WordPress opens on "Upload files" when it thinks the library is empty (it counted before the upload)
      await modal.getByRole('tab', { name: 'Media Library' }).click();
      await modal.locator('li.attachment').first().click();
      await modal.getByRole('button', { name: 'Use as logo' }).click();
      await frame.locator('img.logo-preview').waitFor();
      expect((await svcApi('GET', '')).workspace.logoUrl).toBe(logo);
      expect(await frame.locator('img.logo-preview').getAttribute('src')).toBe(logo);
      // closed without a choice: nothing changes
      await frame.getByRole('button', { name: 'Choose logo' }).click();
      await modal.getByRole('heading', { name: 'Choose a logo' }).waitFor();
      await page.keyboard.press('Escape');
      await modal.getByRole('heading', { name: 'Choose a logo' }).waitFor({ state: 'hidden' });
      expect((await svcApi('GET', '')).workspace.logoUrl).toBe(logo);

      // a booking's details are a full-screen view: WordPress hides its admin menu while they are open
      expect(await page.locator('#adminmenuwrap').isVisible()).toBe(true);
      await frame.getByRole('navigation').getByRole('button', { name: 'Bookings', exact: true }).click();
      await frame.getByRole('button', { name: /^Booking details: .*Jonas Keller/ }).click();
      await frame.getByRole('heading', { name: "Details of Jonas Keller's booking" }).waitFor();
      await page.locator('#adminmenuwrap').waitFor({ state: 'hidden' });
      expect(await page.locator('body').getAttribute('class')).toContain('svc-booking-focus');
      await shot(page, 'bookings-focus-mode-1280');
      await frame.getByRole('button', { name: 'Close' }).click();
      await page.locator('#adminmenuwrap').waitFor({ state: 'visible' });

      // "Open full admin": svc's /admin for the same workspace, in a new tab, its sign-in prefilled
      const [full] = await Promise.all([context.waitForEvent('page'), frame.getByRole('button', { name: 'Open full admin' }).click()]);
      await full.waitForLoadState();
      expect(full.url()).toBe(`${env.appUrl}/admin?workspace=${SLUG}`);
      expect(await full.getByLabel('Workspace').inputValue()).toBe(SLUG);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('window mode: the setting turns the Bookings page into a button that opens the panel in its own window', async () => {
    const { page } = admin;
    await page.goto(settingsUrl());
    await page.getByLabel('Open the panel in a new window').check();
    await Promise.all([page.waitForURL(/page=svc-booking$/), page.getByRole('button', { name: 'Save' }).click()]);
    expect(await notice(page).textContent()).toBe('Settings saved.');
    expect((await options()).svc_booking_open_in_window!.value).toBe('1');
    await page.goto(panelUrl());
    expect(await page.evaluate(() => (window as any).svcBookingPanel.mode)).toBe('window');
    expect(await page.locator('#svc-booking-panel iframe').count()).toBe(0);
    const [opened] = await Promise.all([admin.context.waitForEvent('page'), page.getByRole('button', { name: 'Open the admin panel' }).click()]);
    await opened.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    await opened.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    expect(new URL(opened.url()).origin).toBe(env.appUrl);
    await shot(page, 'bookings-window-mode-1280');
    await opened.close();

    await page.goto(settingsUrl());
    await page.getByLabel('Open the panel in a new window').uncheck();
    await Promise.all([page.waitForURL(/page=svc-booking$/), page.getByRole('button', { name: 'Save' }).click()]);
    expect((await options()).svc_booking_open_in_window!.value).toBe('0');
  });

  test('disconnect revokes the link on svc (the old credential gets 401) and forgets it here', async () => {
    const { page } = admin;
    const old = (await credential())!;
    await page.goto(settingsUrl());
    await Promise.all([page.waitForURL(/page=svc-booking$/), page.getByRole('button', { name: 'Disconnect' }).click()]);
    expect(await notice(page).textContent()).toBe("Disconnected. svc no longer accepts this site's credential.");
    expect(await page.getByLabel('Pairing code').count()).toBe(1);
    expect(await credential()).toBeUndefined();
    expect((await options()).svc_booking_linked_origin).toBeUndefined();

    const bootstrap = await fetch(`${env.appUrl}/api/integrations/wordpress/panel/bootstrap`, {
      method: 'POST',
      headers: { authorization: `SvcHost ${old}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: SLUG, origin: env.wpOrigin, subject: '1', role: 'ADMIN', capabilities: [] }),
    });
    expect(bootstrap.status).toBe(401);

    const refused = await admin.context.request.post(`${env.wpUrl}/wp-json/svc-booking/v1/bootstrap`, {
      headers: { 'X-WP-Nonce': await restNonce(admin.context) },
    });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).code).toBe('svc_booking_not_connected');
    await page.goto(panelUrl());
    expect(await page.locator('.svc-booking-panel-wrap .notice-warning').textContent()).toContain('This site is not connected to svc yet.');
  });

  test('a Connect form left open in another tab and posted with a wrong code after the site connected changes nothing: the credential goes to the linked svc only', async () => {
    const other = otherServer();
    const stale = await admin.context.newPage();
    try {
      await stale.goto(settingsUrl());
      await connect(admin.page, { server: env.appUrl, slug: SLUG, code: await env.pairingCode() });
      const before = await options();
      expect(before.svc_booking_host_credential).toBeDefined();

      await stale.getByLabel('Server address').fill(other.url);
      await stale.getByLabel('Workspace slug').fill('other-shop');
      await stale.getByLabel('Pairing code').fill('svc_pair_wrong');
      await Promise.all([stale.waitForURL(/options-general\.php\?page=svc-booking(&|$)/), stale.getByRole('button', { name: 'Connect' }).click()]);
      expect(await notice(stale).textContent()).toBe('svc refused: invalid pairing code (UNAUTHORIZED)');
      expect(await options()).toEqual(before);
      expect(await stale.locator('.svc-booking-status').textContent()).toContain(`Connected to the workspace ${SLUG} on ${env.appUrl} as ${env.wpOrigin}.`);

      // the Bookings page's bootstrap still goes to the linked svc, and the other server never saw the credential
      const issued = await admin.context.request.post(`${env.wpUrl}/wp-json/svc-booking/v1/bootstrap`, {
        headers: { 'X-WP-Nonce': await restNonce(admin.context) },
      });
      expect(issued.status()).toBe(201);
      expect(other.requests).toEqual([{ method: 'PUT', path: '/api/integrations/wordpress/panel/origin', authorization: 'SvcPair svc_pair_wrong' }]);
    } finally {
      await stale.close();
      other.stop();
    }
  });

  test('uninstalling revokes the link on svc (the credential gets 401) and removes every option and transient of the plugin', async () => {
    // still connected by the test above
    const old = (await credential())!;
    expect(old).toBeDefined();
    // a pending notice (a transient) too
    await env.php(`set_transient( 'svc_booking_notice_1', array( 'type' => 'info', 'message' => 'left over' ), 300 ); return true;`);
    const before = Object.keys(await options());
    expect(before).toContain('_transient_svc_booking_notice_1');
    const remaining = await env.php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      deactivate_plugins( 'svc-booking/svc-booking.php' );
      uninstall_plugin( 'svc-booking/svc-booking.php' );
      global $wpdb;
      return $wpdb->get_col( "SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE '%svc\\\\_booking%'" );`);
    expect(remaining).toEqual([]);
    const bootstrap = await fetch(`${env.appUrl}/api/integrations/wordpress/panel/bootstrap`, {
      method: 'POST',
      headers: { authorization: `SvcHost ${old}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: SLUG, origin: env.wpOrigin, subject: '1', role: 'ADMIN', capabilities: [] }),
    });
    expect(bootstrap.status).toBe(401);
  });

  test('WordPress logged no PHP notice, warning or error from the plugin', () => {
    expect(
      env
        .debugLog()
        .split('\n')
        .filter((line) => line.includes('svc-booking')),
    ).toEqual([]);
  });
});
