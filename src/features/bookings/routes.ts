import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from '../workspaces/index.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { integerQuery } from '../../platform/http/query.ts';
import { ErrorResponse, keyedPaymentWriteErrors, SlugParams } from '../../core/models.ts';
import { verifyCaptcha } from './captcha.ts';
import { withoutContactData } from './demo-view.ts';
import { requireAnswersObject } from './custom-field-answers.ts';
import {
  BookingCreate,
  BookingCreatedResponse,
  SeriesCancelBody,
  SeriesParams,
  SeriesResponse,
  BookingMailsResponse,
  BookingParams,
  BookingResponse,
  BookingsResponse,
  CancelBody,
  ListBookingsQuery,
  RescheduleBody,
} from './model.ts';
import { cancelSeries, createSeriesBooking } from './series.ts';
import { jsonText } from '../../platform/http/json-text.ts';
import { bookingMails, changeStatus, createBooking, getBooking, listBookings, markBookingPaid, rescheduleBooking } from './service.ts';

const TAGS = ['Bookings'];

/** v1 routes of bookings and their lifecycle. */
export function bookingRoutes(deps: AppDeps) {
  return new Elysia({ name: 'bookings', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/bookings',
      async ({ principal, query, set }) => {
        const page = await listBookings(deps, principal.workspace, query);
        // Only the demo workspace lets a keyless caller this far (its access declaration): no visitor's contact data.
        const body: typeof BookingsResponse.static = {
          success: true,
          ...page,
          bookings: principal.kind === 'anonymous' ? page.bookings.map(withoutContactData) : page.bookings,
        };
        // Written as it is: every booking is built field by field (toBookingJson), so the framework's walk over a
        // page of fifty to drop unknown fields, a fifth of the request's time, would find none.
        return jsonText(set, JSON.stringify(body));
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: SlugParams,
        query: ListBookingsQuery,
        transform: integerQuery('limit'),
        response: { 200: BookingsResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'listBookings',
          summary: 'List bookings, ordered by start time then id, a page at a time',
          description:
            'Filter by `status`, `serviceId`, `providerId` and start time (`from` inclusive, `to` exclusive); pass `nextCursor` back as `cursor` for the next page. '
            + "400 VALIDATION_ERROR for a bad `limit`, `status`, `cursor` or date-time. On the demo workspace it is readable without a key, showing no visitor's contact data: `customerEmail` is `hidden@example.invalid`, `customerName` its first word, and `phone`, `notes` and `customFields` are left out.",
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings',
      async ({ body, principal }) => {
        // A widget call (no credential) proves it is a person; a key or panel session needs no captcha.
        if (principal.kind === 'anonymous') await verifyCaptcha(deps.config, deps.logger, body.recaptchaToken, principal.workspace);
        if (body.repeat) {
          const { booking, checkoutUrl, manageUrl, series } = await createSeriesBooking(deps, principal.workspace, { ...body, repeat: body.repeat });
          return { success: true, booking, checkoutUrl, manageUrl, series };
        }
        const { booking, checkoutUrl, manageUrl } = await createBooking(deps, principal.workspace, body);
        return { success: true, booking, checkoutUrl, manageUrl };
      },
      {
        access: keyOrSession('svc_manage_operations', { keylessFromAllowedDomain: true, ...OPEN_TO_DEMO }),
        params: SlugParams,
        body: BookingCreate,
        transform({ body }) {
          requireAnswersObject((body as { customFields?: unknown } | undefined)?.customFields);
        },
        response: { 200: BookingCreatedResponse, ...keyedPaymentWriteErrors },
        detail: {
          operationId: 'createBooking',
          summary: 'Book a time: with the API key, or keyless from an allowed widget domain',
          description:
            'Reserves the time on the given provider, or on any free provider offering the service. The booking is CONFIRMED, or PENDING with a '
            + '`checkoutUrl` when a payment is due, or PENDING awaiting confirmation. With the API key from a backend; without it only from a page on an '
            + 'allowed widget domain (`Origin`, else 403 DOMAIN_NOT_ALLOWED), with a captcha token when the server requires one (400 CAPTCHA_FAILED). '
            + '400 SERVICE_NOT_FOUND for an unknown or inactive service; 409 SLOT_UNAVAILABLE when the time is taken, outside the hours, in the past, '
            + 'inside `minNotice` or beyond `maxAdvance`; 502 PAYMENT_PROVIDER_ERROR when the payment provider could not open a checkout (the booking is released). '
            + 'With `repeat` (`{ frequency: "weekly", interval: 1-4, count: 2-52 }`, or `until` a date instead of `count`) it books a weekly series: every '
            + "occurrence at the first one's local time (kept across DST), all on one provider, each checked as a booking of its own; if any is not bookable, "
            + '409 SLOT_UNAVAILABLE with `conflicts` (the start of every occurrence that is not) and nothing is written. The answer is the first occurrence '
            + 'plus `series: { id, bookings }`; every occurrence has `seriesId`; one checkout covers every occurrence; one mail lists every date.',
          tags: TAGS,
        },
      },
    )
    .get(
      '/:slug/bookings/:bookingId',
      async ({ params, principal }) => {
        const booking = await getBooking(deps, principal.workspace, params.bookingId);
        return { success: true, booking: principal.kind === 'anonymous' ? withoutContactData(booking) : booking };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: BookingParams,
        response: { 200: BookingResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'getBooking',
          summary: 'Get a booking',
          description:
            "404 NOT_FOUND for an id not in the workspace. On the demo workspace it is readable without a key, without the visitor's contact data (as listBookings).",
          tags: TAGS,
        },
      },
    )
    .get(
      '/:slug/bookings/:bookingId/mails',
      async ({ params, principal: { workspace } }) => {
        return { success: true as const, mails: await bookingMails(deps, workspace, params.bookingId) };
      },
      {
        access: keyOrSession('read'),
        params: BookingParams,
        response: { 200: BookingMailsResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'listBookingMails',
          summary: "The customer's mails of a booking and how sending them went",
          description: 'Oldest first. Empty when mail is off (no `SVC_SMTP_URL`). 404 NOT_FOUND for an id not in the workspace.',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/confirm',
      async ({ params, principal: { workspace } }) => {
        return { success: true, booking: await changeStatus(deps, workspace, params.bookingId, 'confirm') };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: BookingParams,
        response: { 200: BookingResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'confirmBooking',
          summary: 'Confirm a PENDING booking',
          description: 'Moves a PENDING booking to CONFIRMED and sends `booking.confirmed`. 409 INVALID_TRANSITION for any other status.',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/mark-paid',
      async ({ params, principal: { workspace } }) => {
        return { success: true, booking: await markBookingPaid(deps, workspace, params.bookingId) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: BookingParams,
        response: { 200: BookingResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'markBookingPaid',
          summary: 'Record a payment taken another way and confirm a booking awaiting its payment',
          description:
            'For a PENDING booking with `awaitingPayment` (cash, a bank transfer): records a payment of provider `manual` over the sum due as paid and confirms the booking, '
            + 'sending `payment.received` then `booking.confirmed` as an online payment would. The checkout opened for it is left as it is. '
            + '409 INVALID_TRANSITION for any other booking (one PENDING awaiting confirmation is confirmed with confirmBooking).',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/cancel',
      async ({ params, body, principal: { workspace } }) => {
        return { success: true, booking: await changeStatus(deps, workspace, params.bookingId, 'cancel', { reason: body?.reason }) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: BookingParams,
        body: CancelBody,
        response: { 200: BookingResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'cancelBooking',
          summary: 'Cancel a PENDING or CONFIRMED booking, freeing its time',
          description:
            'The API key may cancel at any time, whatever the cancellation window; the optional `reason` is kept. Sends `booking.cancelled`. 409 INVALID_TRANSITION for a CANCELLED or COMPLETED booking.',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/complete',
      async ({ params, principal: { workspace } }) => {
        return { success: true, booking: await changeStatus(deps, workspace, params.bookingId, 'complete') };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: BookingParams,
        response: { 200: BookingResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'completeBooking',
          summary: 'Mark a CONFIRMED booking that has started as COMPLETED',
          description:
            'Bookings are also completed automatically after their end. Sends `booking.completed`. 409 INVALID_TRANSITION before the start or for any status but CONFIRMED.',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/bookings/:bookingId/reschedule',
      async ({ params, body, principal: { workspace } }) => {
        return { success: true, booking: await rescheduleBooking(deps, workspace, params.bookingId, body.date) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: BookingParams,
        body: RescheduleBody,
        response: { 200: BookingResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        detail: {
          operationId: 'rescheduleBooking',
          summary: 'Move a PENDING or CONFIRMED booking to another bookable time; the status stays',
          description:
            'The new time must be bookable as for createBooking, on the same provider and for the same duration (409 SLOT_UNAVAILABLE otherwise). Sends `booking.rescheduled`. 409 INVALID_TRANSITION for a CANCELLED or COMPLETED booking.',
          tags: TAGS,
        },
      },
    )
    .post(
      '/:slug/series/:seriesId/cancel',
      async ({ params, body, principal: { workspace } }) => {
        return { success: true, series: await cancelSeries(deps, workspace, params.seriesId, body ?? {}) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: SeriesParams,
        body: SeriesCancelBody,
        response: { 200: SeriesResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'cancelSeries',
          summary: 'Cancel the occurrences of a weekly series not yet started (from `from` on)',
          description:
            'Cancels every PENDING or CONFIRMED occurrence that has not started, and with `from` only those starting at or after it; started, cancelled and '
            + 'completed ones stay. Each cancelled occurrence sends `booking.cancelled`; the customer gets one mail listing them. The answer lists every '
            + 'occurrence as it is now. 404 NOT_FOUND for a series not in the workspace.',
          tags: TAGS,
        },
      },
    );
}
