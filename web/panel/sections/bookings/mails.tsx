import { call, type Booking, type PanelClient, type Schemas, type Workspace } from '../../api/client.ts';
import { whenOf } from '../../format.ts';
import type { Strings } from '../../i18n.ts';
import { Loaded, useLoad } from '../common.tsx';

type BookingMail = Schemas['BookingMail'];

/** The customer's mails of a booking (GET …/bookings/{id}/mails), oldest first: what was sent, waits or failed. */
export function BookingMails({ client, workspace, t, booking }: { client: PanelClient; workspace: Workspace; t: Strings; booking: Booking }) {
  const mails = useLoad(
    async () =>
      (await call(client.GET('/workspaces/{slug}/bookings/{bookingId}/mails', { params: { path: { slug: workspace.slug, bookingId: booking.id } } }))).mails,
    // a move writes a new mail, and so does each refund: read again after each
    [booking.id, booking.status, booking.startTime, booking.payment?.refunded],
    t,
  );
  const stateOf = (mail: BookingMail) => {
    if (mail.status === 'sent') return t.mailSent(mail.sentAt ? whenOf(workspace, mail.sentAt) : '');
    if (mail.status === 'pending') return mail.nextAttemptAt && Number(mail.attempts) > 0 ? t.mailRetry(whenOf(workspace, mail.nextAttemptAt)) : t.mailPending;
    if (mail.status === 'failed') return t.mailFailed(mail.lastError);
    return t.mailDropped;
  };
  return (
    <>
      <h4>{t.mails}</h4>
      <Loaded load={mails.state.value} t={t} retry={mails.reload}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">{t.noMails}</p>
          ) : (
            <ul class="items mails">
              {list.map((mail) => (
                <li key={mail.id} data-mail={mail.kind} data-state={mail.status}>
                  <span class="item-main">
                    <strong>{t.mailKinds[mail.kind]}</strong>
                    <span class={mail.status === 'failed' ? 'problem' : 'muted'}>{stateOf(mail)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}
