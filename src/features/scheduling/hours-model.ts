import { t } from 'elysia';
import { validation } from '../../core/errors.ts';
import { WEEKDAYS, type WorkingHours, type WorkingInterval } from '../../core/slot-engine.ts';

/*
 * Working hours on the wire (docs/contract/routes.md): `{ weekly: { mon: [{ start: "09:00", end: "17:00" }], …,
 * sun: [] }, exceptions: [{ date: "2026-12-24", intervals: [] }] }`, wall-clock times of the workspace's zone.
 */

const Start = t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a time as HH:mm between 00:00 and 23:59' });
const End = t.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'a time as HH:mm between 00:00 and 24:00' });

export const Interval = t.Object({ start: Start, end: End }, { $id: 'WorkingInterval', description: 'end after start; 24:00 is the end of the day' });

/** The intervals of one day, sorted by start, not overlapping; [] = closed. */
const Day = t.Array(Interval, { maxItems: 48, description: 'sorted by start, not overlapping; [] = closed' });

export const Weekly = t.Object(
  {
    mon: Day,
    tue: Day,
    wed: Day,
    thu: Day,
    fri: Day,
    sat: Day,
    sun: Day,
  },
  { $id: 'WeeklyHours', description: 'the intervals of each weekday; all seven days are required' },
);

export const DateException = t.Object(
  {
    date: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a date as YYYY-MM-DD' }),
    intervals: Day,
  },
  { $id: 'DateException', description: "hours of one calendar day that replace its weekday's; intervals [] = closed" },
);

const Exceptions = t.Array(DateException, { maxItems: 1000, description: 'one entry per date at most; answered sorted by date' });

export const Schedule = t.Object({ weekly: Weekly, exceptions: Exceptions }, { $id: 'Schedule', description: 'Working hours' });
export type Schedule = typeof Schedule.static;

/**
 * PUT body: the schedule itself, `{ weekly, exceptions? }` (exceptions default to none). The GET answer's
 * shape `{ schedule: { weekly, exceptions } }` is accepted too, so a read-modify-write round trip works.
 */
export const ScheduleBody = t.Object(
  {
    weekly: t.Optional(Weekly),
    exceptions: t.Optional(Exceptions),
    schedule: t.Optional(t.Object({ weekly: Weekly, exceptions: t.Optional(Exceptions) })),
  },
  { $id: 'ScheduleUpdate', description: '{ weekly, exceptions? }, or the GET answer { schedule: { weekly, exceptions? } }' },
);
export type ScheduleBody = typeof ScheduleBody.static;

export const ScheduleResponse = t.Object({ success: t.Boolean(), schedule: Schedule }, { $id: 'ScheduleResponse', description: 'The working hours' });

export const ProviderScheduleResponse = t.Object(
  {
    success: t.Boolean(),
    schedule: Schedule,
    inherited: t.Boolean({ description: "true: the provider has no schedule of its own and works the workspace's (shown in `schedule`)" }),
  },
  { $id: 'ProviderScheduleResponse', description: "The provider's working hours" },
);

export const ProviderScheduleParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  providerId: t.String({ description: 'provider id (prv_…)' }),
});

function checkDay(intervals: readonly WorkingInterval[], path: string): WorkingInterval[] {
  return intervals.map((interval, index) => {
    if (interval.end <= interval.start) throw validation(`${path}[${index}].end must be after its start (${interval.start}), got ${interval.end}`);
    const previous = intervals[index - 1];
    if (previous) {
      if (interval.start < previous.start) {
        throw validation(`${path}[${index}] must come after ${path}[${index - 1}]: list a day's intervals in order of start`);
      }
      if (interval.start < previous.end) throw validation(`${path}[${index}] overlaps ${path}[${index - 1}]`);
    }
    return { start: interval.start, end: interval.end };
  });
}

function isCalendarDate(date: string): boolean {
  try {
    Temporal.PlainDate.from(date, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The working hours of a PUT body, checked beyond what the schema can say: end after start, a day's
 * intervals sorted and not overlapping (touching is fine), exception dates real and unique. Exceptions are
 * returned sorted by date. Errors name the place: `weekly.mon[1] overlaps weekly.mon[0]`.
 */
export function parseSchedule(body: ScheduleBody): WorkingHours {
  const prefix = body.schedule ? 'schedule.' : '';
  const input = body.schedule ?? body;
  if (!input.weekly) throw validation('weekly is required: send { weekly: { mon: [...], ..., sun: [] }, exceptions: [...] }');
  const weekly = {} as WorkingHours['weekly'];
  for (const day of WEEKDAYS) weekly[day] = checkDay(input.weekly[day], `${prefix}weekly.${day}`);
  const seen = new Map<string, number>();
  const exceptions = (input.exceptions ?? []).map((exception, index) => {
    const path = `${prefix}exceptions[${index}]`;
    if (!isCalendarDate(exception.date)) throw validation(`${path}.date must be a real date as YYYY-MM-DD, got ${exception.date}`);
    const first = seen.get(exception.date);
    if (first !== undefined) throw validation(`${path}.date repeats ${prefix}exceptions[${first}].date (${exception.date})`);
    seen.set(exception.date, index);
    return { date: exception.date, intervals: checkDay(exception.intervals, `${path}.intervals`) };
  });
  exceptions.sort((a, b) => (a.date < b.date ? -1 : 1));
  return { weekly, exceptions };
}

/** Working hours as the API answers them (only the contract's fields). */
export function toScheduleJson(hours: WorkingHours): Schedule {
  const interval = ({ start, end }: WorkingInterval) => ({ start, end });
  const weekly = {} as Schedule['weekly'];
  for (const day of WEEKDAYS) weekly[day] = (hours.weekly[day] ?? []).map(interval);
  return { weekly, exceptions: hours.exceptions.map((exception) => ({ date: exception.date, intervals: exception.intervals.map(interval) })) };
}
