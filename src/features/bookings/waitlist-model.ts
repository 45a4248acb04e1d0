import { t } from 'elysia';
import { DateTimeWithOffset } from '../../core/models.ts';

/** A waiting-list entry as the API returns it (docs/contract/classes.md §2). */
export const WaitlistEntry = t.Object(
  {
    id: t.String({ description: 'wl_…' }),
    status: t.Union([t.Literal('WAITING'), t.Literal('OFFERED'), t.Literal('BOOKED'), t.Literal('EXPIRED')], {
      description: 'WAITING, then OFFERED when a seat frees (held for it), then BOOKED when claimed or EXPIRED when the hold lapsed',
    }),
    serviceId: t.String(),
    providerId: t.Union([t.String(), t.Null()], { description: 'the provider asked for, or whose seat an offer holds; null: any provider' }),
    date: t.String({ format: 'date-time', description: 'the start time waited for' }),
    customerEmail: t.String(),
    customerName: t.Union([t.String(), t.Null()]),
    offerExpiresAt: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'OFFERED: the seat is held until then' }),
    bookingId: t.Union([t.String(), t.Null()], { description: 'BOOKED: the booking the claim made' }),
    createdAt: t.String({ format: 'date-time' }),
  },
  { $id: 'WaitlistEntry', description: 'A place on the waiting list of a full time' },
);
export type WaitlistEntry = typeof WaitlistEntry.static;

export const WaitlistEntryResponse = t.Object({ success: t.Boolean(), entry: WaitlistEntry }, { $id: 'WaitlistEntryResponse', description: 'The entry' });
export const WaitlistEntriesResponse = t.Object(
  { success: t.Boolean(), entries: t.Array(WaitlistEntry) },
  { $id: 'WaitlistEntriesResponse', description: 'Entries ordered by time, then by arrival' },
);

export const WaitlistJoin = t.Object(
  {
    serviceId: t.String({ minLength: 1, maxLength: 64 }),
    providerId: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'wait for this provider only; default any provider of the service' })),
    date: DateTimeWithOffset,
    email: t.String({ format: 'email', maxLength: 254 }),
    name: t.Optional(t.String({ maxLength: 200 })),
    phone: t.Optional(t.String({ maxLength: 40 })),
    recaptchaToken: t.Optional(t.String({ maxLength: 4096, description: 'needed for keyless requests when the server has a captcha secret' })),
  },
  { $id: 'WaitlistJoin' },
);
export type WaitlistJoin = typeof WaitlistJoin.static;

export const WaitlistQuery = t.Object({
  serviceId: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  date: t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a day (YYYY-MM-DD) in the workspace time zone' })),
});

export const WaitlistParams = t.Object({ slug: t.String({ description: 'workspace slug' }), entryId: t.String({ description: 'wl_…' }) });
