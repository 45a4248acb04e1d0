import { useSignal } from '@preact/signals';
import { call, type Booking, type Schemas } from '../../api/client.ts';
import { dayIn, whenOf } from '../../format.ts';
import { StatusBadge } from '../booking-parts.tsx';
import { FormOutcome, Loaded, useForm, useLoad, type SectionProps } from '../common.tsx';

type WaitlistEntry = Schemas['WaitlistEntry'];

interface RosterProps extends Pick<SectionProps, 'client' | 'workspace' | 'can' | 't' | 'notify'> {
  /** a booking of the class: the time shown is its start, on its provider */
  booking: Booking;
  /** the places of the class (its service's capacity, > 1) */
  capacity: number;
}

/** Bookings that hold a place: a cancelled one gave it back. */
const holds = (booking: Booking) => booking.status !== 'CANCELLED';

/**
 * A class's time (docs/contract/classes.md §1–§3) in a booking's details: who booked it (name, email, status) with
 * "N of capacity places taken", and the waiting list of that time in order of arrival (status, joined at, held
 * until for an offer), each entry removable after a confirmation (DELETE …/waitlist/{id}; a removed offer's place
 * goes to the next in line). Read again after every change of the booking shown and after each removal.
 */
export function ClassRoster({ client, workspace, can, t, notify, booking, capacity }: RosterProps) {
  const slug = workspace.slug;
  const start = Date.parse(booking.startTime);
  const form = useForm(t);
  /** the entry whose removal is being confirmed */
  const asking = useSignal<WaitlistEntry | null>(null);
  const roster = useLoad(
    async () => {
      const [booked, listed] = await Promise.all([
        call(
          client.GET('/workspaces/{slug}/bookings', {
            params: {
              path: { slug },
              query: {
                serviceId: booking.serviceId,
                providerId: booking.providerId,
                from: booking.startTime,
                to: new Date(start + 60_000).toISOString(),
                limit: 100,
              },
            },
          }),
        ),
        call(
          client.GET('/workspaces/{slug}/waitlist', {
            params: { path: { slug }, query: { serviceId: booking.serviceId, date: dayIn(workspace.timezone, start) } },
          }),
        ),
      ]);
      return {
        attendees: booked.bookings.filter((each) => Date.parse(each.startTime) === start),
        // entries for this provider's seat or for any provider of the service
        entries: listed.entries.filter((entry) => Date.parse(entry.date) === start && (entry.providerId === null || entry.providerId === booking.providerId)),
      };
    },
    [booking.id, booking.status, booking.startTime],
    t,
  );
  const remove = (entry: WaitlistEntry) =>
    form.run(async () => {
      await call(client.DELETE('/workspaces/{slug}/waitlist/{entryId}', { params: { path: { slug, entryId: entry.id } } }));
      asking.value = null;
      notify({ type: 'svc:panel:changed' });
      await roster.reload();
      return t.entryRemoved(entry.customerName || entry.customerEmail);
    });

  return (
    <section class="class-roster" aria-labelledby="class-title">
      <h4 id="class-title">{t.classHeading}</h4>
      <Loaded load={roster.state.value} t={t} retry={roster.reload}>
        {({ attendees, entries }) => {
          const held = entries.filter((entry) => entry.status === 'OFFERED').length;
          return (
            <>
              <p data-places>
                {t.placesTaken(attendees.filter(holds).length, capacity)}
                {held > 0 && ` ${t.placesHeld(held)}`}
              </p>
              {attendees.length === 0 ? (
                <p class="muted">{t.noAttendees}</p>
              ) : (
                <ul class="items roster" aria-label={t.attendees}>
                  {attendees.map((attendee) => (
                    <li key={attendee.id} data-booking={attendee.id}>
                      <span class="item-main">
                        <strong>{attendee.customerName ?? '—'}</strong>
                        <span class="muted">{attendee.customerEmail}</span>
                      </span>
                      <StatusBadge booking={attendee} t={t} />
                    </li>
                  ))}
                </ul>
              )}
              <h5>{t.waitingList}</h5>
              {entries.length === 0 ? (
                <p class="muted">{t.noWaiting}</p>
              ) : (
                <ol class="items waitlist" aria-label={t.waitingList}>
                  {entries.map((entry, index) => (
                    <li key={entry.id} data-entry={entry.id} data-status={entry.status}>
                      <span class="position">{t.position(index + 1)}</span>
                      <span class="item-main">
                        <strong>{entry.customerEmail}</strong>
                        <span>{entry.customerName ?? '—'}</span>
                        <span class="muted">
                          {t.joinedAt(whenOf(workspace, entry.createdAt))}
                          {entry.status === 'OFFERED' && entry.offerExpiresAt && ` · ${t.heldUntil(whenOf(workspace, entry.offerExpiresAt))}`}
                        </span>
                      </span>
                      <span class={`badge status-${entry.status.toLowerCase()}`}>{t.waitlistStatuses[entry.status]}</span>
                      {can.operations && (
                        <button
                          type="button"
                          // which entry, for a screen reader going from button to button; the visible word starts it
                          aria-label={`${t.removeEntry}: ${entry.customerEmail}`}
                          aria-expanded={asking.value?.id === entry.id}
                          onClick={() => (asking.value = asking.value?.id === entry.id ? null : entry)}
                        >
                          {t.removeEntry}
                        </button>
                      )}
                    </li>
                  ))}
                </ol>
              )}
              {asking.value && (
                <fieldset class="inline-form">
                  <legend>{t.removeEntryAsk(asking.value.customerName || asking.value.customerEmail)}</legend>
                  {asking.value.status === 'OFFERED' && <p class="muted">{t.removeOfferNote}</p>}
                  <div class="actions">
                    <button type="button" class="danger" disabled={form.busy.value} onClick={() => void remove(asking.value!)}>
                      {t.removeEntryNow}
                    </button>
                    <button type="button" disabled={form.busy.value} onClick={() => (asking.value = null)}>
                      {t.keep}
                    </button>
                  </div>
                </fieldset>
              )}
            </>
          );
        }}
      </Loaded>
      <FormOutcome form={form} />
    </section>
  );
}

/** Whether a booking's service is a class, by its capacity: the roster shows only then. */
export const isClass = (capacity: number | null | undefined): capacity is number => typeof capacity === 'number' && capacity > 1;
