/*
 * Weekly working hours and exceptions (holidays, special days), for the business and for one provider. Each
 * range is checked as it is typed (a time, an end after the start, no overlap) and its problem is said next to
 * it; a save is only sent when all of them are right, every edit stays on a failed save, and leaving with
 * unsaved edits asks first.
 */
import { useSignal, type Signal } from '@preact/signals';
import { call, type Schedule, type Workspace, type WeeklyHours } from '../api/client.ts';
import { longDayOf, todayIn } from '../format.ts';
import type { Strings } from '../i18n.ts';
import { useUnsaved } from '../unsaved.ts';
import { FormOutcome, Loaded, ReadOnlyNote, SaveActions, useForm, useId, useLoad, type SectionProps } from './common.tsx';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Ranges = WeeklyHours['mon'];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The problem of each range of a day, in words (null where it is right), in the order of the ranges. */
export function rangeProblems(ranges: Ranges, t: Strings): (string | null)[] {
  return ranges.map((range, index) => {
    if (!TIME.test(range.start) || !TIME.test(range.end) || range.start === '24:00') return t.timeFormatProblem;
    if (minutesOf(range.end) <= minutesOf(range.start)) return t.endBeforeStart;
    const overlapped = ranges.some(
      (other, at) =>
        at !== index
        && TIME.test(other.start)
        && TIME.test(other.end)
        && minutesOf(other.start) < minutesOf(range.end)
        && minutesOf(range.start) < minutesOf(other.end),
    );
    return overlapped ? t.overlapProblem : null;
  });
}

/** The range "+" adds: 09:00–17:00 on a closed day, else from an hour after the last one ends; null when the day is full. */
export function nextRange(ranges: Ranges): Ranges[number] | null {
  const ends = ranges.filter((range) => TIME.test(range.end)).map((range) => minutesOf(range.end));
  if (ends.length === 0) return { start: '09:00', end: '17:00' };
  const last = Math.max(...ends);
  if (last >= 23 * 60) return null;
  const start = Math.min(last + 60, 23 * 60);
  const end = start < 16 * 60 ? 17 * 60 : Math.min(start + 120, 24 * 60);
  return { start: timeOf(start), end: timeOf(end) };
}

const sorted = (ranges: Ranges) => [...ranges].sort((a, b) => a.start.localeCompare(b.start));

export function Hours(props: SectionProps) {
  const { client, workspace, t } = props;
  const slug = workspace.slug;
  const { state, reload } = useLoad(async () => (await call(client.GET('/workspaces/{slug}/schedule', { params: { path: { slug } } }))).schedule, [slug], t);
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {(schedule) => (
        <ScheduleEditor
          {...props}
          schedule={schedule}
          idPrefix="hours"
          save={async (next) => (await call(client.PUT('/workspaces/{slug}/schedule', { params: { path: { slug } }, body: next }))).schedule}
        />
      )}
    </Loaded>
  );
}

interface EditorProps extends SectionProps {
  schedule: Schedule;
  save: (schedule: Schedule) => Promise<Schedule>;
  idPrefix: string;
}

/** The editor of one schedule; it keeps its own copy until saved, and keeps it on a failed save. */
export function ScheduleEditor({ workspace, can, notify, t, schedule, save, idPrefix }: EditorProps) {
  const form = useForm(t);
  const weekly = useSignal<WeeklyHours>(structuredClone(schedule.weekly));
  const exceptions = useSignal(structuredClone(schedule.exceptions));
  const baseline = useSignal(JSON.stringify({ weekly: schedule.weekly, exceptions: schedule.exceptions }));
  const newDate = useSignal(todayIn(workspace));
  const disabled = !can.operations;
  useUnsaved(!disabled && JSON.stringify({ weekly: weekly.value, exceptions: exceptions.value }) !== baseline.value);
  const invalid =
    WEEKDAYS.some((day) => rangeProblems(weekly.value[day], t).some(Boolean))
    || exceptions.value.some((exception) => rangeProblems(exception.intervals, t).some(Boolean));
  const submit = (event: Event) => {
    event.preventDefault();
    if (invalid) {
      form.message.value = t.fixRanges;
      form.done.value = null;
      return;
    }
    void form.run(async () => {
      const sortedWeekly = Object.fromEntries(WEEKDAYS.map((day) => [day, sorted(weekly.value[day])])) as WeeklyHours;
      const sortedExceptions = exceptions.value.map((exception) => ({ ...exception, intervals: sorted(exception.intervals) }));
      const saved = await save({ weekly: sortedWeekly, exceptions: sortedExceptions });
      weekly.value = structuredClone(saved.weekly);
      exceptions.value = structuredClone(saved.exceptions);
      baseline.value = JSON.stringify({ weekly: saved.weekly, exceptions: saved.exceptions });
      notify({ type: 'svc:panel:changed' });
      return t.saved;
    });
  };
  const setDay = (day: (typeof WEEKDAYS)[number], intervals: WeeklyHours['mon']) => (weekly.value = { ...weekly.value, [day]: intervals });
  return (
    <form class="card hours" onSubmit={submit} aria-labelledby={`${idPrefix}-weekly`} noValidate>
      {disabled && <ReadOnlyNote text={t.readOnlyOperations} />}
      <h3 id={`${idPrefix}-weekly`}>
        {t.weekly} <span class="muted">({workspace.timezone})</span>
      </h3>
      <fieldset disabled={disabled} class="plain">
        <table class="week">
          <tbody>
            {WEEKDAYS.map((day) => (
              <tr key={day}>
                <th scope="row">{t.days[day]}</th>
                <td>
                  <Intervals label={t.days[day]} intervals={weekly.value[day]} onChange={(next) => setDay(day, next)} t={t} workspace={workspace} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h4>{t.exceptions}</h4>
        {exceptions.value.length === 0 ? (
          <p class="muted">{t.noExceptions}</p>
        ) : (
          <table class="week">
            <tbody>
              {exceptions.value.map((exception, index) => (
                <tr key={exception.date}>
                  <th scope="row">{longDayOf(workspace, exception.date)}</th>
                  <td>
                    <Intervals
                      label={longDayOf(workspace, exception.date)}
                      intervals={exception.intervals}
                      t={t}
                      workspace={workspace}
                      onChange={(next) => (exceptions.value = exceptions.value.map((each, at) => (at === index ? { ...each, intervals: next } : each)))}
                    />
                  </td>
                  <td>
                    {!disabled && (
                      <button type="button" onClick={() => (exceptions.value = exceptions.value.filter((_, at) => at !== index))}>
                        {t.remove}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!disabled && (
          <div class="row-form">
            <DateField id={`${idPrefix}-exception-date`} label={t.newDay} value={newDate} />
            <button
              type="button"
              onClick={() => {
                if (!newDate.value || exceptions.value.some((each) => each.date === newDate.value)) return;
                exceptions.value = [...exceptions.value, { date: newDate.value, intervals: [] }].sort((a, b) => a.date.localeCompare(b.date));
              }}
            >
              {t.addException}
            </button>
          </div>
        )}
        {!disabled && <SaveActions form={form} t={t} />}
      </fieldset>
      <FormOutcome form={form} />
    </form>
  );
}

function DateField({ id, label, value }: { id: string; label: string; value: Signal<string> }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" value={value.value} onInput={(event) => (value.value = event.currentTarget.value)} />
    </div>
  );
}

/**
 * A time of day. In a 24-hour workspace a text field `HH:mm` (a browser's own time field follows the browser's
 * language and may show `09:00 AM`); in a 12-hour one the browser's time field.
 */
function TimeInput({
  workspace,
  label,
  value,
  invalid,
  describedBy,
  onInput,
}: {
  workspace: Pick<Workspace, 'timeFormat'>;
  label: string;
  value: string;
  invalid: boolean;
  describedBy?: string;
  onInput: (value: string) => void;
}) {
  const attributes = { 'aria-label': label, value, 'aria-invalid': invalid ? ('true' as const) : undefined, 'aria-describedby': describedBy };
  return workspace.timeFormat === '12h' ? (
    <input type="time" {...attributes} onInput={(event) => onInput(event.currentTarget.value)} />
  ) : (
    <input
      type="text"
      class="time"
      inputMode="numeric"
      maxLength={5}
      placeholder="09:00"
      autocomplete="off"
      {...attributes}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
  );
}

/** A day's opening intervals: none is "closed". Each range's problem shows right under it. */
function Intervals({
  label,
  intervals,
  onChange,
  t,
  workspace,
}: {
  label: string;
  intervals: Ranges;
  onChange: (next: Ranges) => void;
  t: Strings;
  workspace: Pick<Workspace, 'timeFormat'>;
}) {
  const set = (index: number, key: 'start' | 'end', value: string) => onChange(intervals.map((each, at) => (at === index ? { ...each, [key]: value } : each)));
  const problems = rangeProblems(intervals, t);
  const next = nextRange(intervals);
  const id = useId('range');
  return (
    <div class="intervals">
      {intervals.length === 0 && <span class="muted">{t.closed}</span>}
      {intervals.map((interval, index) => (
        <span class={`interval${problems[index] ? ' invalid' : ''}`} key={index}>
          <span class="range">
            <TimeInput
              workspace={workspace}
              label={`${label} ${t.from}`}
              value={interval.start}
              invalid={!!problems[index]}
              describedBy={problems[index] ? `${id}-${index}` : undefined}
              onInput={(value) => set(index, 'start', value)}
            />
            <span aria-hidden="true">–</span>
            <TimeInput
              workspace={workspace}
              label={`${label} ${t.to}`}
              value={interval.end}
              invalid={!!problems[index]}
              describedBy={problems[index] ? `${id}-${index}` : undefined}
              onInput={(value) => set(index, 'end', value)}
            />
            <button
              type="button"
              class="small"
              aria-label={`${t.remove}: ${label} ${interval.start}–${interval.end}`}
              onClick={() => onChange(intervals.filter((_, at) => at !== index))}
            >
              ×
            </button>
          </span>
          {problems[index] && (
            <small id={`${id}-${index}`} class="field-error">
              {problems[index]}
            </small>
          )}
        </span>
      ))}
      <button type="button" class="small" aria-label={`${t.addInterval}: ${label}`} disabled={!next} onClick={() => next && onChange([...intervals, next])}>
        +
      </button>
    </div>
  );
}
