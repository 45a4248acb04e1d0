import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession, publicRoute } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from '../workspaces/index.ts';
import { Type } from '@sinclair/typebox';
import { Elysia, t } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { integerQuery } from '../../platform/http/query.ts';
import { type HeaderSet, jsonText } from '../../platform/http/json-text.ts';
import { Duration, ErrorResponse, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import { availableDay, availableDays, explainAvailability, MAX_DAYS_RANGE, resolveOffering } from './availability.ts';

const CalendarDate = (description: string) => t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

const offeringQuery = {
  serviceId: t.String({ minLength: 1, maxLength: 64, description: 'an active service of the workspace' }),
  providerId: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'only this provider; default every provider offering the service' })),
  duration: t.Optional(Duration),
};

export const AvailabilityQuery = t.Object({
  ...offeringQuery,
  date: CalendarDate('a date as YYYY-MM-DD (a calendar day in the workspace time zone)'),
});

export const AvailableDaysQuery = t.Object({
  ...offeringQuery,
  from: CalendarDate('a date as YYYY-MM-DD, the first day'),
  to: CalendarDate(`a date as YYYY-MM-DD, the last day (at most ${MAX_DAYS_RANGE} days in all)`),
});

const SeatsLeft = t.Record(t.String({ pattern: '^\\d{2}:\\d{2}$' }), Type.Integer({ minimum: 0 }), {
  description:
    'only for a service with capacity above 1 or a waiting list: the places left at each time (summed over the providers); '
    + 'a service with `waitlist: true` also lists its full times, with 0',
});

export const AvailabilityResponse = t.Object(
  {
    success: t.Boolean(),
    slots: t.Array(t.String({ pattern: '^\\d{2}:\\d{2}$' }), { description: 'bookable start times, HH:mm in the workspace time zone, ascending' }),
    timezone: t.String({ description: 'IANA time zone of the workspace' }),
    seatsLeft: t.Optional(SeatsLeft),
  },
  { $id: 'AvailabilityResponse', description: 'Bookable start times' },
);

export const AvailableDaysResponse = t.Object(
  {
    success: t.Boolean(),
    days: t.Array(t.String({ format: 'date' }), { description: 'days with at least one bookable time, ascending' }),
    timezone: t.String({ description: 'IANA time zone of the workspace' }),
    seatsLeft: t.Optional(
      t.Record(t.String({ format: 'date' }), SeatsLeft, {
        description: 'as on getAvailability, per day; a day all of whose times are full is listed (with 0s) only for a service with a waiting list',
      }),
    ),
  },
  { $id: 'AvailableDaysResponse', description: 'Days with a bookable time' },
);

export const ExplainQuery = t.Object({
  serviceId: offeringQuery.serviceId,
  providerId: offeringQuery.providerId,
  date: CalendarDate('a date as YYYY-MM-DD (a calendar day in the workspace time zone)'),
});

export const AvailabilityReason = t.Object(
  {
    code: t.Union(
      [
        t.Literal('OUTSIDE_HOURS'),
        t.Literal('EXCEPTION'),
        t.Literal('BOOKED'),
        t.Literal('FULL'),
        t.Literal('CALENDAR_BUSY'),
        t.Literal('BUFFER'),
        t.Literal('MIN_NOTICE'),
        t.Literal('MAX_ADVANCE'),
        t.Literal('PAST'),
      ],
      {
        description:
          'OUTSIDE_HOURS: not a start inside working hours; EXCEPTION: the date has hours of its own (or is closed); BOOKED: a booking holds it; '
          + 'FULL: a class with no seat left; CALENDAR_BUSY: an event of a connected calendar that blocks; BUFFER: too close to a booking or event '
          + '(the buffer of either); MIN_NOTICE: too soon; MAX_ADVANCE: too far ahead; PAST: already begun',
      },
    ),
    bookingId: t.Optional(t.String({ description: 'BOOKED: the booking' })),
    connectionId: t.Optional(t.String({ description: 'CALENDAR_BUSY: the calendar connection (cal_…)' })),
    calendarName: t.Optional(t.String({ description: "CALENDAR_BUSY: the calendar's name (never the event's title)" })),
  },
  { $id: 'AvailabilityReason' },
);

export const AvailabilityExplanation = t.Object(
  {
    success: t.Boolean(),
    timezone: t.String({ description: 'IANA time zone of the workspace' }),
    times: t.Array(
      t.Object({
        time: t.String({ pattern: '^\\d{2}:\\d{2}$', description: 'HH:mm in the workspace time zone' }),
        providerId: t.String(),
        free: t.Boolean({ description: 'bookable now: exactly the times getAvailability answers for this provider' }),
        reasons: t.Array(AvailabilityReason, { description: 'every reason the time is not free; empty when it is' }),
      }),
      { description: "every start time of the service's grid that day, per provider, by time then provider" },
    ),
  },
  { $id: 'AvailabilityExplanation', description: 'Why each start time of a day is or is not free' },
);

const TAGS = ['Availability'];

/** The JSON text made of an answer, with the time zone it names (a workspace's zone may change). */
const answerTexts = new WeakMap<object, { timezone: string; text: string }>();

/**
 * An availability answer as its response. availability.ts keeps each answer for a second or more and hands the
 * same object to every request for it (the many a busy widget sends for one day): its text is made once, and those
 * requests skip the framework's response check, clean and serialisation, a fifth of their server time
 * (scripts/bench/README.md). The body is built field by field to its schema, which the route tests check.
 */
function answerResponse<A extends object>(set: HeaderSet, answer: A, timezone: string, body: (answer: A) => unknown): Response {
  let known = answerTexts.get(answer);
  if (known?.timezone !== timezone) answerTexts.set(answer, (known = { timezone, text: JSON.stringify(body(answer)) }));
  return jsonText(set, known.text);
}

/** Public v1 routes: available slots and days (docs/contract/routes.md). */
export function availabilityRoutes(deps: AppDeps) {
  return new Elysia({ name: 'availability', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/availability',
      async ({ principal: { workspace }, query, set }) => {
        const offering = await resolveOffering(deps, workspace, query.serviceId, query.providerId);
        const answer = await availableDay(deps, workspace, offering, query.date, query.duration);
        return answerResponse(set, answer, workspace.timezone, ({ slots, seatsLeft }): typeof AvailabilityResponse.static => ({
          success: true,
          slots,
          timezone: workspace.timezone,
          ...(seatsLeft ? { seatsLeft } : {}),
        }));
      },
      {
        access: publicRoute('allowedDomains', OPEN_TO_DEMO),
        params: SlugParams,
        query: AvailabilityQuery,
        transform: integerQuery('duration'),
        response: { 200: AvailabilityResponse, 400: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'getAvailability',
          summary: 'Bookable start times of a service on one day, over every provider offering it',
          description:
            'Start times (HH:mm, workspace time zone) at which a booking of the service would be accepted now: inside working hours, '
            + 'free on at least one provider (capacity and buffers counted), after `minNotice` and within `maxAdvance`. '
            + '400 SERVICE_NOT_FOUND for an unknown or inactive service or a provider that does not offer it; 404 NOT_FOUND for an unknown slug.',
          tags: TAGS,
        },
      },
    )
    .get(
      '/:slug/availability/days',
      async ({ principal: { workspace }, query, set }) => {
        const offering = await resolveOffering(deps, workspace, query.serviceId, query.providerId);
        const answer = await availableDays(deps, workspace, offering, query.from, query.to, query.duration);
        return answerResponse(set, answer, workspace.timezone, ({ days, seatsLeft }): typeof AvailableDaysResponse.static => ({
          success: true,
          days,
          timezone: workspace.timezone,
          ...(seatsLeft ? { seatsLeft } : {}),
        }));
      },
      {
        access: publicRoute('allowedDomains', OPEN_TO_DEMO),
        params: SlugParams,
        query: AvailableDaysQuery,
        transform: integerQuery('duration'),
        response: { 200: AvailableDaysResponse, 400: ErrorResponse, 404: ErrorResponse },
        detail: {
          operationId: 'getAvailableDays',
          summary: `Days with at least one bookable time between from and to (at most ${MAX_DAYS_RANGE} days)`,
          description:
            'For a calendar view: the days, in the workspace time zone, on which getAvailability would answer at least one slot. '
            + `400 VALIDATION_ERROR when \`from\` is after \`to\` or the range spans more than ${MAX_DAYS_RANGE} days; 400 SERVICE_NOT_FOUND as for getAvailability.`,
          tags: TAGS,
        },
      },
    )
    .get(
      '/:slug/availability/explain',
      async ({ principal: { workspace }, query }) => {
        const offering = await resolveOffering(deps, workspace, query.serviceId, query.providerId);
        const times = await explainAvailability(deps, workspace, offering, query.date);
        return { success: true, timezone: workspace.timezone, times };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: SlugParams,
        query: ExplainQuery,
        response: { 200: AvailabilityExplanation, ...keyedWriteErrors },
        detail: {
          operationId: 'explainAvailability',
          summary: 'Why each start time of a day is or is not free',
          description:
            "For the owner: every start time of the service's grid on the date (from 00:00 in steps of its slotInterval, and the starts of "
            + 'working intervals off that grid), per provider, with whether it is free and every reason it is not. A connected calendar is named, '
            + "its events' titles never are. 400 SERVICE_NOT_FOUND as for getAvailability.",
          tags: TAGS,
        },
      },
    );
}
