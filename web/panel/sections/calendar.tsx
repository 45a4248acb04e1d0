/*
 * A week per provider, bookings placed on their times in the workspace's zone; full-screen at the host while open.
 * Each booking opens its details; a short one too small for its text carries it in its title and accessible name.
 * On a narrow screen the week scrolls sideways and opens on today. "Why not free?" under the week says why a time
 * cannot be booked (docs/contract/calendars.md §12): a click on an empty time of the week asks it of that time (to
 * the quarter hour), the form asks it from the keyboard.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { call, type Booking, type Service } from '../api/client.ts';
import { addDays, dayIn, longDayOf, minutesInDay, shortDayOf, startOfDay, timeOf, todayIn, wallTimeOf } from '../format.ts';
import { weekday } from '../../widget/time.ts';
import { customerOf, statusOf } from './booking-parts.tsx';
import { Loaded, useId, useLoad, type SectionProps } from './common.tsx';
import { useWhyNotFree, WhyNotFree } from './why-not-free.tsx';

const HOUR_PX = 64;

export function Calendar({ client, workspace, notify, t, navigate }: SectionProps) {
  const slug = workspace.slug;
  const today = todayIn(workspace);
  const monday = useSignal(addDays(today, 1 - weekday(today)));
  const providerId = useSignal('');
  const selectId = useId('provider');
  useEffect(() => {
    notify({ type: 'svc:panel:focus-mode', enabled: true });
    return () => notify({ type: 'svc:panel:focus-mode', enabled: false });
  }, []);
  const providers = useLoad(
    async () => {
      const answer = await call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } }));
      const active = answer.providers.filter((provider) => provider.active);
      if (!providerId.value && active[0]) providerId.value = active[0].id;
      return active;
    },
    [slug],
    t,
  );
  const services = useLoad(
    async () => (await call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } }))).services.filter((service) => service.active),
    [slug],
    t,
  );
  const why = useWhyNotFree(client, slug, t);
  const week = useLoad(
    async () => {
      const found: Booking[] = [];
      let cursor: string | null = null;
      const query = { from: startOfDay(workspace, monday.value), to: startOfDay(workspace, addDays(monday.value, 7)), limit: 100 };
      do {
        const answer: { bookings: Booking[]; nextCursor: string | null } = await call(
          client.GET('/workspaces/{slug}/bookings', { params: { path: { slug }, query: { ...query, ...(cursor ? { cursor } : {}) } } }),
        );
        found.push(...answer.bookings);
        cursor = answer.nextCursor;
      } while (cursor && found.length < 1000);
      return found.filter((booking) => booking.status !== 'CANCELLED');
    },
    [slug, monday.value],
    t,
  );
  const days = Array.from({ length: 7 }, (_, index) => addDays(monday.value, index));
  // "Why not free?" asks of a day of the week shown: today while it is shown, else its Monday
  if (!days.includes(why.day.peek())) why.day.value = days.includes(today) ? today : days[0]!;
  const provider = providers.state.value.phase === 'ready' ? providers.state.value.data.find((candidate) => candidate.id === providerId.value) : undefined;
  const offered: Service[] =
    provider && services.state.value.phase === 'ready' ? services.state.value.data.filter((service) => provider.serviceIds.includes(service.id)) : [];
  /** a click on an empty time of the week: that day, the time under the pointer to the quarter hour */
  const askAt = (day: string, hour: number, event: MouseEvent) => {
    if (!provider) return;
    const quarter = Math.min(3, Math.max(0, Math.floor((event.offsetY / HOUR_PX) * 4)));
    why.day.value = day;
    why.time.value = `${String(hour).padStart(2, '0')}:${String(quarter * 15).padStart(2, '0')}`;
    void why.ask(provider, offered.find((service) => service.id === why.serviceId.value) ?? offered[0]);
    document.querySelector('.why-answer')?.scrollIntoView({ block: 'nearest' });
  };
  const grid = useRef<HTMLElement>(null);
  // a week wider than the screen opens on today, not on Monday
  useEffect(() => {
    const element = grid.current;
    const column = element?.querySelector<HTMLElement>('.day-column.is-today');
    if (!element || !column || element.scrollWidth <= element.clientWidth) return;
    const labels = element.querySelector<HTMLElement>('.hour-labels')?.offsetWidth ?? 0;
    element.scrollLeft = column.offsetLeft - element.offsetLeft - labels;
  }, [week.state.value.phase, monday.value]);
  if (providers.state.value.phase === 'ready' && providers.state.value.data.length === 0) {
    return (
      <div class="empty">
        <p>{t.noProviders}</p>
        <button type="button" onClick={() => navigate({ section: 'providers', bookingId: null })}>
          {t.goToProviders}
        </button>
      </div>
    );
  }
  return (
    <div class="calendar">
      <div class="calendar-bar">
        <Loaded load={providers.state.value} t={t} retry={providers.reload}>
          {(list) => (
            <div class="field">
              <label for={selectId}>{t.provider}</label>
              <select id={selectId} value={providerId.value} onChange={(event) => (providerId.value = event.currentTarget.value)}>
                {list.map((provider) => (
                  <option key={provider.id} value={provider.id}>
                    {provider.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Loaded>
        <div class="actions">
          <button type="button" onClick={() => (monday.value = addDays(monday.value, -7))}>
            ← <span class="sr-only">{t.previousWeek}</span>
          </button>
          <button type="button" onClick={() => (monday.value = addDays(today, 1 - weekday(today)))}>
            {t.thisWeek}
          </button>
          <button type="button" onClick={() => (monday.value = addDays(monday.value, 7))}>
            <span class="sr-only">{t.nextWeek}</span> →
          </button>
        </div>
        <p class="muted zone">
          {longDayOf(workspace, days[0]!)} – {longDayOf(workspace, days[6]!)} · {t.timesIn(workspace.timezone)}
        </p>
      </div>
      <Loaded load={week.state.value} t={t} retry={week.reload}>
        {(bookings) => {
          const mine = bookings.filter((booking) => booking.providerId === providerId.value);
          const starts = mine.map((booking) => minutesInDay(workspace, booking.startTime));
          const first = Math.min(8, ...starts.map((minutes) => Math.floor(minutes / 60)));
          const last = Math.max(19, ...mine.map((booking) => Math.ceil((minutesInDay(workspace, booking.endTime) || 1440) / 60)));
          const hours = Array.from({ length: last - first }, (_, index) => first + index);
          return (
            <>
              {mine.length === 0 && <p class="muted">{t.noBookingsThisWeek}</p>}
              <section
                ref={grid}
                class="week-grid"
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll the week sideways (axe scrollable-region-focusable)
                tabIndex={0}
                aria-label={`${t.week}: ${longDayOf(workspace, days[0]!)} – ${longDayOf(workspace, days[6]!)}`}
                style={{ '--hours': hours.length, '--hour-px': `${HOUR_PX}px` }}
              >
                <div class="hour-labels" aria-hidden="true">
                  {hours.map((hour) => (
                    <span key={hour}>{String(hour).padStart(2, '0')}:00</span>
                  ))}
                </div>
                {days.map((day) => (
                  <section key={day} class={`day-column${day === today ? ' is-today' : ''}`} data-day={day} aria-label={longDayOf(workspace, day)}>
                    <h3>{shortDayOf(workspace, day)}</h3>
                    <ul>
                      {hours.map((hour) => (
                        <li key={`hour-${hour}`} class="hour-cell" style={{ top: `${(hour - first) * HOUR_PX}px`, height: `${HOUR_PX}px` }}>
                          {/* the mouse's way to ask; the keyboard's is the form under the week (one stop, not one per hour) */}
                          <button
                            type="button"
                            tabIndex={-1}
                            aria-label={t.whyAt(`${shortDayOf(workspace, day)}, ${wallTimeOf(workspace, `${String(hour).padStart(2, '0')}:00`)}`)}
                            title={t.whyNotFree}
                            onClick={(event) => askAt(day, hour, event)}
                          />
                        </li>
                      ))}
                      {mine
                        .filter((booking) => dayIn(workspace.timezone, Date.parse(booking.startTime)) === day)
                        .map((booking) => {
                          const top = ((minutesInDay(workspace, booking.startTime) - first * 60) / 60) * HOUR_PX;
                          const height = Math.max(30, ((Date.parse(booking.endTime) - Date.parse(booking.startTime)) / 3_600_000) * HOUR_PX);
                          const status = booking.status === 'PENDING' ? ` · ${statusOf(booking, t)}` : '';
                          const said = `${timeOf(workspace, booking.startTime)}–${timeOf(workspace, booking.endTime)} ${customerOf(booking)} · ${booking.serviceName ?? ''}${status}`;
                          return (
                            <li key={booking.id} class={`placed status-${booking.status.toLowerCase()}`} style={{ top: `${top}px`, height: `${height}px` }}>
                              <button type="button" class="placed-open" title={said} onClick={() => navigate({ section: 'bookings', bookingId: booking.id })}>
                                {/* the name is the text, with what a short booking's box cannot show */}
                                <span class="sr-only">{t.details}: </span>
                                <strong>{timeOf(workspace, booking.startTime)}</strong>
                                <span class="sr-only"> – {timeOf(workspace, booking.endTime)}</span> {customerOf(booking)}
                                <span class="muted">
                                  {' '}
                                  · {booking.serviceName}
                                  {status}
                                </span>
                              </button>
                            </li>
                          );
                        })}
                    </ul>
                  </section>
                ))}
              </section>
            </>
          );
        }}
      </Loaded>
      {provider && services.state.value.phase === 'ready' && (
        <WhyNotFree why={why} workspace={workspace} t={t} days={days} provider={provider} services={offered} />
      )}
    </div>
  );
}
