/* Weekly working hours and exceptions (holidays, special days), for the business and for one provider. */
import { useSignal, type Signal } from '@preact/signals';
import { call, type Schedule, type WeeklyHours } from '../api/client.ts';
import { longDayOf, todayIn } from '../format.ts';
import type { Strings } from '../i18n.ts';
import { FormOutcome, Loaded, ReadOnlyNote, useForm, useLoad, type FormState, type SectionProps } from './common.tsx';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

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
  const newDate = useSignal(todayIn(workspace));
  const disabled = !can.operations;
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const saved = await save({ weekly: weekly.value, exceptions: exceptions.value });
      weekly.value = structuredClone(saved.weekly);
      exceptions.value = structuredClone(saved.exceptions);
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
                  <Intervals label={t.days[day]} intervals={weekly.value[day]} onChange={(next) => setDay(day, next)} t={t} />
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
        <FieldErrors form={form} />
        {!disabled && (
          <div class="actions">
            <button type="submit" class="primary" disabled={form.busy.value}>
              {form.busy.value ? t.saving : t.save}
            </button>
          </div>
        )}
      </fieldset>
      <FormOutcome form={form} />
    </form>
  );
}

function FieldErrors({ form }: { form: FormState }) {
  const found = Object.entries(form.fields.value);
  return found.length === 0 ? null : (
    <ul class="field-error">
      {found.map(([field, message]) => (
        <li key={field}>
          {field}: {message}
        </li>
      ))}
    </ul>
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

/** A day's opening intervals: none is "closed". */
function Intervals({
  label,
  intervals,
  onChange,
  t,
}: {
  label: string;
  intervals: WeeklyHours['mon'];
  onChange: (next: WeeklyHours['mon']) => void;
  t: Strings;
}) {
  const set = (index: number, key: 'start' | 'end', value: string) => onChange(intervals.map((each, at) => (at === index ? { ...each, [key]: value } : each)));
  return (
    <div class="intervals">
      {intervals.length === 0 && <span class="muted">{t.closed}</span>}
      {intervals.map((interval, index) => (
        <span class="interval" key={index}>
          <input type="time" aria-label={`${label} ${t.from}`} value={interval.start} onInput={(event) => set(index, 'start', event.currentTarget.value)} />
          <span aria-hidden="true">–</span>
          <input type="time" aria-label={`${label} ${t.to}`} value={interval.end} onInput={(event) => set(index, 'end', event.currentTarget.value)} />
          <button
            type="button"
            class="small"
            aria-label={`${t.remove}: ${label} ${interval.start}–${interval.end}`}
            onClick={() => onChange(intervals.filter((_, at) => at !== index))}
          >
            ×
          </button>
        </span>
      ))}
      <button
        type="button"
        class="small"
        aria-label={`${t.addInterval}: ${label}`}
        onClick={() => onChange([...intervals, { start: intervals.at(-1)?.end ?? '09:00', end: '17:00' }])}
      >
        +
      </button>
    </div>
  );
}
