import { accessDeclarations } from '../../platform/access/macro.ts';
import { publicRoute } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from '../workspaces/index.ts';
import { Type } from '@sinclair/typebox';
import { Elysia, t } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { integerQuery } from '../../platform/http/query.ts';
import { Duration, ErrorResponse, SlugParams } from '../../core/models.ts';
import { availableDay, availableDays, MAX_DAYS_RANGE, resolveOffering } from './availability.ts';

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

const TAGS = ['Availability'];

/** Public v1 routes: available slots and days (docs/contract/routes.md). */
export function availabilityRoutes(deps: AppDeps) {
  return new Elysia({ name: 'availability', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/availability',
      async ({ principal: { workspace }, query }) => {
        const offering = await resolveOffering(deps, workspace, query.serviceId, query.providerId);
        const { slots, seatsLeft } = await availableDay(deps, workspace, offering, query.date, query.duration);
        return { success: true, slots, timezone: workspace.timezone, ...(seatsLeft ? { seatsLeft } : {}) };
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
      async ({ principal: { workspace }, query }) => {
        const offering = await resolveOffering(deps, workspace, query.serviceId, query.providerId);
        const { days, seatsLeft } = await availableDays(deps, workspace, offering, query.from, query.to, query.duration);
        return { success: true, days, timezone: workspace.timezone, ...(seatsLeft ? { seatsLeft } : {}) };
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
    );
}
