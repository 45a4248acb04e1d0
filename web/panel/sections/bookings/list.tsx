/* The bookings list: filters, cursor paging, and the way to a booking's details and to a new booking. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { call, type Booking, type BookingStatus } from '../../api/client.ts';
import { addDays, startOfDay, todayIn } from '../../format.ts';
import { BookingLine } from '../booking-parts.tsx';
import { FormOutcome, Loaded, messageOf, ReadOnlyNote, useForm, useLoad, type SectionProps } from '../common.tsx';
import { useCatalogue } from './catalogue.ts';
import { BookingDetails } from './details.tsx';
import { DateInput, Select } from './inputs.tsx';
import { NewBooking } from './new-booking.tsx';

const STATUSES: BookingStatus[] = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];

/** The Bookings section: the list with its filters, or the booking its address names, or a booking being made. */
export function Bookings(props: SectionProps) {
  const { client, workspace, can, t, bookingId, navigate } = props;
  const slug = workspace.slug;
  const status = useSignal('');
  const serviceId = useSignal('');
  const providerId = useSignal('');
  const from = useSignal(todayIn(workspace));
  const to = useSignal('');
  const applied = useSignal(0);
  const rows = useSignal<Booking[]>([]);
  const cursor = useSignal<string | null>(null);
  const open = useSignal<Booking | null>(null);
  const openProblem = useSignal<string | null>(null);
  // the booking the address names: from the rows when listed, else read
  useEffect(() => {
    openProblem.value = null;
    if (!bookingId) {
      open.value = null;
      return;
    }
    if (open.value?.id === bookingId) return;
    const listed = rows.value.find((booking) => booking.id === bookingId);
    if (listed) {
      open.value = listed;
      return;
    }
    call(client.GET('/workspaces/{slug}/bookings/{bookingId}', { params: { path: { slug, bookingId } } })).then(
      (answer) => {
        if (answer.booking.id === bookingId) open.value = answer.booking;
      },
      (error) => (openProblem.value = messageOf(error, t)),
    );
  }, [bookingId]);
  const creating = useSignal(false);
  const catalogue = useCatalogue(client, slug, t);

  const page = async (after: string | null) => {
    const query = {
      limit: 25,
      ...(after ? { cursor: after } : {}),
      ...(status.value ? { status: status.value as BookingStatus } : {}),
      ...(serviceId.value ? { serviceId: serviceId.value } : {}),
      ...(providerId.value ? { providerId: providerId.value } : {}),
      ...(from.value ? { from: startOfDay(workspace, from.value) } : {}),
      ...(to.value ? { to: startOfDay(workspace, addDays(to.value, 1)) } : {}),
    };
    const answer = await call(client.GET('/workspaces/{slug}/bookings', { params: { path: { slug }, query } }));
    rows.value = after ? [...rows.value, ...answer.bookings] : answer.bookings;
    cursor.value = answer.nextCursor;
    return answer;
  };
  const list = useLoad(() => page(null), [slug, applied.value], t);
  const more = useForm(t);

  const changed = async (booking: Booking | null) => {
    props.notify({ type: 'svc:panel:changed' });
    if (booking) open.value = booking;
    await list.reload();
  };

  if (bookingId && openProblem.value) {
    return (
      <div class="problem-box" role="alert">
        <p>{openProblem.value}</p>
        <button type="button" onClick={() => navigate({ section: 'bookings', bookingId: null })}>
          {t.close}
        </button>
      </div>
    );
  }
  if (bookingId && open.value?.id === bookingId) {
    const known = catalogue.state.value.phase === 'ready' ? catalogue.state.value.data : { services: [], labels: {} };
    const service = known.services.find((each) => each.id === open.value?.serviceId);
    return (
      <BookingDetails
        {...props}
        booking={open.value}
        currency={service?.currency ?? null}
        capacity={service?.capacity ?? null}
        labels={known.labels}
        onClose={() => navigate({ section: 'bookings', bookingId: null })}
        onChanged={changed}
      />
    );
  }
  if (bookingId)
    return (
      <p role="status" class="muted">
        {t.loading}
      </p>
    );
  return (
    <div class="bookings-section">
      {!can.operations && <ReadOnlyNote text={t.readOnlyOperations} />}
      {can.operations
        && (creating.value ? (
          <Loaded load={catalogue.state.value} t={t} retry={catalogue.reload}>
            {(data) => (
              <NewBooking
                {...props}
                catalogue={data}
                onDone={async () => {
                  creating.value = false;
                  await changed(null);
                }}
                onCancel={() => (creating.value = false)}
              />
            )}
          </Loaded>
        ) : (
          <p>
            <button type="button" class="primary" onClick={() => (creating.value = true)}>
              {t.newBooking}
            </button>
          </p>
        ))}
      <form
        class="filters card"
        aria-label={t.filters}
        onSubmit={(event) => {
          event.preventDefault();
          applied.value++;
        }}
      >
        <Select
          label={t.status}
          value={status}
          options={[['', t.anyStatus], ...STATUSES.map((each) => [each, each === 'PENDING' ? t.pendingAny : t[each]] as [string, string])]}
        />
        <Select
          label={t.service}
          value={serviceId}
          options={[
            ['', t.anyService],
            ...(catalogue.state.value.phase === 'ready' ? catalogue.state.value.data.services.map((each) => [each.id, each.name] as [string, string]) : []),
          ]}
        />
        <Select
          label={t.provider}
          value={providerId}
          options={[
            ['', t.anyProvider],
            ...(catalogue.state.value.phase === 'ready' ? catalogue.state.value.data.providers.map((each) => [each.id, each.name] as [string, string]) : []),
          ]}
        />
        <DateInput label={t.fromDay} value={from} />
        <DateInput label={t.toDay} value={to} />
        <button type="submit">{t.apply}</button>
      </form>
      <p class="muted zone">{t.timesIn(workspace.timezone)}</p>
      <Loaded load={list.state.value} t={t} retry={list.reload}>
        {() =>
          rows.value.length === 0 ? (
            <p class="empty">{t.noBookings}</p>
          ) : (
            <>
              <ul class="bookings card">
                {rows.value.map((booking) => (
                  <li key={booking.id}>
                    <button
                      type="button"
                      class="row"
                      onClick={() => {
                        open.value = booking;
                        navigate({ section: 'bookings', bookingId: booking.id });
                      }}
                    >
                      <span class="sr-only">{t.details}: </span>
                      <BookingLine booking={booking} workspace={workspace} t={t} />
                    </button>
                  </li>
                ))}
              </ul>
              {cursor.value && (
                <p>
                  <button type="button" disabled={more.busy.value} onClick={() => more.run(() => page(cursor.value).then(() => null))}>
                    {t.loadMore}
                  </button>
                </p>
              )}
              <FormOutcome form={more} />
            </>
          )
        }
      </Loaded>
    </div>
  );
}
