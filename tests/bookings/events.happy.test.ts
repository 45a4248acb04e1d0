import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, setWorkspace, tuesday } from './fixtures.ts';

/** The webhook body of docs/contract/events.md, with the Booking JSON exactly as the API returned it. */
const event = (type: string, timestamp: string, booking: unknown) => ({ type, timestamp, data: { workspace: 'acme', booking } });

describeEachAdapter('booking events (outbox)', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    ({ service } = await catalogue(app));
  });
  afterEach(() => app.close());

  const create = (time: string) => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time)) });
  const act = (id: string, action: string, body?: unknown) =>
    app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/${action}`, { key: app.apiKey, body });

  test('every move writes its event: created, confirmed, rescheduled, completed; cancelled', async () => {
    const webhook = await addWebhook(app, []);
    await setWorkspace(app, { requiresConfirmation: true });
    const created = (await create('10:00')).body.booking;
    app.clock.set('2026-11-23T08:05:00.000Z');
    const confirmed = (await act(created.id, 'confirm')).body.booking;
    app.clock.set('2026-11-23T08:10:00.000Z');
    const rescheduled = (await act(created.id, 'reschedule', { date: tuesday('11:00') })).body.booking;
    app.clock.set(tuesday('11:30'));
    const completed = (await act(created.id, 'complete')).body.booking;
    app.clock.set(tuesday('11:31'));
    const other = (await create('15:00')).body.booking;
    app.clock.set(tuesday('11:32'));
    const cancelled = (await act(other.id, 'cancel', { reason: 'no time' })).body.booking;

    const messages = await outbox(app);
    expect(messages.map((message) => [message.webhookId, message.eventType, message.workspaceId, message.status])).toEqual([
      [webhook.id, 'booking.created', app.workspace.id, 'pending'],
      [webhook.id, 'booking.confirmed', app.workspace.id, 'pending'],
      [webhook.id, 'booking.rescheduled', app.workspace.id, 'pending'],
      [webhook.id, 'booking.completed', app.workspace.id, 'pending'],
      [webhook.id, 'booking.created', app.workspace.id, 'pending'],
      [webhook.id, 'booking.cancelled', app.workspace.id, 'pending'],
    ]);
    expect(messages.map((message) => message.parsed)).toEqual([
      event('booking.created', '2026-11-23T08:00:00.000Z', created),
      event('booking.confirmed', '2026-11-23T08:05:00.000Z', confirmed),
      event('booking.rescheduled', '2026-11-23T08:10:00.000Z', rescheduled),
      event('booking.completed', '2026-11-24T10:30:00.000Z', completed),
      event('booking.created', '2026-11-24T10:31:00.000Z', other),
      event('booking.cancelled', '2026-11-24T10:32:00.000Z', cancelled),
    ]);
    expect(created.status).toBe('PENDING');
    expect(rescheduled.startTime).toBe('2026-11-24T10:00:00.000Z');
    expect(messages[0]!.body).toBe(JSON.stringify(event('booking.created', '2026-11-23T08:00:00.000Z', created)));
  });

  test('a webhook receives only the event types it subscribed to', async () => {
    const all = await addWebhook(app, []);
    const confirmedOnly = await addWebhook(app, ['booking.confirmed']);
    await setWorkspace(app, { requiresConfirmation: true });
    const created = (await create('10:00')).body.booking;
    app.clock.set('2026-11-23T08:01:00.000Z');
    const confirmed = (await act(created.id, 'confirm')).body.booking;
    const messages = await outbox(app);
    expect(messages.filter((message) => message.webhookId === all.id).map((message) => message.eventType)).toEqual(['booking.created', 'booking.confirmed']);
    expect(messages.filter((message) => message.webhookId === confirmedOnly.id).map((message) => message.parsed)).toEqual([
      event('booking.confirmed', '2026-11-23T08:01:00.000Z', confirmed),
    ]);
  });

  test('refused requests write no event', async () => {
    await addWebhook(app, []);
    const created = (await create('10:00')).body.booking;
    await outbox(app);
    expect((await create('10:00')).status).toBe(409);
    expect((await act(created.id, 'confirm')).status).toBe(409);
    expect((await act(created.id, 'complete')).status).toBe(409);
    expect((await act(created.id, 'reschedule', { date: tuesday('20:00') })).status).toBe(409);
    expect(await outbox(app)).toEqual([]);
  });
});
