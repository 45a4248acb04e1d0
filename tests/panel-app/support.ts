import { expect } from 'bun:test';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { PanelBrowserEnv } from '../panel/panel-browser-env.ts';

/** Polls `check` until it holds (a condition, not a sleep); fails with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** A v1 call with the workspace's API key; the parsed body and the status. */
export async function api<T = any>(
  env: PanelBrowserEnv,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${env.appUrl}/api/v1/workspaces/acme${path}`, {
    method,
    headers: { 'x-svc-api-key': env.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The first bookable day (from tomorrow on) and its slots for a service. */
export async function freeDay(env: PanelBrowserEnv, serviceId: string, after = 1): Promise<{ day: string; slots: string[] }> {
  // days in the workspace's zone: between 23:00 and 24:00 UTC Berlin is already on the next day
  const today = Temporal.Now.plainDateISO('Europe/Berlin');
  const from = today.add({ days: after }).toString();
  const to = today.add({ days: after + 20 }).toString();
  const days = await api<{ days: string[] }>(env, 'GET', `/availability/days?serviceId=${serviceId}&from=${from}&to=${to}`);
  expect(days.status).toBe(200);
  const day = days.body.days[0]!;
  const slots = await api<{ slots: string[] }>(env, 'GET', `/availability?serviceId=${serviceId}&date=${day}`);
  return { day, slots: slots.body.slots };
}

/** `2026-11-25T09:00:00+01:00`: a Berlin wall time in November/December (standard time, +01:00). */
export const berlin = (day: string, time: string) => `${day}T${time}:00+01:00`;

/** The catalogue the tests work on: a paid haircut and a free consultation, both offered by Anna; PENDING and CONFIRMED bookings. */
export interface Seeded {
  haircut: string;
  consultation: string;
  anna: string;
  pending: string;
  confirmed: string;
  day: string;
}

export async function seed(env: PanelBrowserEnv): Promise<Seeded> {
  const haircut = await api(env, 'POST', '/services', { name: 'Haircut', duration: 30, price: 35, currency: 'EUR' });
  const consultation = await api(env, 'POST', '/services', { name: 'Consultation', duration: 30, price: 0, currency: 'EUR' });
  expect([haircut.status, consultation.status]).toEqual([200, 200]);
  const anna = await api(env, 'POST', '/providers', {
    name: 'Anna Schmidt',
    email: 'anna@example.com',
    serviceIds: [haircut.body.service.id, consultation.body.service.id],
  });
  expect(anna.status).toBe(200);
  expect((await api(env, 'PATCH', '', { requiresConfirmation: true })).status).toBe(200);
  expect((await api(env, 'POST', '/custom-fields', { key: 'allergies', label: 'Any allergies?', type: 'text' })).status).toBe(200);
  const { day, slots } = await freeDay(env, consultation.body.service.id);
  // a keyless booking of a free service from the linked site is PENDING until confirmed
  const pending = await api(
    env,
    'POST',
    '/bookings',
    {
      serviceId: consultation.body.service.id,
      email: 'mia@example.com',
      name: 'Mia Weber',
      date: berlin(day, slots[0]!),
      customFields: {},
    },
    { 'x-svc-api-key': '', origin: env.hostUrl },
  );
  expect(pending.status).toBe(200);
  expect(pending.body.booking.status).toBe('PENDING');
  expect((await api(env, 'PATCH', '', { requiresConfirmation: false })).status).toBe(200);
  const confirmed = await api(env, 'POST', '/bookings', {
    serviceId: haircut.body.service.id,
    email: 'leo@example.com',
    name: 'Leo Fischer',
    phone: '+49 30 1234567',
    date: berlin(day, slots[4]!),
    customFields: { allergies: 'Lavender oil' },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.booking.status).toBe('CONFIRMED');
  return {
    haircut: haircut.body.service.id,
    consultation: consultation.body.service.id,
    anna: anna.body.provider.id,
    pending: pending.body.booking.id,
    confirmed: confirmed.body.booking.id,
    day,
  };
}

/** A host page mounting the panel with every callback recorded in `window.hostEvents`. */
export function hostPage(appUrl: string, section = 'dashboard', capabilities?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host admin</title></head>
<body style="margin:0"><div id="svc-panel"></div>
<script src="${appUrl}/svc-panel-host.js"></script>
<script>
window.hostEvents = [];
window.panel = SvcPanelHost.mount({
  container: document.getElementById('svc-panel'), panelOrigin: ${JSON.stringify(appUrl)},
  bootstrapUrl: '/bootstrap${capabilities === undefined ? '' : `?capabilities=${capabilities}`}', section: ${JSON.stringify(section)},
  onChanged: () => hostEvents.push('changed'), onOpenAdmin: (admin) => hostEvents.push('open-admin:' + admin.url),
  onFocusMode: (enabled) => hostEvents.push('focus-mode:' + enabled),
  onSelectLogo: async () => { hostEvents.push('select-logo'); return 'https://cdn.example.com/logo.png'; },
  onError: (error) => hostEvents.push('error: ' + error.message),
});
</script></body></html>`;
}

export const hostEvents = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).hostEvents as string[]);

/** Signs in at the standalone /admin with slug and API key. */
export async function signIn(env: PanelBrowserEnv, page: Page, key = env.apiKey) {
  await page.goto(`${env.appUrl}/admin`);
  await page.getByLabel('Workspace').fill('acme');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
}

/** Opens a section from the navigation and waits until its content (not its loading state) shows. */
export async function go(where: Page | Frame | FrameLocator, title: string) {
  await where.getByRole('navigation').getByRole('button', { name: title, exact: true }).click();
  await where.getByRole('heading', { level: 2, name: title }).waitFor();
  await until(`${title} to load`, async () => (await where.locator('main [role=status]').filter({ hasText: 'Loading' }).count()) === 0);
}

/** `Friday, 27 November` as the panel names a day (en) */
export const longDay = (day: string) =>
  new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${day}T12:00:00Z`));

/** In the Calendar section: "Next week" as many times as Mondays lie between this week (in Berlin) and `day`'s, each week shown before the next click. */
export async function showWeekOf(where: Page | FrameLocator, day: string) {
  const mondayOf = (of: string) => {
    const noon = new Date(`${of}T12:00:00Z`);
    return new Date(noon.getTime() - ((noon.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const weeks = Math.round((Date.parse(mondayOf(day)) - Date.parse(mondayOf(today))) / (7 * 86_400_000));
  for (let week = 1; week <= weeks; week++) {
    await where.getByRole('button', { name: 'Next week' }).click();
    const monday = new Date(Date.parse(mondayOf(today)) + week * 7 * 86_400_000).toISOString().slice(0, 10);
    await where.getByRole('region', { name: `Week: ${longDay(monday)}` }).waitFor();
  }
}
