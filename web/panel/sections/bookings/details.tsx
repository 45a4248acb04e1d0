import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { call, type Booking } from '../../api/client.ts';
import { moneyOf, whenOf } from '../../format.ts';
import { customerOf, StatusBadge } from '../booking-parts.tsx';
import { FormOutcome, TextField, useForm, type SectionProps } from '../common.tsx';
import { ClassRoster, isClass } from './class-roster.tsx';
import { BookingMails } from './mails.tsx';
import { RefundAction } from './refund.tsx';
import { BookingRefunds } from './refunds.tsx';
import { SlotPicker } from './slot-picker.tsx';

interface DetailsProps extends SectionProps {
  booking: Booking;
  onClose: () => void;
  onChanged: (booking: Booking) => Promise<void>;
  /** the currency of the booking's service, when the catalogue is known */
  currency: string | null;
  /** the places per time of the booking's service, when the catalogue is known: a class (> 1) shows its roster */
  capacity: number | null;
  labels: Record<string, string>;
}

/** A booking's details, full-screen (focus mode at the host while it is open), with what may be done to it. */
export function BookingDetails({ client, workspace, can, notify, t, booking, onClose, onChanged, currency, capacity, labels }: DetailsProps) {
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
        {booking.payment && (
          <div>
            <dt>{t.payment}</dt>
            <dd data-payment={booking.payment.status}>{paymentText(workspace, booking, t)}</dd>
          </div>
        )}
        {booking.payment && booking.payment.refunded > 0 && (
          <div>
            <dt>{t.refundedTotal}</dt>
            <dd data-refunded>{moneyOf(workspace, booking.payment.refunded, booking.payment.currency)}</dd>
          </div>
        )}
        <div>
          <dt>{t.bookedAt}</dt>
          <dd>{whenOf(workspace, booking.createdAt)}</dd>
        </div>
      </dl>
      {isClass(capacity) && <ClassRoster client={client} workspace={workspace} can={can} t={t} notify={notify} booking={booking} capacity={capacity} />}
      {booking.payment && booking.payment.paid > 0 && <BookingRefunds client={client} workspace={workspace} t={t} booking={booking} />}
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
      {/* a refund moves money out of the business: both capabilities, as the route asks (docs/contract/payments.md §10) */}
      {can.operations && can.settings && booking.payment && (
        <RefundAction client={client} workspace={workspace} t={t} booking={booking} form={form} onChanged={onChanged} />
      )}
      <FormOutcome form={form} />
    </section>
  );
}

/**
 * The booking's `payment` in the words of the checkout page and the mails (docs/contract/payments.md §9):
 * "Deposit €20.00 now, €69.00 at the appointment"; with payments off, everything at the appointment.
 */
function paymentText(workspace: SectionProps['workspace'], booking: Booking, t: SectionProps['t']): string {
  const payment = booking.payment!;
  const words = t.paymentTerms;
  const m = (amount: number) => moneyOf(workspace, amount, payment.currency);
  let line: string;
  if (payment.status === 'pending') line = payment.due > 0 ? words.depositNow(m(booking.amount ?? 0), m(payment.due)) : words.allNow(m(booking.amount ?? 0));
  else if (payment.paid > 0) line = payment.due > 0 ? words.depositPaid(m(payment.paid), m(payment.due)) : words.allPaid(m(payment.paid));
  else line = words.allLater(m(payment.total));
  return payment.refunded > 0 ? `${line} ${words.refunded(m(payment.refunded))}` : line;
}
