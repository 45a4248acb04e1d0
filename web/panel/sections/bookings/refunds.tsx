import { call, type Booking, type PanelClient, type Workspace } from '../../api/client.ts';
import { moneyOf, whenOf } from '../../format.ts';
import type { Strings } from '../../i18n.ts';
import { Loaded, useLoad } from '../common.tsx';

/**
 * Each refund of a booking (GET …/bookings/{id}/refunds, docs/contract/payments.md §10), oldest first: its amount,
 * when it was asked for, and its state. Nothing is shown while the booking has none.
 */
export function BookingRefunds({ client, workspace, t, booking }: { client: PanelClient; workspace: Workspace; t: Strings; booking: Booking }) {
  const refunds = useLoad(
    async () =>
      (await call(client.GET('/workspaces/{slug}/bookings/{bookingId}/refunds', { params: { path: { slug: workspace.slug, bookingId: booking.id } } })))
        .refunds,
    // every refund given raises the booking's refunded sum: read again after each
    [booking.id, booking.payment?.refunded],
    t,
  );
  if (refunds.state.value.phase === 'ready' && refunds.state.value.data.length === 0) return null;
  return (
    <>
      <h4>{t.refunds}</h4>
      <Loaded load={refunds.state.value} t={t} retry={refunds.reload}>
        {(list) => (
          <ul class="items refunds">
            {list.map((refund) => (
              <li key={refund.id} data-refund={refund.id} data-state={refund.status}>
                <span class="item-main">
                  <strong>{t.refundLine(moneyOf(workspace, refund.amount, refund.currency), whenOf(workspace, refund.createdAt))}</strong>
                  <span class={refund.status === 'failed' ? 'problem' : 'muted'}>{t.refundStates[refund.status]}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </>
  );
}
