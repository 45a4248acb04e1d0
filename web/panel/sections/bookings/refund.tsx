import { useSignal } from '@preact/signals';
import { call, type Booking } from '../../api/client.ts';
import { moneyOf } from '../../format.ts';
import { TextField, type FormState, type SectionProps } from '../common.tsx';

interface RefundProps extends Pick<SectionProps, 'client' | 'workspace' | 't'> {
  booking: Booking;
  form: FormState;
  onChanged: (booking: Booking) => Promise<void>;
}

/** The number of decimals the currency has (EUR 2, JPY 0): a refund of a fraction of a cent is refused by the API. */
function decimalsOf(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * "Refund" on a booking with money paid and not all given back (docs/contract/payments.md §10): the amount,
 * prefilled with all that can be refunded (less refunds part of it), then a confirmation with the sum in words,
 * then the refund route. The caller shows it only to a session with both capabilities, as the route requires.
 */
export function RefundAction({ client, workspace, t, booking, form, onChanged }: RefundProps) {
  const payment = booking.payment!;
  const decimals = decimalsOf(payment.currency);
  const scale = 10 ** decimals;
  const refundableMinor = Math.round(payment.paid * scale) - Math.round(payment.refunded * scale);
  const m = (minor: number) => moneyOf(workspace, minor / scale, payment.currency);
  const open = useSignal(false);
  const amount = useSignal('');
  /** the amount asked for, in minor units, while the confirmation is shown */
  const asking = useSignal<number | null>(null);
  if (refundableMinor <= 0) return null;

  const start = () => {
    open.value = !open.value;
    asking.value = null;
    amount.value = (refundableMinor / scale).toFixed(decimals);
    form.fields.value = {};
    form.message.value = null;
  };
  const check = () => {
    // people type "20,50" as often as "20.50"
    const text = amount.value.trim().replace(',', '.');
    const minor = Math.round(Number(text) * scale);
    const fraction = text.split('.')[1] ?? '';
    if (!/^\d+(\.\d+)?$/.test(text) || fraction.length > decimals || minor <= 0 || minor > refundableMinor) {
      form.fields.value = { amount: t.refundInvalid(m(refundableMinor)) };
      form.message.value = t.fixFields;
      return;
    }
    form.fields.value = {};
    form.message.value = null;
    asking.value = minor;
  };
  const refund = (minor: number) =>
    form.run(async () => {
      const answer = await call(
        client.POST('/workspaces/{slug}/bookings/{bookingId}/refund', {
          params: { path: { slug: workspace.slug, bookingId: booking.id } },
          body: { amount: minor / scale },
        }),
      );
      open.value = false;
      asking.value = null;
      await onChanged(answer.booking);
      return t.refundDone(m(Math.round(answer.refund.amount * scale)));
    });

  return (
    <>
      <div class="actions">
        <button type="button" aria-expanded={open.value} onClick={start}>
          {t.refund}
        </button>
      </div>
      {open.value
        && (asking.value === null ? (
          <form
            class="inline-form"
            aria-label={t.refund}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              check();
            }}
          >
            <TextField label={t.refundAmount} name="amount" form={form} value={amount} hint={t.refundHint(m(refundableMinor))} />
            <div class="actions">
              <button type="submit" class="danger">
                {t.refundNext}
              </button>
              <button type="button" onClick={() => (open.value = false)}>
                {t.cancel}
              </button>
            </div>
          </form>
        ) : (
          <fieldset class="inline-form">
            <legend>{t.refundAsk(m(asking.value))}</legend>
            <div class="actions">
              <button type="button" class="danger" disabled={form.busy.value} onClick={() => void refund(asking.value!)}>
                {t.refundConfirm}
              </button>
              <button
                type="button"
                disabled={form.busy.value}
                onClick={() => {
                  asking.value = null;
                  open.value = false;
                }}
              >
                {t.cancel}
              </button>
            </div>
          </fieldset>
        ))}
    </>
  );
}
