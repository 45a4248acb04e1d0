/* Today, the next 7 days, and what waits for confirmation, with counts; PENDING bookings confirm in one click. */
import { useSignal } from '@preact/signals';
import { call, type Booking } from '../api/client.ts';
import { addDays, startOfDay, todayIn } from '../format.ts';
import { BookingLine, customerOf } from './booking-parts.tsx';
import { Loaded, messageOf, useLoad, type SectionProps } from './common.tsx';

interface Overview {
  today: Booking[];
  week: Booking[];
  pending: Booking[];
}

export function Dashboard({ client, workspace, can, notify, t }: SectionProps) {
  const slug = workspace.slug;
  const outcome = useSignal<{ ok: boolean; text: string } | null>(null);
  const { state, reload } = useLoad<Overview>(
    async () => {
      const today = todayIn(workspace);
      const from = startOfDay(workspace, today);
      const tomorrow = startOfDay(workspace, addDays(today, 1));
      const to = startOfDay(workspace, addDays(today, 8));
      const path = { slug };
      const [week, pending] = await Promise.all([
        call(client.GET('/workspaces/{slug}/bookings', { params: { path, query: { from, to, limit: 100 } } })),
        call(client.GET('/workspaces/{slug}/bookings', { params: { path, query: { status: 'PENDING', from, limit: 100 } } })),
      ]);
      const live = week.bookings.filter((booking) => booking.status !== 'CANCELLED');
      return {
        today: live.filter((booking) => booking.startTime < new Date(tomorrow).toISOString()),
        week: live.filter((booking) => booking.startTime >= new Date(tomorrow).toISOString()),
        pending: pending.bookings,
      };
    },
    [slug],
    t,
  );

  const confirm = async (booking: Booking) => {
    outcome.value = null;
    try {
      await call(client.POST('/workspaces/{slug}/bookings/{bookingId}/confirm', { params: { path: { slug, bookingId: booking.id } } }));
      notify({ type: 'svc:panel:changed' });
      outcome.value = { ok: true, text: t.confirmed(customerOf(booking)) };
      await reload();
    } catch (error) {
      outcome.value = { ok: false, text: messageOf(error, t) };
    }
  };

  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {(overview) => (
        <div class="dashboard">
          <p class="muted zone">{t.timesIn(workspace.timezone)}</p>
          <dl class="counts">
            <div>
              <dt>{t.today}</dt>
              <dd data-count="today">{overview.today.length}</dd>
            </div>
            <div>
              <dt>{t.next7}</dt>
              <dd data-count="week">{overview.week.length}</dd>
            </div>
            <div class={overview.pending.length > 0 ? 'attention' : ''}>
              <dt>{t.waiting}</dt>
              <dd data-count="pending">{overview.pending.length}</dd>
            </div>
          </dl>
          {outcome.value && (
            <p role={outcome.value.ok ? 'status' : 'alert'} class={outcome.value.ok ? 'done' : 'problem'}>
              {outcome.value.text}
            </p>
          )}
          <section aria-labelledby="pending-title" class="card">
            <h3 id="pending-title">{t.waiting}</h3>
            {overview.pending.length === 0 ? (
              <p class="muted">{t.nothingWaiting}</p>
            ) : (
              <ul class="bookings">
                {overview.pending.map((booking) => (
                  <li key={booking.id}>
                    <BookingLine booking={booking} workspace={workspace} t={t} />
                    {can.operations && (
                      <button type="button" class="primary" onClick={() => confirm(booking)} aria-label={`${t.confirm}: ${customerOf(booking)}`}>
                        {t.confirm}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="today-title" class="card">
            <h3 id="today-title">{t.today}</h3>
            {overview.today.length === 0 ? (
              <p class="muted">{t.noBookingsToday}</p>
            ) : (
              <ul class="bookings">
                {overview.today.map((booking) => (
                  <li key={booking.id}>
                    <BookingLine booking={booking} workspace={workspace} t={t} dayShown={false} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="week-title" class="card">
            <h3 id="week-title">{t.next7}</h3>
            {overview.week.length === 0 ? (
              <p class="muted">{t.noBookingsWeek}</p>
            ) : (
              <ul class="bookings">
                {overview.week.map((booking) => (
                  <li key={booking.id}>
                    <BookingLine booking={booking} workspace={workspace} t={t} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Loaded>
  );
}
