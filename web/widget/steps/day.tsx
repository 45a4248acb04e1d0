import { useEffect, useRef, useState } from 'preact/hooks';
import { useWidget } from '../context.ts';
import { canShowPreviousMonth, type FlowState } from '../machine.ts';
import { addDays, addMonths, dayAsDate, monthOf, monthWeeks } from '../time.ts';
import { Chosen, Icon, ICONS, RetryLoad } from './parts.tsx';
import { longDay, visitorZoneNote } from './wording.ts';

/** The month's calendar: a WAI-ARIA date picker grid (arrow keys, Home/End, PageUp/PageDown) of the open days. */
export function DayStep({ state }: { state: FlowState }) {
  const widget = useWidget();
  const { flow, strings, locale } = widget;
  const available = state.days.status === 'ready' ? new Set(state.days.value) : new Set<string>();
  const weeks = monthWeeks(state.month);
  const inMonth = (day: string | null) => day !== null && monthOf(day) === state.month;
  const [focused, setFocused] = useState<string | null>(null);
  const navigating = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const firstOpen = weeks.flat().find((day) => day !== null && available.has(day)) ?? null;
  const active =
    (inMonth(focused) ? focused : null)
    ?? (inMonth(state.day) ? state.day : null)
    ?? firstOpen
    ?? (state.month === monthOf(state.today) ? state.today : `${state.month}-01`);

  // keys may arrive faster than renders: the handler reads the day the last key moved to
  const current = useRef(active);
  current.current = active;
  useEffect(() => {
    if (!navigating.current) return;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-day="${active}"]`)?.focus();
  }, [active, state.days.status]);

  const minDay = `${monthOf(state.today)}-01`;
  const move = (target: string) => {
    const day = target < minDay ? minDay : target;
    navigating.current = true;
    current.current = day;
    setFocused(day);
    if (monthOf(day) !== state.month) flow.dispatch({ type: 'showMonth', month: monthOf(day) });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const active = current.current;
    const weekdayIndex = (new Date(`${active}T12:00:00Z`).getUTCDay() + 6) % 7;
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(active, -1),
      ArrowRight: () => addDays(active, 1),
      ArrowUp: () => addDays(active, -7),
      ArrowDown: () => addDays(active, 7),
      Home: () => addDays(active, -weekdayIndex),
      End: () => addDays(active, 6 - weekdayIndex),
      PageUp: () => `${addMonths(monthOf(active), -1)}-${active.slice(8)}`,
      PageDown: () => `${addMonths(monthOf(active), 1)}-${active.slice(8)}`,
    };
    const target = moves[event.key];
    if (!target) return;
    event.preventDefault();
    let day = target();
    // 31 March + one month is 31 April: take the month's last day
    while (event.key.startsWith('Page') && monthOf(day) !== addMonths(monthOf(active), event.key === 'PageUp' ? -1 : 1)) day = addDays(day, -1);
    move(day);
  };

  const monthLabel = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(dayAsDate(`${state.month}-15`));
  const weekdays = Array.from({ length: 7 }, (_, index) => dayAsDate(addDays('2024-01-01', index)));
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const full = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const labelId = 'svc-month-label';
  return (
    <>
      <Chosen state={state} />
      <div class="month-bar">
        <button
          type="button"
          class="icon-btn"
          aria-label={strings.previousMonth}
          disabled={!canShowPreviousMonth(state)}
          onClick={() => flow.dispatch({ type: 'showMonth', month: addMonths(state.month, -1) })}
        >
          <Icon path={ICONS.back} />
        </button>
        <span class="month" id={labelId} aria-live="polite">
          {monthLabel}
        </span>
        <button
          type="button"
          class="icon-btn"
          aria-label={strings.nextMonth}
          onClick={() => flow.dispatch({ type: 'showMonth', month: addMonths(state.month, 1) })}
        >
          <Icon path={ICONS.next} />
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker pattern is a table with role grid */}
      <table role="grid" aria-labelledby={labelId} ref={grid} onKeyDown={onKeyDown}>
        <thead>
          <tr>
            {weekdays.map((day) => (
              <th scope="col" abbr={full.format(day)} key={day.getTime()}>
                {short.format(day)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, row) => (
            <tr key={row}>
              {week.map((day, column) => {
                if (day === null) return <td key={column} />;
                const open = available.has(day);
                const selected = state.day === day;
                const classes = ['day', open && 'open', selected && 'selected', day === state.today && 'today'].filter(Boolean).join(' ');
                return (
                  <td key={day}>
                    <button
                      type="button"
                      class={classes}
                      data-day={day}
                      tabIndex={day === active ? 0 : -1}
                      aria-disabled={!open}
                      aria-label={`${longDay(day, locale)}${open ? '' : `, ${strings.unavailableDay}`}${selected ? `, ${strings.selected}` : ''}`}
                      onFocus={() => setFocused(day)}
                      onClick={() => open && flow.dispatch({ type: 'chooseDay', day })}
                    >
                      {Number(day.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {state.days.status === 'loading' && <p class="note">{strings.loading}</p>}
      {state.days.status === 'error' && <RetryLoad />}
      {state.days.status === 'ready' && state.days.value.length === 0 && <p class="note">{strings.noDaysThisMonth}</p>}
      <p class="zone">{strings.timesIn(state.config!.workspace.timezone)}</p>
      {(() => {
        const other = visitorZoneNote(state, state.day ?? (inMonth(state.today) ? state.today : `${state.month}-15`), widget);
        return other && <p class="zone">{other}</p>;
      })()}
    </>
  );
}
