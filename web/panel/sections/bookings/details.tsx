import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { call, type Booking } from '../../api/client.ts';
import { moneyOf, whenOf } from '../../format.ts';
import { customerOf, StatusBadge } from '../booking-parts.tsx';
import { FormOutcome, TextField, useForm, type SectionProps } from '../common.tsx';
import { BookingMails } from './mails.tsx';
import { SlotPicker } from './slot-picker.tsx';

interface DetailsProps extends SectionProps {
  booking: Booking;
  onClose: () => void;
  onChanged: (booking: Booking) => Promise<void>;
  /** the currency of the booking's service, when the catalogue is known */
  currency: string | null;
  labels: Record<string, string>;
}

/** A booking's details, full-screen (focus mode at the host while it is open), with what may be done to it. */
export function BookingDetails({ client, workspace, can, notify, t, booking, onClose, onChanged, currency, labels }: DetailsProps) {
  const slug = workspace.slug;
  const form = useForm(t);
  const cancelling = useSignal(false);
  const moving = useSignal(false);
  const reason = useSignal('');
  useEffect(() => {
    notify({ type: 'svc:panel:focus-mode', enabled: true });
    document.getElementById('booking-title')?.focus();
    return () => notify({ type: 'svc:panel:focus-mode', enabled: false });
  }, []);
  const path = { slug, bookingId: booking.id };
  const act = (action: () => Promise<{ booking: Booking }>) =>
    form.run(async () => {
      const answer = await action();
      cancelling.value = false;
      moving.value = false;
      await onChanged(answer.booking);
      return t.saved;
    });
  const answers = Object.entries(booking.customFields ?? {});
  const live = booking.status === 'PENDING' || booking.status === 'CONFIRMED';
  const payment = paymentOf(booking);
  return (
    <section class="details card" aria-labelledby="booking-title">
      <div class="section-head">
        <h3 id="booking-title" tabIndex={-1}>
          {t.details_of(customerOf(booking))}
        </h3>
        <button type="button" onClick={onClose}>
          {t.close}
        </button>
      </div>
      <dl class="facts-list">
        <div>
          <dt>{t.status}</dt>
          <dd>
            <StatusBadge booking={booking} t={t} />
          </dd>
        </div>
        <div>
          <dt>{t.when}</dt>
          <dd>
            {whenOf(workspace, booking.startTime)} – {whenOf(workspace, booking.endTime).split(', ').pop()} <span class="muted">({workspace.timezone})</span>
          </dd>
        </div>
        <div>
          <dt>{t.service}</dt>
          <dd>{booking.serviceName ?? '—'}</dd>
        </div>
        <div>
          <dt>{t.provider}</dt>
          <dd>{booking.providerName ?? '—'}</dd>
        </div>
        <div>
          <dt>{t.customer}</dt>
          <dd>{booking.customerName ?? '—'}</dd>
        </div>
        <div>
          <dt>{t.email}</dt>
          <dd>{booking.customerEmail}</dd>
        </div>
        {booking.phone && (
          <div>
            <dt>{t.phone}</dt>
            <dd>{booking.phone}</dd>
          </div>
        )}
        {booking.notes && (
          <div>
            <dt>{t.notes}</dt>
            <dd>{booking.notes}</dd>
          </div>
        )}
        <div>
          <dt>{t.amount}</dt>
          <dd>{booking.amount ? (currency ? moneyOf(workspace, booking.amount, currency) : booking.amount.toFixed(2)) : t.free}</dd>
        </div>
        {booking.status === 'CANCELLED' && booking.cancelReason && (
          <div>
            <dt>{t.cancelReason}</dt>
            <dd>{booking.cancelReason}</dd>
          </div>
        )}
        {payment && (
          <div>
            <dt>{t.payment}</dt>
            <dd data-payment={payment}>{t.paymentState[payment]}</dd>
          </div>
        )}
        <div>
          <dt>{t.bookedAt}</dt>
          <dd>{whenOf(workspace, booking.createdAt)}</dd>
        </div>
      </dl>
      <h4>{t.answers}</h4>
      {answers.length === 0 ? (
        <p class="muted">{t.noAnswers}</p>
      ) : (
        <dl class="facts-list">
          {answers.map(([key, value]) => (
            <div key={key}>
              <dt>{labels[key] ?? key}</dt>
              <dd>{typeof value === 'boolean' ? (value ? '✓' : '—') : String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <BookingMails client={client} workspace={workspace} t={t} booking={booking} />
      {can.operations && live && (
        <div class="actions">
          {booking.status === 'PENDING'
            && (booking.awaitingPayment ? (
              <button
                type="button"
                class="primary"
                disabled={form.busy.value}
                onClick={() => act(() => call(client.POST('/workspaces/{slug}/bookings/{bookingId}/mark-paid', { params: { path } })))}
              >
                {t.markPaid}
              </button>
            ) : (
              <button
                type="button"
                class="primary"
                disabled={form.busy.value}
                onClick={() => act(() => call(client.POST('/workspaces/{slug}/bookings/{bookingId}/confirm', { params: { path } })))}
              >
                {t.confirm}
              </button>
            ))}
          {/* a booking can be marked completed once it has started (the API refuses it before) */}
          {booking.status === 'CONFIRMED' && Date.parse(booking.startTime) <= Date.now() && (
            <button
              type="button"
              disabled={form.busy.value}
              onClick={() => act(() => call(client.POST('/workspaces/{slug}/bookings/{bookingId}/complete', { params: { path } })))}
            >
              {t.complete}
            </button>
          )}
          <button
            type="button"
            aria-expanded={moving.value}
            onClick={() => {
              moving.value = !moving.value;
              cancelling.value = false;
            }}
          >
            {t.reschedule}
          </button>
          <button
            type="button"
            class="danger"
            aria-expanded={cancelling.value}
            onClick={() => {
              cancelling.value = !cancelling.value;
              moving.value = false;
            }}
          >
            {t.cancelBooking}
          </button>
        </div>
      )}
      {cancelling.value && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void act(() =>
              call(
                client.POST('/workspaces/{slug}/bookings/{bookingId}/cancel', {
                  params: { path },
                  body: reason.value.trim() ? { reason: reason.value.trim() } : {},
                }),
              ),
            );
          }}
        >
          <TextField label={`${t.reason} ${t.optional}`} name="reason" form={form} value={reason} />
          <div class="actions">
            <button type="submit" class="danger" disabled={form.busy.value}>
              {t.cancelNow}
            </button>
            {booking.seriesId && (
              <button
                type="button"
                class="danger"
                disabled={form.busy.value}
                onClick={() =>
                  act(async () => {
                    // "this and later ones" (docs/contract/series.md §3): the series route from this date on
                    const answer = await call(
                      client.POST('/workspaces/{slug}/series/{seriesId}/cancel', {
                        params: { path: { slug, seriesId: booking.seriesId! } },
                        body: { from: booking.startTime, ...(reason.value.trim() ? { reason: reason.value.trim() } : {}) },
                      }),
                    );
                    return { booking: answer.series.bookings.find((occurrence) => occurrence.id === booking.id) ?? booking };
                  })
                }
              >
                {t.cancelLater}
              </button>
            )}
            <button type="button" onClick={() => (cancelling.value = false)}>
              {t.keep}
            </button>
          </div>
        </form>
      )}
      {moving.value && (
        <SlotPicker
          client={client}
          workspace={workspace}
          t={t}
          serviceId={booking.serviceId}
          providerId={booking.providerId}
          submitLabel={t.moveHere}
          busy={form.busy.value}
          onPick={(date) => act(() => call(client.POST('/workspaces/{slug}/bookings/{bookingId}/reschedule', { params: { path }, body: { date } })))}
        />
      )}
      <FormOutcome form={form} />
    </section>
  );
}

/**
 * What the API tells about a booking's payment (docs/contract/lifecycle.md, docs/contract/payments.md): with a sum due, a PENDING booking is not
 * paid (a payment received confirms it) and a CONFIRMED or COMPLETED one has nothing open in svc. Of a cancelled one
 * the booking alone does not say whether money went in, so nothing is claimed; a free booking has no payment.
 */
function paymentOf(booking: Booking): 'open' | 'settled' | null {
  if (!booking.amount || booking.status === 'CANCELLED') return null;
  return booking.status === 'PENDING' ? 'open' : 'settled';
}
