import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { openWaitlistToken } from '../../src/features/bookings/index.ts';
import { WaitlistEvent } from '../../src/features/webhooks/model.ts';
import { tendWaitlists } from '../../src/scheduler/jobs.ts';
import { sendWaitlistOffers } from '../../src/features/mail/index.ts';
import type { OutgoingMail } from '../../src/ports/mail.ts';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, addWebhook, bookingBody, outbox, setWorkspace, tuesday } from '../bookings/fixtures.ts';

/*
 * Waiting lists (docs/contract/classes.md §2–3): joining a full time, the offer when a seat frees (held, counted
 * as taken), claiming it through the link's JSON twin and page, and a lapsed hold passing to the next in line.
 */
describeEachAdapter('waiting lists', (adapter) => {
  let app: TestApp;
  let yoga: ServiceRecord;
  let anna: ProviderRecord;
  const TEN = tuesday('10:00');

  beforeEach(async () => {
    app = await createTestApp(adapter);
    anna = await addProvider(app, { name: 'Anna' });
    yoga = await addService(app, [anna], { name: 'Yoga', capacity: 2, duration: 60, priceMinor: 0, waitlist: true });
    await setWorkspace(app, { domains: ['shop.example.com'] });
    await addWebhook(app);
  });
  afterEach(() => app.close());

  const book = (email: string) => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(yoga, TEN, { email }) });
  const join = (email: string, overrides: Record<string, unknown> = {}) =>
    app.request('POST', '/api/v1/workspaces/acme/waitlist', {
      headers: { origin: 'https://shop.example.com' },
      body: { serviceId: yoga.id, date: TEN, email, ...overrides },
    });
  const seats = async () => (await app.request('GET', `/api/v1/workspaces/acme/availability?serviceId=${yoga.id}&date=2026-11-24`)).body.seatsLeft['10:00'];
  const entry = async (id: string) => (await app.deps.storage.getWaitlistEntry(app.workspace.id, id))!;
  const tokenOf = async (id: string) => (await openWaitlistToken(await entry(id), app.deps.config.SVC_SECRET))!;

  async function fill() {
    const first = await book('a@example.com');
    const second = await book('b@example.com');
    expect([first.status, second.status]).toEqual([200, 200]);
    return [first.body.booking.id as string, second.body.booking.id as string];
  }

  test('a time with a free seat refuses the list: 409 SLOT_AVAILABLE', async () => {
    const response = await join('w@example.com');
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('SLOT_AVAILABLE');
  });

  test('a time off the grid or past: 409 SLOT_UNAVAILABLE', async () => {
    await fill();
    expect((await join('w@example.com', { date: tuesday('10:20') })).body.code).toBe('SLOT_UNAVAILABLE');
    expect((await join('w@example.com', { date: '2026-11-20T09:00:00Z' })).body.code).toBe('SLOT_UNAVAILABLE');
  });

  test('keyless from a domain not allowed: 403 DOMAIN_NOT_ALLOWED', async () => {
    await fill();
    const response = await app.request('POST', '/api/v1/workspaces/acme/waitlist', {
      headers: { origin: 'https://evil.example.net' },
      body: { serviceId: yoga.id, date: TEN, email: 'w@example.com' },
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('DOMAIN_NOT_ALLOWED');
  });

  test('a full time takes entries; a cancel offers the oldest, holds its seat, and the claim books it', async () => {
    const [firstBooking] = await fill();
    const joined = await join('w1@example.com', { name: 'Wanda' });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({
      success: true,
      entry: { status: 'WAITING', serviceId: yoga.id, providerId: null, date: TEN, customerEmail: 'w1@example.com' },
    });
    expect(joined.body.entry.id).toStartWith('wl_');
    app.clock.advance(1000);
    const second = await join('w2@example.com');
    expect(second.status).toBe(200);

    const listed = await app.request('GET', `/api/v1/workspaces/acme/waitlist?serviceId=${yoga.id}&date=2026-11-24`, { key: app.apiKey });
    expect(listed.body.entries.map((e: { customerEmail: string }) => e.customerEmail)).toEqual(['w1@example.com', 'w2@example.com']);

    const cancelled = await app.request('POST', `/api/v1/workspaces/acme/bookings/${firstBooking}/cancel`, { key: app.apiKey, body: {} });
    expect(cancelled.status).toBe(200);
    const offered = await entry(joined.body.entry.id);
    expect(offered.status).toBe('OFFERED');
    expect(offered.heldProviderId).toBe(anna.id);
    expect(offered.offerExpiresAt).toBe(app.clock.now() + 60 * 60_000);
    expect((await entry(second.body.entry.id)).status).toBe('WAITING');
    // The held seat counts as taken: nobody else can book it.
    expect(await seats()).toBe(0);
    expect((await book('c@example.com')).status).toBe(409);

    const token = await tokenOf(offered.id);
    const viewed = await app.request('GET', `/api/waitlist/${token}`);
    expect(viewed.body).toMatchObject({ success: true, entry: { id: offered.id, status: 'OFFERED', providerId: anna.id } });
    const page = await app.request('GET', `/waitlist/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Book this place');

    const claimed = await app.request('POST', `/api/waitlist/${token}/claim`);
    expect(claimed.status).toBe(200);
    expect(claimed.body.booking).toMatchObject({ status: 'CONFIRMED', customerEmail: 'w1@example.com', customerName: 'Wanda', providerId: anna.id });
    expect((await entry(offered.id)).status).toBe('BOOKED');
    expect((await entry(offered.id)).bookingId).toBe(claimed.body.booking.id);
    expect(await seats()).toBe(0);
    const again = await app.request('POST', `/api/waitlist/${token}/claim`);
    expect(again.status).toBe(409);

    const messages = (await outbox(app)).filter((message) => message.eventType.startsWith('waitlist.'));
    expect(messages.map((message) => message.eventType)).toEqual(['waitlist.joined', 'waitlist.joined', 'waitlist.offered']);
    // The bodies are what the OpenAPI document's webhooks section says they are.
    for (const message of messages) expect(Value.Errors(WaitlistEvent, message.parsed).First()).toBeUndefined();
    expect(messages[2]!.parsed.data.entry).toMatchObject({ id: offered.id, status: 'OFFERED', providerId: anna.id });
  });

  test('a lapsed hold expires within the housekeeping and the next entry is offered', async () => {
    const [firstBooking] = await fill();
    const one = (await join('w1@example.com')).body.entry.id;
    app.clock.advance(1000);
    const two = (await join('w2@example.com')).body.entry.id;
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${firstBooking}/cancel`, { key: app.apiKey, body: {} });
    expect((await entry(one)).status).toBe('OFFERED');
    const lapsedToken = await tokenOf(one);

    app.clock.advance(60 * 60_000);
    await tendWaitlists(app.deps, app.clock.now());
    expect((await entry(one)).status).toBe('EXPIRED');
    expect((await entry(two)).status).toBe('OFFERED');
    expect(await seats()).toBe(0);
    const late = await app.request('POST', `/api/waitlist/${lapsedToken}/claim`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('INVALID_TRANSITION');
    const types = (await outbox(app)).map((message) => message.eventType).filter((type) => type.startsWith('waitlist.'));
    expect(types).toContain('waitlist.expired');
  });

  test('the page claims without JavaScript (a form post) and sends the customer to the booking', async () => {
    const [firstBooking] = await fill();
    const one = (await join('w1@example.com')).body.entry.id;
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${firstBooking}/cancel`, { key: app.apiKey, body: {} });
    const token = await tokenOf(one);
    const posted = await app.request('POST', `/waitlist/${token}/claim`);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toContain('/manage/');
    expect((await entry(one)).status).toBe('BOOKED');
  });

  test('DELETE removes an entry; a removed offer passes its seat on', async () => {
    const [firstBooking] = await fill();
    const one = (await join('w1@example.com')).body.entry.id;
    app.clock.advance(1000);
    const two = (await join('w2@example.com')).body.entry.id;
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${firstBooking}/cancel`, { key: app.apiKey, body: {} });
    const removed = await app.request('DELETE', `/api/v1/workspaces/acme/waitlist/${one}`, { key: app.apiKey });
    expect(removed.status).toBe(200);
    expect(await app.deps.storage.getWaitlistEntry(app.workspace.id, one)).toBeNull();
    expect((await entry(two)).status).toBe('OFFERED');
    expect((await app.request('DELETE', `/api/v1/workspaces/acme/waitlist/${one}`, { key: app.apiKey })).status).toBe(404);
  });

  describe('keyless list and delete', () => {
    test('listing needs a key', async () => {
      expect((await app.request('GET', '/api/v1/workspaces/acme/waitlist')).status).toBe(401);
    });
  });
});

describeEachAdapter('waiting-list offer mail', (adapter) => {
  let app: TestApp;
  afterEach(() => app.close());

  test('an offer is mailed once with its link, in the workspace language', async () => {
    app = await createTestApp(adapter, { config: { SVC_SMTP_URL: 'smtp://127.0.0.1:2525', SVC_MAIL_FROM: 'bookings@example.com' } });
    const anna = await addProvider(app, { name: 'Anna' });
    const yoga = await addService(app, [anna], { name: 'Yoga', capacity: 1, duration: 60, priceMinor: 0, waitlist: true });
    const TEN = tuesday('10:00');
    const booked = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(yoga, TEN) });
    const joined = await app.request('POST', '/api/v1/workspaces/acme/waitlist', {
      key: app.apiKey,
      body: { serviceId: yoga.id, date: TEN, email: 'wanda@example.com', name: 'Wanda' },
    });
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${booked.body.booking.id}/cancel`, { key: app.apiKey, body: {} });
    const sent: OutgoingMail[] = [];
    const transport = { send: async (mail: OutgoingMail) => void sent.push(mail), close: async () => {} };
    expect(await sendWaitlistOffers(app.deps, transport, app.clock.now())).toBe(1);
    expect(await sendWaitlistOffers(app.deps, transport, app.clock.now())).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('wanda@example.com');
    expect(sent[0]!.subject).toContain('A place is free: Yoga');
    const link = /http:\/\/localhost:8080\/waitlist\/([A-Za-z0-9_-]+)/.exec(sent[0]!.text)![1]!;
    const viewed = await app.request('GET', `/api/waitlist/${link}`);
    expect(viewed.body.entry).toMatchObject({ id: joined.body.entry.id, status: 'OFFERED' });
    expect(sent[0]!.html).toContain(`/waitlist/${link}`);
  });
});
