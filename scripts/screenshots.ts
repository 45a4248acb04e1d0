/**
 * `bun scripts/screenshots.ts [area…]`: what a new owner and their customers see, as PNGs under screenshots-tmp/
 * (git-ignored), at 390 and 1280 px wide, in the light and the dark colour scheme, for a person to look through.
 *
 * It starts svc in this process on a temporary libSQL database (test payments, no mail), builds a workspace through
 * the API as a new owner would (services, providers, hours, a custom field, a class with a waiting list), serves a
 * host page on another origin (127.0.0.2) with the widget inline and floating, and drives Debian's Chromium
 * (`/usr/bin/chromium`, or SVC_CHROMIUM) with playwright-core through:
 *   booking/   the hosted booking page /book/{slug}: service, day, time, details, done
 *   widget/    the widget inline and floating on the host page
 *   manage/    the manage page and its confirm step
 *   checkout/  the test checkout page of a paid booking
 *   waitlist/  the offer page /waitlist/{token}
 *   panel/     /admin: a new workspace's dashboard with its first steps, then bookings, a booking, calendar,
 *              services, providers (with calendar connections), hours, settings
 *   docs/      the API reference /api/v1/docs (the first screen)
 * Name areas to capture only those (`bun scripts/screenshots.ts panel docs`). Nothing here asserts: the browser
 * tests do; this is for eyes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ensureWebAssets } from './build-web.ts';

const root = join(import.meta.dir, '..');
const OUT = join(root, 'screenshots-tmp');
const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
const HOST = '127.0.0.2';
const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [390, 1280] as const;
type Scheme = (typeof SCHEMES)[number];
type Width = (typeof WIDTHS)[number];
interface Look {
  scheme: Scheme;
  width: Width;
}

const AREAS = ['booking', 'widget', 'manage', 'checkout', 'waitlist', 'panel', 'docs'] as const;
const wanted = process.argv.slice(2);
const wants = (area: (typeof AREAS)[number]) => wanted.length === 0 || wanted.includes(area);

// the bundles first: the server imports the module they are built into
await ensureWebAssets();
const { libsqlStorage } = await import('../adapters/storage/libsql/index.ts');
const { openPayments } = await import('../adapters/payments/index.ts');
const { memoryRateLimiter } = await import('../adapters/ratelimit/memory.ts');
const { calendarConnector } = await import('../adapters/calendar/index.ts');
const { createApp } = await import('../src/app.ts');
const { parseConfig } = await import('../src/platform/config.ts');
const { systemClock } = await import('../src/core/clock.ts');
const { silentLogger } = await import('../src/platform/logger.ts');
const { createWorkspace } = await import('../src/features/workspaces/index.ts');
const { openWaitlistToken } = await import('../src/features/bookings/index.ts');

const dir = mkdtempSync(join(tmpdir(), 'svc-screenshots-'));
const storage = libsqlStorage(`file:${join(dir, 'svc.db')}`);
await storage.migrate();
const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
const port = probe.port;
probe.stop(true);
const appUrl = `http://127.0.0.1:${port}`;
const config = parseConfig({
  SVC_SECRET: 'screenshots-secret-screenshots-secret-0123456789',
  SVC_DEMO: false,
  SVC_PUBLIC_URL: appUrl,
  SVC_RATE_LIMIT: 100_000,
});
const deps = {
  storage,
  config,
  clock: systemClock,
  logger: silentLogger,
  rateLimiter: memoryRateLimiter(),
  payments: openPayments({ ...config, SVC_PAYMENTS: 'test' }),
  calendars: calendarConnector({ allowPrivate: false }),
};
const { workspace, apiKey } = await createWorkspace(deps, { slug: 'lindenhof', name: 'Studio Lindenhof', timezone: 'Europe/Berlin' });
const app = createApp(deps);
const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => app.handle(request) });

const hostPages = new Map<string, string>();
const host = Bun.serve({
  port: 0,
  hostname: HOST,
  fetch: (request) => {
    const page = hostPages.get(new URL(request.url).pathname);
    return page ? new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }) : new Response('not found', { status: 404 });
  },
});
const hostUrl = `http://${HOST}:${host.port}`;

async function api<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'x-svc-api-key': apiKey }): Promise<T> {
  const response = await fetch(`${appUrl}/api/v1/workspaces/${workspace.slug}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** The host site's page: a short article with the widget, inline or floating. */
function hostPage(position: 'inline' | 'bottom-right'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lindenhof: book online</title>
<style>body{font-family:Georgia,serif;margin:0;padding:24px;max-width:760px;line-height:1.5}@media (prefers-color-scheme: dark){body{background:#202124;color:#eee}}</style></head>
<body><main><h1>Studio Lindenhof</h1><p>Hair, colour and classes in the old town. Book a time below, or call us.</p>
<script src="${appUrl}/svc-widget.min.js" data-slug="${workspace.slug}" data-position="${position}" async></script>
<p>Opening hours: Monday to Saturday. Parking behind the building.</p></main></body></html>`;
}

const browser: Browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const problems: string[] = [];

async function open(look: Look): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: look.width, height: look.width === 390 ? 844 : 900 },
    deviceScaleFactor: 1,
    colorScheme: look.scheme,
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  return { context, page };
}

async function shot(page: Page, area: string, name: string, look: Look, fullPage = true): Promise<void> {
  mkdirSync(join(OUT, area), { recursive: true });
  // no caret blinking or transition half-way in the picture
  await page.screenshot({ path: join(OUT, area, `${name}-${look.scheme}-${look.width}.png`), fullPage, animations: 'disabled', caret: 'hide' });
  const themes = await page.locator('svc-booking').evaluateAll((widgets) => widgets.map((widget) => getComputedStyle(widget).colorScheme));
  if (themes.some((theme) => theme !== look.scheme)) problems.push(`${area}/${name}-${look.scheme}-${look.width}: the widget shows ${themes.join(', ')}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) problems.push(`${area}/${name}-${look.scheme}-${look.width}: ${overflow} px of horizontal overflow`);
}

/** Waits for the panel's loading notes to go; a note still there after 20 s is reported, and the picture taken anyway. */
async function settle(page: Page, what: string): Promise<void> {
  await page
    .locator('main [role=status]', { hasText: 'Loading' })
    .first()
    .waitFor({ state: 'detached', timeout: 20_000 })
    .catch(() => problems.push(`${what}: still loading after 20 s`));
}

const looks: Look[] = SCHEMES.flatMap((scheme) => WIDTHS.map((width) => ({ scheme, width })));
const heading = (scope: Page | Locator, name: string | RegExp) => scope.getByRole('heading', { name }).first().waitFor();

// ---- the catalogue a new owner sets up --------------------------------------------------------------------------

const panelFresh = async (look: Look) => {
  const { context, page } = await open(look);
  await signIn(page);
  await page.getByRole('region', { name: 'First steps' }).waitFor();
  await shot(page, 'panel', '01-dashboard-new', look);
  await context.close();
};

async function signIn(page: Page): Promise<void> {
  await page.goto(`${appUrl}/admin`);
  await page.getByLabel('Workspace').fill(workspace.slug);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: workspace.name }).waitFor();
}

if (wants('panel')) for (const look of looks) await panelFresh(look);

const anna = await api('POST', '/providers', { name: 'Anna Schmidt', email: 'anna@example.com' });
const ben = await api('POST', '/providers', { name: 'Ben Okafor', email: 'ben@example.com' });
const providerIds = [anna.provider.id, ben.provider.id];
const haircut = await api('POST', '/services', {
  name: 'Haircut',
  description: 'Wash, cut and style.',
  duration: 30,
  price: 35,
  currency: 'EUR',
  category: 'Hair',
  providerIds,
});
const consultation = await api('POST', '/services', {
  name: 'Free consultation',
  description: 'Fifteen minutes to plan your next look.',
  duration: 15,
  price: 0,
  currency: 'EUR',
  category: 'Advice',
  providerIds,
  order: 1,
});
const yoga = await api('POST', '/services', {
  name: 'Beginners yoga class',
  description: 'A relaxed group class; mats provided.',
  duration: 60,
  price: 0,
  currency: 'EUR',
  category: 'Classes',
  capacity: 1,
  waitlist: true,
  providerIds: [ben.provider.id],
  order: 2,
});
await api('POST', '/custom-fields', { key: 'notes_for_us', label: 'Anything we should know?', type: 'text', required: false, order: 1 });
const weekday = [
  { start: '09:00', end: '12:30' },
  { start: '13:30', end: '18:00' },
];
await api('PUT', '/schedule', {
  weekly: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ start: '10:00', end: '14:00' }], sun: [] },
  exceptions: [],
});
await api('PATCH', '', { primaryColor: '#0f766e', contactEmail: 'hello@lindenhof.example', contactPhone: '+49 30 1234567' });
await api('PUT', '/domains', { domains: [HOST] });

/** The first day from `after` days on with at least four free times for a service (a weekday), and its times. */
/** A different free time for each look, so that the looks' bookings of one screen never collide. */
async function timeFor(look: Look, serviceId: string, after: number): Promise<string> {
  const { day, slots } = await freeDay(serviceId, after);
  return at(day, slots[WIDTHS.indexOf(look.width) + 2 * SCHEMES.indexOf(look.scheme)]!);
}

async function freeDay(serviceId: string, after = 1): Promise<{ day: string; slots: string[] }> {
  const from = new Date(Date.now() + after * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + (after + 20) * 86_400_000).toISOString().slice(0, 10);
  const { days } = await api<{ days: string[] }>('GET', `/availability/days?serviceId=${serviceId}&from=${from}&to=${to}`);
  for (const day of days) {
    const { slots } = await api<{ slots: string[] }>('GET', `/availability?serviceId=${serviceId}&date=${day}`);
    if (slots.length >= 4) return { day, slots };
  }
  throw new Error(`no day with four free times for ${serviceId} from ${from}`);
}
const at = (day: string, time: string) => Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime('Europe/Berlin').toString({ timeZoneName: 'never' });

// bookings for the panel's lists: confirmed, a request, one awaiting payment
const soon = await freeDay(consultation.service.id);
await api('POST', '/bookings', {
  serviceId: consultation.service.id,
  email: 'mia@example.com',
  name: 'Mia Weber',
  date: at(soon.day, soon.slots[2]!),
  customFields: { notes_for_us: 'First time here' },
});
const paid = await api('POST', '/bookings', {
  serviceId: haircut.service.id,
  email: 'leo@example.com',
  name: 'Leo Fischer',
  phone: '+49 30 7654321',
  date: at(soon.day, soon.slots[6]!),
  customFields: {},
});
const later = await freeDay(consultation.service.id, 3);
const confirmed = await api('POST', '/bookings', {
  serviceId: consultation.service.id,
  email: 'noah@example.com',
  name: 'Noah Becker',
  date: at(later.day, later.slots[1]!),
  customFields: {},
});

// ---- the customer's side -----------------------------------------------------------------------------------------

const widgetIn = (page: Page) => page.locator('svc-booking').first();

async function throughBooking(page: Page, widget: Locator, area: string, look: Look, named: string): Promise<void> {
  await heading(widget, /Choose a service/);
  await shot(page, area, '1-service', look);
  await widget.getByRole('button', { name: /^Free consultation/ }).click();
  await heading(widget, /Choose a day/);
  await widget.locator('.note', { hasText: /Loading/ }).waitFor({ state: 'detached' });
  await widget.locator('button.day.open').first().waitFor();
  await shot(page, area, '2-day', look);
  await widget.locator('button.day.open').first().click();
  await heading(widget, /Choose a time/);
  await widget.locator('button.time').first().waitFor();
  await shot(page, area, '3-time', look);
  const times = widget.locator('button.time');
  await times.nth(Math.min(3 + WIDTHS.indexOf(look.width) + 2 * SCHEMES.indexOf(look.scheme), (await times.count()) - 1)).click();
  await heading(widget, /Your details/);
  await widget.getByLabel(/^Name/).fill(named);
  await widget.getByLabel(/^Email/).fill(`${named.split(' ')[0]!.toLowerCase()}@example.com`);
  await shot(page, area, '4-details', look);
  await widget.locator('form button[type=submit]').click();
  await heading(widget, /Booking confirmed|Booking received/);
  await shot(page, area, '5-done', look);
}

if (wants('booking')) {
  for (const look of looks) {
    const { context, page } = await open(look);
    await page.goto(`${appUrl}/book/${workspace.slug}`);
    await throughBooking(page, widgetIn(page), 'booking', look, `Emma Wagner ${look.scheme} ${look.width}`);
    await context.close();
  }
}

if (wants('widget')) {
  hostPages.set('/inline', hostPage('inline'));
  hostPages.set('/floating', hostPage('bottom-right'));
  for (const look of looks) {
    const { context, page } = await open(look);
    await page.goto(`${hostUrl}/inline`);
    const widget = widgetIn(page);
    await heading(widget, /Choose a service/);
    await shot(page, 'widget', 'inline-1-service', look);
    await widget.getByRole('button', { name: /^Haircut/ }).click();
    await heading(widget, /Choose a day/);
    await widget.locator('button.day.open').first().waitFor();
    await shot(page, 'widget', 'inline-2-day', look);

    await page.goto(`${hostUrl}/floating`);
    const launcher = widgetIn(page).getByRole('button').first();
    await launcher.waitFor();
    await shot(page, 'widget', 'floating-1-closed', look, false);
    await launcher.click();
    await heading(widgetIn(page), /Choose a service/);
    await shot(page, 'widget', 'floating-2-open', look, false);
    await widgetIn(page)
      .getByRole('button', { name: /^Free consultation/ })
      .click();
    await widgetIn(page).locator('button.day.open').first().waitFor();
    await shot(page, 'widget', 'floating-3-day', look, false);
    await context.close();
  }
}

if (wants('manage')) {
  for (const look of looks) {
    const booked = await api('POST', '/bookings', {
      serviceId: consultation.service.id,
      email: 'lea@example.com',
      name: 'Lea Fischer',
      date: await timeFor(look, consultation.service.id, 5),
      customFields: {},
    });
    const { context, page } = await open(look);
    await page.goto(booked.manageUrl);
    await heading(page, 'Your booking');
    await shot(page, 'manage', '1-booking', look);
    await page
      .getByRole('button', { name: /Cancel/ })
      .first()
      .click();
    await page.locator('textarea#reason').waitFor();
    await shot(page, 'manage', '2-confirm-cancel', look);
    await page.goto(booked.manageUrl);
    const time = page.locator('main form button, main a').filter({ hasText: /^\d{1,2}:\d{2}/ });
    if ((await time.count()) > 0) {
      await time.first().click();
      await page.waitForURL(/move=/);
      await shot(page, 'manage', '3-confirm-move', look);
    }
    await context.close();
  }
}

if (wants('checkout')) {
  for (const look of looks) {
    const booked = await api('POST', '/bookings', {
      serviceId: haircut.service.id,
      email: 'jonas@example.com',
      name: 'Jonas Weber',
      date: await timeFor(look, haircut.service.id, 6),
      customFields: {},
    });
    const { context, page } = await open(look);
    await page.goto(booked.checkoutUrl);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shot(page, 'checkout', '1-pay', look);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/done/);
    await shot(page, 'checkout', '2-paid', look);
    await context.close();
  }
}

if (wants('waitlist')) {
  for (const look of looks) {
    const date = await timeFor(look, yoga.service.id, 2);
    const seat = await api('POST', '/bookings', { serviceId: yoga.service.id, email: 'full@example.com', name: 'Full Class', date, customFields: {} });
    const joined = await api('POST', '/waitlist', { serviceId: yoga.service.id, date, email: 'wanda@example.com', name: 'Wanda Roth' }, { origin: hostUrl });
    await api('POST', `/bookings/${seat.booking.id}/cancel`, {});
    const entry = (await storage.getWaitlistEntry(workspace.id, joined.entry.id))!;
    const token = await openWaitlistToken(entry, config.SVC_SECRET);
    const { context, page } = await open(look);
    await page.goto(`${appUrl}/waitlist/${token}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shot(page, 'waitlist', '1-offer', look);
    await page.getByRole('button', { name: /Book this place/ }).click();
    await page.waitForURL(/done=|\/manage\//);
    await shot(page, 'waitlist', '2-claimed', look);
    await context.close();
  }
}

if (wants('panel')) {
  for (const look of looks) {
    const { context, page } = await open(look);
    await signIn(page);
    await settle(page, 'dashboard');
    await shot(page, 'panel', '02-dashboard', look);
    const go = async (title: string, name: string) => {
      const nav = page.getByRole('navigation');
      const menu = nav.getByRole('button', { name: /menu/i });
      if ((await nav.getByRole('button', { name: title, exact: true }).isHidden()) && (await menu.count()) > 0) await menu.first().click();
      await nav.getByRole('button', { name: title, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: title }).waitFor();
      await settle(page, name);
      await shot(page, 'panel', name, look);
    };
    await go('Bookings', '03-bookings');
    await page.goto(`${appUrl}/admin/bookings/${paid.booking.id}`);
    await page.getByText('Leo Fischer').first().waitFor();
    await settle(page, page.url());
    await shot(page, 'panel', '04-booking-awaiting-payment', look);
    await page.goto(`${appUrl}/admin/bookings/${confirmed.booking.id}`);
    await page.getByText('Noah Becker').first().waitFor();
    await settle(page, page.url());
    await shot(page, 'panel', '05-booking-confirmed', look);
    await go('Calendar', '06-calendar');
    await go('Services', '07-services');
    await go('Providers', '08-providers');
    await page
      .getByRole('button', { name: /Anna Schmidt/ })
      .first()
      .click();
    await settle(page, page.url());
    await shot(page, 'panel', '09-provider-anna', look);
    await go('Working hours', '10-hours');
    await go('Custom fields', '11-fields');
    await go('Settings', '12-settings');
    await context.close();
  }
}

if (wants('docs')) {
  for (const look of looks) {
    const { context, page } = await open(look);
    await page.goto(`${appUrl}/api/v1/docs`);
    await page
      .locator('h2', { hasText: /^Get a workspace\s*$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await shot(page, 'docs', '1-top', look, false);
    await page
      .locator('h2', { hasText: /^Book a time/ })
      .first()
      .scrollIntoViewIfNeeded();
    await shot(page, 'docs', '2-book-a-time', look, false);
    await context.close();
  }
}

await browser.close();
host.stop(true);
server.stop(true);
await storage.close();
rmSync(dir, { recursive: true, force: true });
console.log(`screenshots under ${OUT}`);
if (problems.length > 0) console.log(`noticed:\n  ${problems.join('\n  ')}`);
