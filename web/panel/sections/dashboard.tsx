/* Today, the next 7 days, and what waits for confirmation, with counts; PENDING bookings confirm in one click. */
import { useSignal } from '@preact/signals';
import { call, type Booking } from '../api/client.ts';
import { addDays, startOfDay, todayIn } from '../format.ts';
import { BookingLine, customerOf } from './booking-parts.tsx';
import { BrokenCalendars } from './calendars.tsx';
import { Loaded, messageOf, useLoad, type SectionProps } from './common.tsx';
import { FirstSteps } from './first-steps.tsx';

interface Overview {
  today: Booking[];
  week: Booking[];
  pending: Booking[];
}

export function Dashboard(props: SectionProps) {
  const { client, workspace, can, notify, t } = props;
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

  const declining = useSignal<string | null>(null);
  /** confirm (or mark paid, or decline) a PENDING booking, then say what was done */
  const settle = async (booking: Booking, action: 'confirm' | 'mark-paid' | 'cancel') => {
    outcome.value = null;
    const path = { slug, bookingId: booking.id };
    try {
      if (action === 'confirm') await call(client.POST('/workspaces/{slug}/bookings/{bookingId}/confirm', { params: { path } }));
      else if (action === 'mark-paid') await call(client.POST('/workspaces/{slug}/bookings/{bookingId}/mark-paid', { params: { path } }));
      else await call(client.POST('/workspaces/{slug}/bookings/{bookingId}/cancel', { params: { path }, body: {} }));
      declining.value = null;
      notify({ type: 'svc:panel:changed' });
      const name = customerOf(booking);
      outcome.value = { ok: true, text: action === 'confirm' ? t.confirmed(name) : action === 'mark-paid' ? t.markedPaid(name) : t.declined(name) };
      await reload();
    } catch (error) {
      outcome.value = { ok: false, text: messageOf(error, t) };
    }
  };

  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {(overview) => (
        <div class="dashboard">
          <FirstSteps {...props} />
          <BrokenCalendars {...props} />
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
                    {can.operations
                      && (declining.value === booking.id ? (
                        <span class="actions decline-ask">
                          <span>{t.declineAsk(customerOf(booking))}</span>
                          <button type="button" class="danger" onClick={() => settle(booking, 'cancel')}>
                            {t.declineNow}
                          </button>
                          <button type="button" onClick={() => (declining.value = null)}>
                            {t.keep}
                          </button>
                        </span>
                      ) : (
                        <span class="actions">
                          {booking.awaitingPayment ? (
                            <button
                              type="button"
                              class="primary"
                              onClick={() => settle(booking, 'mark-paid')}
                              aria-label={`${t.markPaid}: ${customerOf(booking)}`}
                            >
                              {t.markPaid}
                            </button>
                          ) : (
                            <button
                              type="button"
                              class="primary"
                              onClick={() => settle(booking, 'confirm')}
                              aria-label={`${t.confirm}: ${customerOf(booking)}`}
                            >
                              {t.confirm}
                            </button>
                          )}
                          <button type="button" onClick={() => (declining.value = booking.id)} aria-label={`${t.decline}: ${customerOf(booking)}`}>
                            {t.decline}
                          </button>
                        </span>
                      ))}
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
