/*
 * Typed calls through a client generated from the served OpenAPI document (tests/api/openapi-client.test.ts).
 * `./schema.ts` exists only in the test's scratch directory: openapi-typescript writes it there from
 * /api/v1/openapi.json, `tsc --noEmit` checks this file against it, then the test runs `exercise` against the app.
 */
import createClient from 'openapi-fetch';
import type { components, paths, webhooks } from './schema.ts';

type Schemas = components['schemas'];

/** Does each call of the brief once, and the wrong calls too, so the test can see what the server answered. */
export async function exercise(fetch: (request: Request) => Promise<Response>, slug: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl: 'http://localhost/api/v1', fetch, headers: { 'x-svc-api-key': apiKey } });
  const path = { slug };

  const provider = await client.POST('/workspaces/{slug}/providers', { params: { path }, body: { name: 'Grace' } });
  const service = await client.POST('/workspaces/{slug}/services', {
    params: { path },
    body: { name: 'Haircut', duration: 30, price: 0, currency: 'EUR', providerIds: [provider.data?.provider.id ?? ''] },
  });
  const serviceId: string = service.data?.service.id ?? '';

  const created = await client.POST('/workspaces/{slug}/bookings', {
    params: { path },
    body: { serviceId, email: 'ada@example.com', name: 'Ada', date: '2026-11-24T10:00:00+01:00' },
  });
  const booking: Schemas['Booking'] | undefined = created.data?.booking;
  const status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED' | undefined = booking?.status;

  const listed = await client.GET('/workspaces/{slug}/bookings', {
    params: { path, query: { status: 'CONFIRMED', from: '2026-11-24T00:00:00Z', limit: 10 } },
  });
  const nextCursor: string | null | undefined = listed.data?.nextCursor;

  const patched = await client.PATCH('/workspaces/{slug}/services/{serviceId}', {
    params: { path: { slug, serviceId } },
    body: { price: 40, active: true },
  });

  const webhook = await client.POST('/workspaces/{slug}/webhooks', {
    params: { path },
    body: { url: 'http://127.0.0.1:9/hooks/svc', events: ['booking.created', 'booking.cancelled'] },
  });
  const secret: string | undefined = webhook.data?.webhook.secret;

  // @ts-expect-error `date` is required: a client that types this body as anything catches the mistake here
  const missingDate = await client.POST('/workspaces/{slug}/bookings', { params: { path }, body: { serviceId, email: 'ada@example.com' } });
  const errorCode: Schemas['Error']['code'] | undefined = missingDate.error?.code;

  const wrongStatus = await client.GET('/workspaces/{slug}/bookings', {
    // @ts-expect-error `status` is one of the four booking statuses
    params: { path, query: { status: 'DONE' } },
  });

  return {
    service: service.response.status,
    created: { status: created.response.status, bookingStatus: status, checkoutUrl: created.data?.checkoutUrl ?? null },
    listed: { status: listed.response.status, ids: listed.data?.bookings.map((item) => item.id) ?? [], nextCursor },
    patched: { status: patched.response.status, price: patched.data?.service.price },
    webhook: { status: webhook.response.status, secretPrefix: secret?.slice(0, 6), events: webhook.data?.webhook.events },
    missingDate: { status: missingDate.response.status, code: errorCode },
    wrongStatus: { status: wrongStatus.response.status, code: wrongStatus.error?.code },
    bookingId: booking?.id,
  };
}

/** A receiver's view of an event body: the `webhooks` section types what svc POSTs. */
export function bookingOfEvent(body: webhooks['booking.created']['post']['requestBody']['content']['application/json']): string {
  return `${body.data.workspace}/${body.data.booking.id} ${body.type}`;
}
