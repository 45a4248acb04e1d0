import type { Signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { WidgetCustomField, WidgetService } from '../../src/core/widget-protocol.ts';
import type { BookingFlow } from './flow.ts';
import type { Strings } from './i18n.ts';
import { bookingIcs } from './ics.ts';
import { canShowPreviousMonth, chosenService, fieldsFor, offeredServices, type ErrorText, type FlowState, type Notice, type Step } from './machine.ts';
import { addDays, addMonths, dayAsDate, dayIn, formatWallTime, monthOf, monthWeeks, zonedInstant } from './time.ts';

export interface WidgetContext {
  flow: BookingFlow;
  strings: Strings;
  locale: string;
  visitorZone: string;
  /** the host of svc's address (the widget script's), as in `https://svc.example.com:8443` -> `svc.example.com:8443` */
  svcHost: string;
  /** the host element of the captcha, slotted into the form */
  mountCaptcha(): void;
}

const Icon = ({ path }: { path: string }) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d={path} />
  </svg>
);
const ICONS = {
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M15 18l-6-6 6-6',
  next: 'M9 18l6-6-6-6',
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  check: 'M5 12l5 5L20 7',
};

function stepTitle(step: Step, state: FlowState, strings: Strings): string {
  switch (step) {
    case 'loading':
      return strings.loading;
    case 'failed':
      return strings.loadFailed;
    case 'unavailable':
      return strings.stepUnavailable;
    case 'service':
      return strings.stepService;
    case 'day':
      return strings.stepDay;
    case 'time':
      return strings.stepTime;
    case 'details':
      return strings.stepDetails;
    case 'redirecting':
      return strings.redirecting;
    case 'done':
      return state.booking?.status === 'CONFIRMED' ? strings.stepDone : strings.stepPending;
  }
}

const errorText = (error: ErrorText, strings: Strings) => ('text' in error ? error.text : strings[error.id]);

function noticeText(notice: Notice, strings: Strings, workspaceName: string): string {
  switch (notice.kind) {
    case 'taken':
      return strings.slotTaken;
    case 'forbidden':
      return strings.notAllowed(workspaceName);
    case 'retry':
      return strings.retry;
    case 'fixFields':
      return strings.fixFields;
    case 'captcha':
      return strings.captcha;
    case 'server':
      return notice.text;
  }
}

function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

const longDay = (day: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(dayAsDate(day));

/** The chosen time in the visitor's own zone, when it is not the workspace's. */
function visitorTime(state: FlowState, ctx: WidgetContext): string | null {
  const zone = state.config!.workspace.timezone;
  if (!state.day || !state.time || ctx.visitorZone === zone) return null;
  const { epochMs } = zonedInstant(state.day, state.time, zone);
  const when = new Intl.DateTimeFormat(ctx.locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: state.config!.workspace.timeFormat === '12h' ? 'h12' : 'h23',
    timeZone: ctx.visitorZone,
  }).format(epochMs);
  // browsers name some zones by their legacy ids (Asia/Calcutta): a visitor reads "India Standard Time" more easily
  const name = new Intl.DateTimeFormat(ctx.locale, { timeZone: ctx.visitorZone, timeZoneName: 'longGeneric' })
    .formatToParts(epochMs)
    .find((part) => part.type === 'timeZoneName')?.value;
  return ctx.strings.yourTime(when, name && !name.startsWith('GMT') ? name : ctx.visitorZone);
}

/** The whole flow: header, notice, the current step, and the live region that announces step changes. */
export function Flow({ ctx, titleId, onClose }: { ctx: WidgetContext; titleId: string; onClose?: () => void }) {
  const state = ctx.flow.state.value;
  const { strings } = ctx;
  const heading = useRef<HTMLHeadingElement>(null);
  const title = stepTitle(state.step, state, strings);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    // The first step appears on its own; later ones follow the visitor's action, so focus and announce them.
    if (state.stepChanges <= 1) return;
    heading.current?.focus();
    setAnnouncement(title);
  }, [state.stepChanges]);

  const config = state.config;
  const canGoBack =
    (state.step === 'day' && (config ? offeredServices(config, state.providerId).length : 0) > 1) || state.step === 'time' || state.step === 'details';
  return (
    <>
      <div class="head">
        {canGoBack && (
          <button type="button" class="icon-btn" onClick={() => ctx.flow.dispatch({ type: 'back' })} aria-label={strings.back}>
            <Icon path={ICONS.back} />
          </button>
        )}
        {config?.workspace.logoUrl && <img class="logo" src={config.workspace.logoUrl} alt="" />}
        <div class="titles">
          {config && <p class="workspace">{config.workspace.name}</p>}
          <h2 id={titleId} ref={heading} tabIndex={-1}>
            {title}
          </h2>
        </div>
        {onClose && (
          <button type="button" class="icon-btn" aria-label={strings.close} onClick={onClose}>
            <Icon path={ICONS.close} />
          </button>
        )}
      </div>
      {state.notice && state.step !== 'unavailable' && state.notice.kind !== 'fixFields' && (
        <div class="notice" role="alert">
          {noticeText(state.notice, strings, config?.workspace.name ?? '')}
        </div>
      )}
      <StepBody state={state} ctx={ctx} />
      <p class="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </>
  );
}

function StepBody({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  const { strings } = ctx;
  switch (state.step) {
    case 'loading':
      return <p class="loading">{strings.loading}</p>;
    case 'failed':
      return (
        <div class="notice" role="alert">
          {strings.retry}
          <div>
            <button type="button" class="btn" onClick={() => ctx.flow.dispatch({ type: 'reload' })}>
              {strings.retryButton}
            </button>
          </div>
        </div>
      );
    case 'unavailable':
      return (
        <div class="notice" role="alert">
          {strings.notAllowed(state.config!.workspace.name)}
        </div>
      );
    case 'service':
      return <ServiceStep state={state} ctx={ctx} />;
    case 'day':
      return <DayStep state={state} ctx={ctx} />;
    case 'time':
      return <TimeStep state={state} ctx={ctx} />;
    case 'details':
      return <DetailsStep state={state} ctx={ctx} />;
    case 'redirecting':
      return (
        <p class="loading">
          <a class="btn" href={state.checkoutUrl!}>
            {strings.confirmAndPay}
          </a>
        </p>
      );
    case 'done':
      return <DoneStep state={state} ctx={ctx} />;
  }
}

function ServiceMeta({ service, ctx }: { service: WidgetService; ctx: WidgetContext }) {
  const price = service.price > 0 ? money(service.price, service.currency, ctx.locale) : ctx.strings.free;
  return (
    <>
      <span class="choice-top">
        <span>{service.name}</span>
        <span class="price">{price}</span>
      </span>
      <span class="choice-meta">
        {ctx.strings.minutes(service.duration)}
        {service.depositAmount !== null && service.depositAmount > 0 && ` · ${ctx.strings.deposit(money(service.depositAmount, service.currency, ctx.locale))}`}
      </span>
    </>
  );
}

function ServiceStep({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  return (
    <ul class="list">
      {offeredServices(state.config!, state.providerId).map((service) => (
        <li key={service.id}>
          <button type="button" class="choice" onClick={() => ctx.flow.dispatch({ type: 'chooseService', serviceId: service.id })}>
            <ServiceMeta service={service} ctx={ctx} />
            {service.description && <span class="choice-desc">{service.description}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

function Chosen({ state, ctx, withTime }: { state: FlowState; ctx: WidgetContext; withTime?: boolean }) {
  const service = chosenService(state)!;
  const workspace = state.config!.workspace;
  const parts = [
    service.name,
    state.day ? longDay(state.day, ctx.locale) : null,
    withTime && state.time ? formatWallTime(state.time, workspace.timeFormat, ctx.locale) : null,
  ];
  const provider = state.providerId ? state.config!.providers.find((one) => one.id === state.providerId)?.name : null;
  const other = withTime ? visitorTime(state, ctx) : null;
  return (
    <div class="chosen">
      <strong>{parts.filter(Boolean).join(' · ')}</strong>
      <p>
        {ctx.strings.minutes(service.duration)} · {service.price > 0 ? money(service.price, service.currency, ctx.locale) : ctx.strings.free}
      </p>
      {provider && (
        <p>
          {ctx.strings.summaryProvider} {provider}
        </p>
      )}
      {withTime && <p>{ctx.strings.timesIn(workspace.timezone)}</p>}
      {other && <p>{other}</p>}
    </div>
  );
}

function DayStep({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  const { strings, locale } = ctx;
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
    if (monthOf(day) !== state.month) ctx.flow.dispatch({ type: 'showMonth', month: monthOf(day) });
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
      <Chosen state={state} ctx={ctx} />
      <div class="month-bar">
        <button
          type="button"
          class="icon-btn"
          aria-label={strings.previousMonth}
          disabled={!canShowPreviousMonth(state)}
          onClick={() => ctx.flow.dispatch({ type: 'showMonth', month: addMonths(state.month, -1) })}
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
          onClick={() => ctx.flow.dispatch({ type: 'showMonth', month: addMonths(state.month, 1) })}
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
                      onClick={() => open && ctx.flow.dispatch({ type: 'chooseDay', day })}
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
      {state.days.status === 'error' && <RetryLoad ctx={ctx} />}
      {state.days.status === 'ready' && state.days.value.length === 0 && <p class="note">{strings.noDaysThisMonth}</p>}
      <p class="zone">{strings.timesIn(state.config!.workspace.timezone)}</p>
    </>
  );
}

function RetryLoad({ ctx }: { ctx: WidgetContext }) {
  return (
    <div class="notice" role="alert">
      {ctx.strings.retry}
      <div>
        <button type="button" class="btn" onClick={() => ctx.flow.dispatch({ type: 'retryLoad' })}>
          {ctx.strings.retryButton}
        </button>
      </div>
    </div>
  );
}

function TimeStep({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  const { timeFormat, timezone } = state.config!.workspace;
  return (
    <>
      <Chosen state={state} ctx={ctx} />
      {state.slots.status === 'loading' && <p class="loading">{ctx.strings.loading}</p>}
      {state.slots.status === 'error' && <RetryLoad ctx={ctx} />}
      {state.slots.status === 'ready' && state.slots.value.length === 0 && <p class="note">{ctx.strings.noTimes}</p>}
      {state.slots.status === 'ready' && (
        <ul class="times">
          {state.slots.value.map((time) => (
            <li key={time}>
              <button type="button" class="time" onClick={() => ctx.flow.dispatch({ type: 'chooseTime', time })}>
                {formatWallTime(time, timeFormat, ctx.locale)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="zone">{ctx.strings.timesIn(timezone)}</p>
    </>
  );
}

interface FieldProps {
  id: string;
  label: string;
  required: boolean;
  error: ErrorText | undefined;
  strings: Strings;
  children: (aria: Record<string, unknown>) => ComponentChildren;
}

function Field({ id, label, required, error, strings, children }: FieldProps) {
  const errorId = `${id}-error`;
  const aria = { id, 'aria-invalid': error ? 'true' : 'false', ...(error ? { 'aria-describedby': errorId } : {}), required };
  return (
    <div class="field">
      <label for={id}>
        {label}
        {!required && <span class="hint"> {strings.optional}</span>}
      </label>
      {children(aria)}
      {error && (
        <p class="error" id={errorId}>
          {errorText(error, strings)}
        </p>
      )}
    </div>
  );
}

// preact types an <input> by its literal `type`; these are all text-like inputs
type InputType = 'text' | 'tel' | 'email' | 'number' | 'date';
const INPUT_TYPES: Record<string, InputType> = { text: 'text', phone: 'tel', email: 'email', number: 'number', date: 'date' };

function CustomField({ field, state, ctx }: { field: WidgetCustomField; state: FlowState; ctx: WidgetContext }) {
  const name = `cf:${field.key}`;
  const id = `svc-cf-${field.key}`;
  const value = state.form.custom[field.key];
  const error = state.errors[name];
  const edit = (next: string | boolean) => ctx.flow.dispatch({ type: 'edit', field: name, value: next });
  if (field.type === 'checkbox') {
    const errorId = `${id}-error`;
    return (
      <div class="field">
        <div class="check">
          <input
            type="checkbox"
            id={id}
            checked={value === true}
            required={field.required}
            aria-invalid={error ? 'true' : 'false'}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => edit(event.currentTarget.checked)}
          />
          <label for={id}>
            {field.label}
            {!field.required && <span class="hint"> {ctx.strings.optional}</span>}
          </label>
        </div>
        {error && (
          <p class="error" id={errorId}>
            {errorText(error, ctx.strings)}
          </p>
        )}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <Field id={id} label={field.label} required={field.required} error={error} strings={ctx.strings}>
      {(aria) =>
        field.type === 'select' ? (
          <select {...aria} value={text} onChange={(event) => edit(event.currentTarget.value)}>
            <option value="">{field.placeholder ?? '—'}</option>
            {(field.options ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : field.type === 'textarea' ? (
          <textarea {...aria} value={text} placeholder={field.placeholder ?? undefined} onInput={(event) => edit(event.currentTarget.value)} />
        ) : (
          <input
            {...aria}
            type={(INPUT_TYPES[field.type] ?? 'text') as 'text'}
            value={text}
            placeholder={field.placeholder ?? undefined}
            inputMode={field.type === 'number' ? 'decimal' : undefined}
            onInput={(event) => edit(event.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}

function DetailsStep({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  const { strings } = ctx;
  const form = useRef<HTMLFormElement>(null);
  const focusInvalid = useRef(false);
  useEffect(() => {
    if (!focusInvalid.current || Object.keys(state.errors).length === 0) return;
    focusInvalid.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state.errors]);
  useEffect(() => {
    if (state.config!.booking.captcha) ctx.mountCaptcha();
  }, []);
  const plain = (field: 'name' | 'email' | 'phone' | 'notes', type: InputType, required: boolean, autoComplete: string) => (
    <Field id={`svc-${field}`} label={strings[field]} required={required} error={state.errors[field]} strings={strings}>
      {(aria) =>
        field === 'notes' ? (
          <textarea {...aria} value={state.form.notes} onInput={(event) => ctx.flow.dispatch({ type: 'edit', field, value: event.currentTarget.value })} />
        ) : (
          <input
            {...aria}
            type={type as 'text'}
            value={state.form[field]}
            autoComplete={autoComplete}
            onInput={(event) => ctx.flow.dispatch({ type: 'edit', field, value: event.currentTarget.value })}
          />
        )
      }
    </Field>
  );
  return (
    <>
      <Chosen state={state} ctx={ctx} withTime />
      {state.notice?.kind === 'fixFields' && (
        <p class="error" role="alert">
          {strings.fixFields}
        </p>
      )}
      <form
        ref={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          focusInvalid.current = true;
          ctx.flow.dispatch({ type: 'submit' });
        }}
      >
        {plain('name', 'text', true, 'name')}
        {plain('email', 'email', true, 'email')}
        {plain('phone', 'tel', false, 'tel')}
        {fieldsFor(state.config!, state.serviceId).map((field) => (
          <CustomField key={field.key} field={field} state={state} ctx={ctx} />
        ))}
        {plain('notes', 'text', false, 'off')}
        {state.config!.booking.captcha && <slot name="captcha" />}
        <button type="submit" class="btn wide" disabled={state.submitting} aria-disabled={state.submitting}>
          {state.submitting ? strings.sending : strings.confirm}
        </button>
      </form>
    </>
  );
}

function DoneStep({ state, ctx }: { state: FlowState; ctx: WidgetContext }) {
  const { strings, locale } = ctx;
  const booking = state.booking!;
  const workspace = state.config!.workspace;
  const service = chosenService(state);
  const serviceName = booking.serviceName ?? service?.name ?? '';
  const icsUrl = useMemo(
    () =>
      URL.createObjectURL(
        new Blob(
          [
            bookingIcs(booking, {
              workspaceName: workspace.name,
              serviceName,
              providerName: booking.providerName,
              svcHost: ctx.svcHost,
              now: new Date(),
            }),
          ],
          { type: 'text/calendar' },
        ),
      ),
    [booking.id],
  );
  useEffect(() => () => URL.revokeObjectURL(icsUrl), [icsUrl]);
  const day = dayIn(workspace.timezone, Date.parse(booking.startTime));
  const time = formatWallTime(state.time!, workspace.timeFormat, locale);
  const other = visitorTime({ ...state, day }, ctx);
  return (
    <>
      <span class="done-mark">
        <Icon path={ICONS.check} />
      </span>
      <dl>
        <dt>{strings.summaryService}</dt>
        <dd>{serviceName}</dd>
        <dt>{strings.summaryDay}</dt>
        <dd>{longDay(day, locale)}</dd>
        <dt>{strings.summaryTime}</dt>
        <dd>
          {time} <span class="hint">({workspace.timezone})</span>
        </dd>
        {booking.providerName && (
          <>
            <dt>{strings.summaryProvider}</dt>
            <dd>{booking.providerName}</dd>
          </>
        )}
      </dl>
      {other && <p class="note">{other}</p>}
      <p class="note">{booking.status === 'CONFIRMED' ? strings.confirmedNote(booking.customerEmail) : strings.pendingNote}</p>
      <div class="actions">
        <a class="btn" href={icsUrl} download={`booking-${booking.id}.ics`}>
          <Icon path={ICONS.calendar} />
          {strings.addToCalendar}
        </a>
        <button type="button" class="btn secondary" onClick={() => ctx.flow.dispatch({ type: 'restart' })}>
          {strings.bookAnother}
        </button>
      </div>
    </>
  );
}

/** Floating mode: the launcher and the modal dialog around the flow. */
export function FloatingWidget({
  ctx,
  open,
  label,
  onOpen,
  onClose,
}: {
  ctx: WidgetContext;
  open: Signal<boolean>;
  label: string;
  onOpen(): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const isOpen = open.value;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (isOpen && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>('h2')?.focus();
    } else if (!isOpen && element.open) {
      element.close();
      launcher.current?.focus();
    }
  }, [isOpen]);
  // Tab and Shift+Tab cycle inside the dialog: the page behind is inert, and focus must not leave to the browser.
  const trap = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, textarea, [tabindex="0"]')].filter(
      (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
    );
    const root = dialog.current.getRootNode() as ShadowRoot;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (root.activeElement === first || root.activeElement === dialog.current.querySelector('h2'))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && root.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  const titleId = 'svc-dialog-title';
  return (
    <>
      <button type="button" class="launcher" ref={launcher} aria-haspopup="dialog" aria-expanded={isOpen} onClick={onOpen}>
        <Icon path={ICONS.calendar} />
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={trap}
        onCancel={(event) => {
          event.preventDefault();
          onClose();
        }}
      >
        <div class="panel">{isOpen && <Flow ctx={ctx} titleId={titleId} onClose={onClose} />}</div>
      </dialog>
    </>
  );
}

/** Inline mode: the flow in place. */
export function InlineWidget({ ctx }: { ctx: WidgetContext }) {
  return (
    <section class="panel" aria-labelledby="svc-inline-title">
      <Flow ctx={ctx} titleId="svc-inline-title" />
    </section>
  );
}
