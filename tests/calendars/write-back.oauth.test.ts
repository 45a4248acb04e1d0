import { afterEach, beforeEach, expect, test } from 'bun:test';
import { calendarConnector } from '../../adapters/calendar/index.ts';
import { googleEventId } from '../../adapters/calendar/google/index.ts';
import { createCalendarWriter } from '../../src/features/bookings/index.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { bookingBody, catalogue, setWorkspace, tuesday } from '../bookings/fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type OAuthStandIn, type StandInKind, startOAuthStandIn } from '../support/oauth-calendars.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * The booking write-back into Google Calendar and Microsoft 365 (docs/contract/calendars.md §7), through their
 * stand-ins, on both databases: created tentative while PENDING, updated on confirm and reschedule, deleted on
 * cancel; and an insert stored but not answered in time, retried by the outbox, leaves one event.
 */

const PUBLIC_URL = 'https://svc.example.com';

const settingsOf = (standIn: OAuthStandIn) =>
  standIn.kind === 'google'
    ? {
        SVC_GOOGLE_CLIENT_ID: standIn.clientId,
        SVC_GOOGLE_CLIENT_SECRET: standIn.clientSecret,
        SVC_GOOGLE_OAUTH_URL: standIn.url,
        SVC_GOOGLE_API_URL: standIn.url,
      }
    : {
        SVC_MICROSOFT_CLIENT_ID: standIn.clientId,
        SVC_MICROSOFT_CLIENT_SECRET: standIn.clientSecret,
        SVC_MICROSOFT_LOGIN_URL: standIn.url,
        SVC_MICROSOFT_GRAPH_URL: standIn.url,
      };

for (const kind of ['google', 'microsoft'] as StandInKind[]) {
  describeEachAdapter(`${kind} write-back`, (adapter) => {
    let t: TestApp;
    let standIn: OAuthStandIn;
    let provider: ProviderRecord;
    let service: ServiceRecord;
    const calendars = () => `/api/v1/workspaces/acme/providers/${provider.id}/calendars`;
    const bookings = '/api/v1/workspaces/acme/bookings';
    const uidOf = (id: string) => `${id}@svc.example.com`;
    const studio = () => [...standIn.calendars.values()].find((calendar) => calendar.name === 'Studio')!;
    const live = () => [...studio().events.values()].filter((event) => !event.deleted && event.status !== 'cancelled');
    /** the writer, with a short request time limit so that a stalled insert times out */
    const writer = () =>
      createCalendarWriter({
        storage: t.deps.storage,
        config: t.deps.config,
        clock: t.clock,
        logger: silentLogger,
        owner: 'test',
        calendars: calendarConnector({
          allowPrivate: true,
          timeoutMs: 300,
          now: () => t.clock.now(),
          ...(kind === 'google'
            ? { google: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, oauthUrl: standIn.url, apiUrl: standIn.url } }
            : {
                microsoft: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, tenant: 'common', loginUrl: standIn.url, graphUrl: standIn.url },
              }),
        }),
      });
    const book = async (time: string) => {
      const response = await t.request('POST', bookings, { key: t.apiKey, body: bookingBody(service, tuesday(time)) });
      expect(response.status).toBe(200);
      return response.body.booking as { id: string; status: string };
    };
    const act = async (id: string, action: string, body?: unknown) =>
      expect((await t.request('POST', `${bookings}/${id}/${action}`, { key: t.apiKey, body })).status).toBe(200);

    beforeEach(async () => {
      standIn = startOAuthStandIn(kind);
      t = await createTestApp(adapter, { config: { SVC_PUBLIC_URL: PUBLIC_URL, SVC_WEBHOOK_RETRY_SCHEDULE: '1,1', ...settingsOf(standIn) } });
      ({ provider, service } = await catalogue(t));
      const created = await t.request('POST', calendars(), { key: t.apiKey, body: { kind } });
      const consent = await fetch(created.body.authorizeUrl, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location')!);
      expect((await t.request('GET', back.pathname + back.search)).status).toBe(200);
      const id = created.body.connection.id;
      const chosen = await t.request('PATCH', `${calendars()}/${id}`, { key: t.apiKey, body: { calendars: [{ id: studio().id, writes: true }] } });
      expect(chosen.status).toBe(200);
    }, 30_000);
    afterEach(async () => {
      await t.close();
      standIn.stop();
    });

    test('created tentative while PENDING, updated on confirm and reschedule, deleted on cancel', async () => {
      await setWorkspace(t, { requiresConfirmation: true });
      const booking = await book('10:00');
      const run = writer();
      expect(await run.runOnce()).toBe(1);
      expect(live()).toHaveLength(1);
      if (kind === 'google')
        expect(live()[0]).toMatchObject({
          id: googleEventId(uidOf(booking.id)),
          iCalUID: uidOf(booking.id),
          status: 'tentative',
          summary: 'Haircut · Mia Schneider',
          sequence: 0,
        });
      else expect(live()[0]).toMatchObject({ transactionId: uidOf(booking.id), showAs: 'tentative', subject: 'Haircut · Mia Schneider' });

      // Read back by the sync, svc's own event never blocks.
      const [connection] = (await t.request('GET', calendars(), { key: t.apiKey })).body.connections;
      expect((await t.request('POST', `${calendars()}/${connection.id}/sync`, { key: t.apiKey })).body.connection.status).toBe('ok');
      expect(
        (await t.deps.storage.busyTimesFor([provider.id], 0, Date.parse('2030-01-01T00:00:00Z'))).filter((busy) => busy.uid === uidOf(booking.id)),
      ).toEqual([]);

      await act(booking.id, 'confirm');
      expect(await run.runOnce()).toBe(1);
      expect(live()).toHaveLength(1);
      expect(live()[0]).toMatchObject(kind === 'google' ? { status: 'confirmed', sequence: 1 } : { showAs: 'busy' });

      await act(booking.id, 'reschedule', { date: tuesday('14:00') });
      expect(await run.runOnce()).toBe(1);
      expect(live()).toHaveLength(1);
      const start = live()[0]!.start as { dateTime: string };
      expect(Date.parse(kind === 'google' ? start.dateTime : `${start.dateTime.replace(/\.0+$/, '')}Z`)).toBe(Date.parse(tuesday('14:00')));

      await act(booking.id, 'cancel');
      expect(await run.runOnce()).toBe(1);
      expect(live()).toHaveLength(0);
    });

    test('an insert stored but not answered in time is retried after its back-off and updates the one event', async () => {
      const booking = await book('10:00');
      const run = writer();
      standIn.stallNextInsert(1_500);
      expect(await run.runOnce()).toBe(1);
      expect(await t.deps.storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'pending', attempts: 1 });
      expect(live()).toHaveLength(1);
      t.clock.advance(1_200);
      expect(await run.runOnce()).toBe(1);
      expect(await t.deps.storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'done', attempts: 0 });
      expect(live()).toHaveLength(1);
      expect(live()[0]).toMatchObject(
        kind === 'google' ? { iCalUID: uidOf(booking.id), status: 'confirmed' } : { transactionId: uidOf(booking.id), showAs: 'busy' },
      );
    });
  });
}
