import { afterEach, beforeEach, expect, test } from 'bun:test';
import ical, { type VEvent } from 'node-ical';
import { createLogger } from '../../src/platform/logger.ts';
import { addProvider, addService, berlin, tuesday } from '../bookings/fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';
import { bearer, embeddedSession, link } from '../panel/support.ts';

/*
 * A provider's calendar feed (docs/contract/notifications.md): POST …/providers/{id}/calendar-feed hands out
 * `{app_url}/ics/{token}.ics`; the feed is an iCalendar document (parsed here with node-ical, as a calendar app
 * would) of the provider's PENDING and CONFIRMED bookings from 30 days back, with the UIDs of the customer's invites.
 */

const PUBLIC_URL = 'https://book.acme.example';
const FEED_URL = /^https:\/\/book\.acme\.example\/ics\/([A-Za-z0-9_-]{43})\.ics$/;
const DAY_MS = 86_400_000;

describeEachAdapter('calendar feed', (adapter) => {
  let app: TestApp;
  let logLines: string[];

  beforeEach(async () => {
    // each test's own array: an earlier test's app may still write its last request lines
    const lines: string[] = [];
    logLines = lines;
    app = await createTestApp(adapter, {
      config: { SVC_PUBLIC_URL: PUBLIC_URL },
      logger: createLogger('debug', (line) => lines.push(line)),
      payments: 'test',
    });
  });
  afterEach(() => app.close());

  /** Alex offers a free consultation (bookings CONFIRMED) and a paid haircut (PENDING until paid); Sam the same. */
  async function catalogue() {
    const alex = await addProvider(app, { name: 'Alex Hoffmann' });
    const sam = await addProvider(app, { name: 'Sam Richter' });
    const consultation = await addService(app, [alex, sam], { name: 'Consultation', priceMinor: 0, duration: 30 });
    const haircut = await addService(app, [alex, sam], { name: 'Haircut', priceMinor: 3550, duration: 60 });
    return { alex, sam, consultation, haircut };
  }

  async function book(serviceId: string, providerId: string, date: string, name: string) {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId, providerId, date, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, name, phone: '+49 30 1234567' },
    });
    expect(response.status).toBe(200);
    return response.body.booking as { id: string; status: string };
  }

  async function newFeed(providerId: string): Promise<{ url: string; path: string }> {
    const response = await app.request('POST', `/api/v1/workspaces/acme/providers/${providerId}/calendar-feed`, { key: app.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, url: expect.stringMatching(FEED_URL) });
    const url = response.body.url as string;
    return { url, path: new URL(url).pathname };
  }

  async function readFeed(path: string) {
    const response = await app.app.handle(new Request(`http://localhost${path}`));
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  const eventsOf = (text: string) =>
    Object.values(ical.sync.parseICS(text))
      .filter((component): component is VEvent => component?.type === 'VEVENT')
      .sort((a, b) => a.start.getTime() - b.start.getTime());

  test("the feed holds the provider's PENDING and CONFIRMED bookings with the invites' UIDs, at their exact instants", async () => {
    const { alex, sam, consultation, haircut } = await catalogue();
    const confirmed = await book(consultation.id, alex.id, tuesday('10:00'), 'Mia Schneider');
    const pending = await book(haircut.id, alex.id, tuesday('14:00'), 'Leo Fischer');
    const cancelled = await book(consultation.id, alex.id, tuesday('16:00'), 'Ida Wolf');
    await book(consultation.id, sam.id, tuesday('10:00'), 'Tom Berg');
    expect([confirmed.status, pending.status]).toEqual(['CONFIRMED', 'PENDING']);
    const cancel = await app.request('POST', `/api/v1/workspaces/acme/bookings/${cancelled.id}/cancel`, { key: app.apiKey, body: { reason: 'ill' } });
    expect(cancel.status).toBe(200);

    const { path } = await newFeed(alex.id);
    const feed = await readFeed(path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('private, max-age=300');
    expect(feed.text).not.toContain('METHOD:');
    expect(feed.text).toContain('DTSTART;TZID=Europe/Berlin:20261124T100000');

    const events = eventsOf(feed.text);
    expect(events.map((event) => event.uid)).toEqual([`${confirmed.id}@book.acme.example`, `${pending.id}@book.acme.example`]);
    expect(events.map((event) => [event.start.toISOString(), event.end?.toISOString()])).toEqual([
      [tuesday('10:00'), tuesday('10:30')],
      [tuesday('14:00'), tuesday('15:00')],
    ]);
    expect(events.map((event) => event.status)).toEqual(['CONFIRMED', 'TENTATIVE']);
    expect(events.map((event) => event.summary)).toEqual(['Consultation · Mia Schneider', 'Haircut · Leo Fischer']);
    expect(String(events[0]!.description)).toContain('mia@example.com');
    expect(String(events[0]!.description)).toContain('+49 30 1234567');
  });

  test('a moved booking keeps its UID with a higher SEQUENCE; bookings older than 30 days drop out', async () => {
    const { alex, consultation } = await catalogue();
    const early = await book(consultation.id, alex.id, tuesday('10:00'), 'Mia Schneider');
    const later = await book(consultation.id, alex.id, berlin('2026-12-29', '11:00'), 'Leo Fischer');
    const moved = await app.request('POST', `/api/v1/workspaces/acme/bookings/${later.id}/reschedule`, {
      key: app.apiKey,
      body: { date: berlin('2026-12-29', '13:00') },
    });
    expect(moved.status).toBe(200);
    const { path } = await newFeed(alex.id);

    const now = eventsOf((await readFeed(path)).text);
    expect(now.map((event) => event.uid)).toEqual([`${early.id}@book.acme.example`, `${later.id}@book.acme.example`]);
    expect(now[1]!.start.toISOString()).toBe(berlin('2026-12-29', '13:00'));
    expect(Number((now[1] as VEvent & { sequence?: string }).sequence)).toBeGreaterThan(Number((now[0] as VEvent & { sequence?: string }).sequence));

    // 31 days after Tuesday's booking it is out of the feed; December's is still in it.
    app.clock.set(Date.parse(tuesday('10:00')) + 31 * DAY_MS);
    const month = eventsOf((await readFeed(path)).text);
    expect(month.map((event) => event.uid)).toEqual([`${later.id}@book.acme.example`]);
  });

  test('a new address replaces the old one: the old answers 404; unknown and malformed addresses 404', async () => {
    const { alex } = await catalogue();
    const first = await newFeed(alex.id);
    const second = await newFeed(alex.id);
    expect(second.url).not.toBe(first.url);
    expect((await readFeed(second.path)).status).toBe(200);
    for (const path of [first.path, '/ics/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics', '/ics/short.ics', second.path.replace('.ics', '')]) {
      const answer = await readFeed(path);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain('BEGIN:VCALENDAR');
    }
    // a path that is not percent-encoding at all is the contract's 400, as on every route
    expect((await readFeed('/ics/%E0%A4%A.ics')).status).toBe(400);
  });

  test('an unknown provider -> 404 NOT_FOUND; a wrong key -> 401; a session without svc_manage_operations -> 403', async () => {
    const unknown = await app.request('POST', '/api/v1/workspaces/acme/providers/prv_unknown/calendar-feed', { key: app.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const { alex } = await catalogue();
    const wrongKey = await app.request('POST', `/api/v1/workspaces/acme/providers/${alex.id}/calendar-feed`, { key: 'svc_live_wrong' });
    expect(wrongKey.status).toBe(401);
    const settingsOnly = await embeddedSession(app, await link(app), ['svc_manage_settings']);
    const refused = await app.request('POST', `/api/v1/workspaces/acme/providers/${alex.id}/calendar-feed`, { headers: bearer(settingsOnly) });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    const operations = await embeddedSession(app, await link(app), ['svc_manage_operations']);
    const made = await app.request('POST', `/api/v1/workspaces/acme/providers/${alex.id}/calendar-feed`, { headers: bearer(operations) });
    expect(made.status).toBe(200);
  });

  test('the feed token is never written to the request log', async () => {
    const { alex } = await catalogue();
    const { url, path } = await newFeed(alex.id);
    expect((await readFeed(path)).status).toBe(200);
    const token = FEED_URL.exec(url)![1]!;
    await waitFor(() => logLines.some((line) => line.includes('/ics/')));
    expect(logLines.filter((line) => line.includes('/ics/')).map((line) => JSON.parse(line).path)).toEqual(['/ics/[redacted]']);
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);
  });
});
