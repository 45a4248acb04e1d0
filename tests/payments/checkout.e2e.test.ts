import { sha256Hex } from '../../src/core/secrets.ts';
import { afterEach, expect, test } from 'bun:test';
import { withoutContactData } from '../../src/features/bookings/demo-view.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createApiKey } from '../../src/features/workspaces/service.ts';
import { freePort, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, describeEachAdapter } from '../support/storage.ts';
import { startReceiver, verify } from '../webhooks/support.ts';

/*
 * `SVC_PAYMENTS=test svc serve` over HTTP, as a person would try it: book a paid service of the demo workspace
 * without a key, open the checkoutUrl, press Pay, and see the booking confirmed, with payment.received and
 * booking.confirmed delivered (signed) to a webhook.
 */

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

describeEachAdapter('svc serve with SVC_PAYMENTS=test', (adapter) => {
  test('a keyless demo booking of a paid service is paid on the hosted checkout page and confirmed; the webhook gets payment.received and booking.confirmed', async () => {
    const db = await createTestDatabase(adapter);
    cleanup.push(() => db.drop());
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const server: ServeProcess = await startServe({
      port,
      env: { ...db.env, SVC_PAYMENTS: 'test', SVC_PUBLIC_URL: url, SVC_WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'info' },
    });
    cleanup.push(() => server.stop());
    const receiver = startReceiver();
    cleanup.push(() => receiver.stop());

    const api = async (method: string, path: string, options: { key?: string; body?: unknown } = {}) => {
      const response = await fetch(`${url}/api/v1/workspaces/demo${path}`, {
        method,
        headers: { ...(options.key ? { 'x-svc-api-key': options.key } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    // The operator's side: a key for the demo workspace (as `svc apikey create` makes) and a webhook.
    const demo = (await db.storage.getWorkspaceBySlug('demo'))!;
    const key = await createApiKey({ storage: db.storage, clock: systemClock }, demo.id, 'e2e');
    const hook = await api('POST', '/webhooks', { key, body: { url: receiver.url, events: ['booking.created', 'payment.received', 'booking.confirmed'] } });
    expect(hook.status).toBe(200);

    // The customer's side, keyless: the demo haircut (35 EUR), the first free slot.
    const haircut = (await api('GET', '/services')).body.services.find((service: { name: string }) => service.name === 'Haircut');
    expect(haircut).toMatchObject({ price: 35, currency: 'EUR' });
    const today = Temporal.Now.plainDateISO('Europe/Berlin');
    const days = await api('GET', `/availability/days?serviceId=${haircut.id}&from=${today.add({ days: 1 })}&to=${today.add({ days: 14 })}`);
    const day = Temporal.PlainDate.from(days.body.days[0]);
    const slots = await api('GET', `/availability?serviceId=${haircut.id}&date=${day}`);
    const start = day
      .toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: Temporal.PlainTime.from(slots.body.slots[0]) })
      .toInstant()
      .toString();
    const created = await api('POST', '/bookings', { body: { serviceId: haircut.id, email: 'ada@example.com', name: 'Ada', date: start } });
    expect(created.status).toBe(200);
    expect(created.body.booking).toMatchObject({ status: 'PENDING', amount: 35, serviceName: 'Haircut', startTime: new Date(start).toISOString() });
    expect(created.body.checkoutUrl).toMatch(new RegExp(`^${url}/checkout/chk_[A-Za-z0-9_-]{32}$`));
    const checkoutUrl: string = created.body.checkoutUrl;

    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<header><p>Demo Hair &amp; Wellness</p></header>');
    expect(html).toContain('<link rel="stylesheet" href="/svc-brand/0f766e.css">');
    expect(await (await fetch(`${url}/svc-brand/0f766e.css`)).text()).toContain('--brand:#0f766e');
    expect(html).toContain('<dt>Service</dt><dd>Haircut</dd>');
    expect(html).toContain(`<dt>Time</dt><dd>${slots.body.slots[0]} (Europe/Berlin)</dd>`);
    expect(html).toContain('<dt>Amount</dt><dd>€35.00</dd>');
    const path = new URL(checkoutUrl).pathname;
    expect(html).toContain(`<form method="post" action="${path}/pay">`);

    // Pressing Pay: the browser posts the empty form and follows the 303.
    const paid = await fetch(`${url}${path}/pay`, { method: 'POST', body: new URLSearchParams(), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${path}/done`);
    const done = await fetch(`${url}${path}/done`);
    expect(await done.text()).toContain('<h1>Booking confirmed</h1>');

    // A keyless read of the demo workspace hides the visitor's contact data (docs/contract/widget.md); webhooks carry it.
    const booking = {
      ...created.body.booking,
      status: 'CONFIRMED',
      awaitingPayment: false,
      payment: { ...created.body.booking.payment, paid: 35, due: 0, status: 'paid' },
    };
    expect((await api('GET', `/bookings/${created.body.booking.id}`)).body.booking).toEqual(withoutContactData(booking));

    const receipts = await receiver.waitFor(3, 15_000);
    const bodies = receipts.map((receipt) => verify(hook.body.webhook.secret, receipt) as any);
    expect(bodies.map((body) => body.type).sort()).toEqual(['booking.confirmed', 'booking.created', 'payment.received']);
    const received = bodies.find((body) => body.type === 'payment.received');
    expect(received.data).toEqual({
      workspace: 'demo',
      booking,
      payment: { amount: 35, currency: 'EUR', provider: 'test', reference: sha256Hex(path.split('/')[2]!) },
    });
    expect(bodies.find((body) => body.type === 'booking.confirmed').data).toEqual({ workspace: 'demo', booking });
    expect(received.timestamp).toBe(bodies.find((body) => body.type === 'booking.confirmed').timestamp);
    // the outbox wrote payment.received before booking.confirmed
    const ids = Object.fromEntries(receipts.map((receipt, index) => [bodies[index].type, receipt.id]));
    const messages = await Promise.all([ids['payment.received'], ids['booking.confirmed']].map((id) => db.storage.getMessage(id!)));
    expect(messages[0]!.createdAt).toBe(messages[1]!.createdAt);
    expect(messages[0]!.id < messages[1]!.id).toBe(true);
  });
});
