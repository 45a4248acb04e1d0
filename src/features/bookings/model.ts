import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { DateTimeWithOffset, Duration, nullable } from '../../core/models.ts';
import { BOOKING_STATUSES } from '../../core/lifecycle.ts';

/*
 * Integers use TypeBox's plain `Type.Integer` (as in src/features/workspaces/model.ts): Elysia's `t.Integer` is a union
 * with numeric strings whose errors do not name the field. Query integers are converted by the route's
 * `transform` (see routes.ts) before validation.
 */

export const BookingStatus = t.Union([t.Literal('PENDING'), t.Literal('CONFIRMED'), t.Literal('CANCELLED'), t.Literal('COMPLETED')], {
  description: BOOKING_STATUSES.join(', '),
});

/** A booking's money (docs/contract/payments.md §9); amounts in decimal major units of `currency`. */
export const BookingPayment = t.Object(
  {
    currency: t.String({ description: 'ISO 4217' }),
    total: t.Number({ description: 'the service price when booked' }),
    paid: t.Number({ description: 'what the payment provider took (the deposit or the whole price); 0 when nothing was paid' }),
    due: t.Number({ description: 'what is left to pay at the appointment' }),
    status: t.Union([t.Literal('none'), t.Literal('pending'), t.Literal('paid'), t.Literal('refunded'), t.Literal('partially_refunded')], {
      description:
        'none: nothing is paid online (SVC_PAYMENTS=none, or a checkout that closed unpaid); pending: the checkout waits for the payment; paid; refunded: all that was paid was given back; partially_refunded',
    }),
    refunded: t.Number({ description: 'what was given back (refunds asked for and not failed)' }),
  },
  { $id: 'BookingPayment', description: "A booking's money: price, paid online, left for the appointment, refunded" },
);
export type BookingPayment = typeof BookingPayment.static;

/** A booking as the API returns it: the fields of docs/contract/resources.md. */
export const Booking = t.Object(
  {
    id: t.String(),
    startTime: t.String({ format: 'date-time' }),
    endTime: t.String({ format: 'date-time' }),
    status: BookingStatus,
    awaitingPayment: t.Boolean({
      description:
        'true while a PENDING booking waits for its payment (the payment confirms it; not for confirming by hand, see markBookingPaid); false otherwise',
    }),
    customerName: nullable(t.String()),
    customerEmail: t.String(),
    serviceName: nullable(t.String()),
    providerName: nullable(t.String()),
    amount: nullable(t.Number({ description: 'the sum due in decimal major units of the service currency (35.5); null when free' })),
    payment: nullable(BookingPayment, { description: 'null when there is no money in the booking (a free service)' }),
    serviceId: t.String(),
    providerId: t.String(),
    // The four below are left out of the demo workspace's keyless reads (docs/contract/widget.md); always present otherwise.
    phone: t.Optional(nullable(t.String({ description: 'absent in keyless reads of the demo workspace' }))),
    notes: t.Optional(nullable(t.String({ description: 'absent in keyless reads of the demo workspace' }))),
    customFields: t.Optional(
      t.Record(t.String(), t.Unknown(), { description: 'answers to the custom fields, by key; absent in keyless reads of the demo workspace' }),
    ),
    cancelReason: t.Optional(
      nullable(
        t.String({
          description:
            'why it was cancelled, as the canceller gave it (the cancel body, the manage page, an unpaid checkout); null otherwise; absent in keyless reads of the demo workspace',
        }),
      ),
    ),
    createdAt: t.String({ format: 'date-time' }),
    seriesId: nullable(t.String({ description: 'the weekly series (ser_…) this booking is an occurrence of; null for a booking on its own' })),
  },
  { $id: 'Booking', description: 'A booking as the API returns it' },
);
export type Booking = typeof Booking.static;

export const BookingResponse = t.Object(
  {
    success: t.Boolean(),
    booking: Booking,
    checkoutUrl: t.Optional(nullable(t.String({ description: 'hosted payment page, when a payment is due at creation' }))),
    manageUrl: t.Optional(
      nullable(
        t.String({
          description: "the customer's page to see, cancel or reschedule the booking ({app_url}/manage/{token}); createBooking only, never shown again",
        }),
      ),
    ),
  },
  { $id: 'BookingResponse', description: 'The booking' },
);

/** A weekly series as createBooking with `repeat` answers it. */
export const SeriesJson = t.Object(
  {
    id: t.String({ description: 'ser_…' }),
    bookings: t.Array(Booking, { description: 'every occurrence, ascending by start; the first is `booking`' }),
  },
  { $id: 'Series', description: 'A weekly series of bookings' },
);
export type SeriesJson = typeof SeriesJson.static;

/** createBooking's answer: the BookingResponse, plus `series` when the body asked for a repeat. */
export const BookingCreatedResponse = t.Composite([BookingResponse, t.Object({ series: t.Optional(SeriesJson) })], {
  $id: 'BookingCreatedResponse',
  description: 'The booking (the first occurrence of a series, with the series)',
});

export const SeriesResponse = t.Object({ success: t.Boolean(), series: SeriesJson }, { $id: 'SeriesResponse', description: 'The series' });

export const SeriesParams = t.Object({
  slug: t.String({ minLength: 1, maxLength: 64, description: 'workspace slug' }),
  seriesId: t.String({ minLength: 1, maxLength: 64, description: 'series id (ser_…)' }),
});

export const SeriesCancelBody = t.Optional(
  t.Object(
    {
      reason: t.Optional(t.String({ maxLength: 1000, description: 'kept with every occurrence cancelled' })),
      from: t.Optional({
        ...DateTimeWithOffset,
        description: 'cancel the occurrences starting at or after this date-time (default: every one not yet started)',
      }),
    },
    { $id: 'SeriesCancel' },
  ),
);

export const Repeat = t.Object(
  {
    frequency: t.Literal('weekly'),
    interval: Type.Integer({ minimum: 1, maximum: 4, description: 'weeks between occurrences' }),
    count: t.Optional(Type.Integer({ minimum: 2, maximum: 52, description: 'occurrences, the first included; exactly one of count and until' })),
    until: t.Optional(
      t.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description: 'last day (workspace zone, included) an occurrence may fall on, YYYY-MM-DD; exactly one of count and until',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'book a weekly series: every occurrence at the same local time, all on one provider, written together or not at all',
  },
);
export type BookingResponse = typeof BookingResponse.static;

export const BookingsResponse = t.Object(
  {
    success: t.Boolean(),
    bookings: t.Array(Booking),
    nextCursor: nullable(t.String({ description: 'pass as `cursor` for the next page; null on the last page' })),
  },
  { $id: 'BookingsResponse', description: 'A page of bookings' },
);

export const BookingCreate = t.Object(
  {
    serviceId: t.String({ minLength: 1, maxLength: 64 }),
    providerId: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'omit to have any free provider offering the service assigned' })),
    email: t.String({ format: 'email', maxLength: 254 }),
    name: t.Optional(t.String({ maxLength: 200 })),
    phone: t.Optional(t.String({ maxLength: 40 })),
    date: { ...DateTimeWithOffset, description: 'start of the booking, a date-time with an offset such as 2026-12-01T09:00:00Z' },
    duration: t.Optional(Duration),
    notes: t.Optional(t.String({ maxLength: 5000 })),
    recaptchaToken: t.Optional(t.String({ maxLength: 4096, description: 'needed for keyless requests when the server has a captcha secret' })),
    customFields: t.Optional(t.Record(t.String(), t.Unknown(), { description: 'answers to the workspace custom fields, by key; unknown keys are ignored' })),
    repeat: t.Optional(Repeat),
  },
  { $id: 'BookingCreate' },
);
export type BookingCreate = typeof BookingCreate.static;

export const BookingParams = t.Object({
  slug: t.String({ minLength: 1, maxLength: 64, description: 'workspace slug' }),
  bookingId: t.String({ minLength: 1, maxLength: 64, description: 'booking id (bk_…)' }),
});

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 50;

export const ListBookingsQuery = t.Object({
  limit: t.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `page size, default ${DEFAULT_PAGE}` })),
  cursor: t.Optional(t.String({ maxLength: 512, description: 'opaque, from nextCursor of the previous page' })),
  status: t.Optional(BookingStatus),
  from: t.Optional({ ...DateTimeWithOffset, description: 'only bookings starting at or after this date-time' }),
  to: t.Optional({ ...DateTimeWithOffset, description: 'only bookings starting before this date-time' }),
  serviceId: t.Optional(t.String({ maxLength: 64, description: 'only bookings of this service' })),
  providerId: t.Optional(t.String({ maxLength: 64, description: 'only bookings with this provider' })),
});
export type ListBookingsQuery = typeof ListBookingsQuery.static;

export const CancelBody = t.Optional(
  t.Object(
    {
      reason: t.Optional(t.String({ maxLength: 1000, description: 'kept with the booking' })),
    },
    { $id: 'BookingCancel' },
  ),
);

export const RescheduleBody = t.Object(
  {
    date: { ...DateTimeWithOffset, description: 'the new start, a date-time with an offset' },
  },
  { $id: 'BookingReschedule' },
);

/** One customer mail of a booking and how its sending went (docs/contract/notifications.md). */
export const BookingMail = t.Object(
  {
    id: t.String(),
    kind: t.Union([
      t.Literal('confirmed'),
      t.Literal('pending'),
      t.Literal('cancelled'),
      t.Literal('rescheduled'),
      t.Literal('reminder'),
      t.Literal('refunded'),
    ]),
    status: t.Union([t.Literal('pending'), t.Literal('sent'), t.Literal('failed'), t.Literal('dropped')], {
      description:
        'pending: waiting or retrying; sent: the SMTP server accepted it; failed: every attempt failed; dropped: the booking moved on before it went out',
    }),
    attempts: t.Integer(),
    lastError: nullable(t.String({ description: "the last attempt's error (no personal data)" })),
    nextAttemptAt: nullable(t.String({ format: 'date-time' })),
    createdAt: t.String({ format: 'date-time' }),
    sentAt: nullable(t.String({ format: 'date-time' })),
  },
  { $id: 'BookingMail', description: 'A customer mail of a booking and how sending it went' },
);

export const BookingMailsResponse = t.Object(
  { success: t.Literal(true), mails: t.Array(BookingMail) },
  { $id: 'BookingMailsResponse', description: "The booking's customer mails, oldest first" },
);
