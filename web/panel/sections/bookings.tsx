/*
 * Bookings: filters, cursor paging, a booking's details (custom-field answers, amount and payment state, the
 * customer's mails and how sending them went) with its actions (confirm,
 * cancel with a reason, move to a free time, complete), and a booking made by hand for a customer on the phone.
 */
import { useSignal, type Signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { call, type Booking, type BookingStatus, type PanelClient, type Provider, type Schemas, type Service, type Workspace } from '../api/client.ts';
import { addDays, longDayOf, moneyOf, startOfDay, todayIn, wallTimeOf, whenOf, zonedDateTime } from '../format.ts';
import type { Strings } from '../i18n.ts';
import { BookingLine, customerOf, StatusBadge } from './booking-parts.tsx';
import { FormOutcome, Loaded, ReadOnlyNote, TextField, useForm, useId, useLoad, type SectionProps } from './common.tsx';

const STATUSES: BookingStatus[] = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];

interface Catalogue {
  services: Service[];
  providers: Provider[];
  /** the custom fields' labels by key, for a booking's answers */
  labels: Record<string, string>;
}

export function Bookings(props: SectionProps) {
  const { client, workspace, can, t } = props;
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
  const creating = useSignal(false);
  const catalogue = useLoad<Catalogue>(
    async () => {
      const [services, providers, fields] = await Promise.all([
        call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/custom-fields', { params: { path: { slug } } })),
      ]);
      const labels = Object.fromEntries(fields.customFields.map((field) => [field.key, field.label]));
      return { services: services.services, providers: providers.providers, labels };
    },
    [slug],
    t,
  );

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

  if (open.value) {
    const known = catalogue.state.value.phase === 'ready' ? catalogue.state.value.data : { services: [], labels: {} };
    const currency = known.services.find((service) => service.id === open.value?.serviceId)?.currency ?? null;
    return <BookingDetails {...props} booking={open.value} currency={currency} labels={known.labels} onClose={() => (open.value = null)} onChanged={changed} />;
  }
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
        <Select label={t.status} value={status} options={[['', t.anyStatus], ...STATUSES.map((each) => [each, t[each]] as [string, string])]} />
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
                    <button type="button" class="row" onClick={() => (open.value = booking)}>
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

function Select({ label, value, options, name }: { label: string; value: Signal<string>; options: [string, string][]; name?: string }) {
  const id = useId('select');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value.value} onChange={(event) => (value.value = event.currentTarget.value)}>
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateInput({ label, value }: { label: string; value: Signal<string> }) {
  const id = useId('date');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" value={value.value} onInput={(event) => (value.value = event.currentTarget.value)} />
    </div>
  );
}

interface DetailsProps extends SectionProps {
  booking: Booking;
  onClose: () => void;
  onChanged: (booking: Booking) => Promise<void>;
  /** the currency of the booking's service, when the catalogue is known */
  currency: string | null;
  labels: Record<string, string>;
}

/** A booking's details, full-screen (focus mode at the host while it is open), with what may be done to it. */
function BookingDetails({ client, workspace, can, notify, t, booking, onClose, onChanged, currency, labels }: DetailsProps) {
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
            <StatusBadge status={booking.status} t={t} />
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
          {booking.status === 'PENDING' && (
            <button
              type="button"
              class="primary"
              disabled={form.busy.value}
              onClick={() => act(() => call(client.POST('/workspaces/{slug}/bookings/{bookingId}/confirm', { params: { path } })))}
            >
              {t.confirm}
            </button>
          )}
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
 * What the API tells about a booking's payment (decisions sections 4 and 9): with a sum due, a PENDING booking is not
 * paid (a payment received confirms it) and a CONFIRMED or COMPLETED one has nothing open in svc. Of a cancelled one
 * the booking alone does not say whether money went in, so nothing is claimed; a free booking has no payment.
 */
function paymentOf(booking: Booking): 'open' | 'settled' | null {
  if (!booking.amount || booking.status === 'CANCELLED') return null;
  return booking.status === 'PENDING' ? 'open' : 'settled';
}

type BookingMail = Schemas['BookingMail'];

/** The customer's mails of a booking (GET …/bookings/{id}/mails), oldest first: what was sent, waits or failed. */
function BookingMails({ client, workspace, t, booking }: { client: PanelClient; workspace: Workspace; t: Strings; booking: Booking }) {
  const mails = useLoad(
    async () =>
      (await call(client.GET('/workspaces/{slug}/bookings/{bookingId}/mails', { params: { path: { slug: workspace.slug, bookingId: booking.id } } }))).mails,
    // a move writes a new mail: read again after each
    [booking.id, booking.status, booking.startTime],
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

/** A day and the free times of a service on it (from the availability routes); `onPick` gets the date-time. */
function SlotPicker({
  client,
  workspace,
  t,
  serviceId,
  providerId,
  submitLabel,
  busy,
  onPick,
}: {
  client: PanelClient;
  workspace: Workspace;
  t: Strings;
  serviceId: string;
  providerId: string | null;
  submitLabel: string;
  busy: boolean;
  onPick: (date: string) => void;
}) {
  const day = useSignal(todayIn(workspace));
  const chosen = useSignal<string | null>(null);
  const slots = useLoad(
    async () => {
      chosen.value = null;
      if (!serviceId || !day.value) return [];
      const query = { serviceId, date: day.value, ...(providerId ? { providerId } : {}) };
      return (await call(client.GET('/workspaces/{slug}/availability', { params: { path: { slug: workspace.slug }, query } }))).slots;
    },
    [serviceId, providerId, day.value],
    t,
  );
  const dayId = useId('day');
  return (
    <div class="slot-picker">
      <div class="field">
        <label for={dayId}>{t.newDay}</label>
        <input id={dayId} type="date" min={todayIn(workspace)} value={day.value} onInput={(event) => (day.value = event.currentTarget.value)} />
      </div>
      <fieldset>
        <legend>
          {t.newTime} · {day.value ? longDayOf(workspace, day.value) : ''} <span class="muted">({workspace.timezone})</span>
        </legend>
        <Loaded load={slots.state.value} t={t} retry={slots.reload}>
          {(times) =>
            times.length === 0 ? (
              <p class="muted">{t.noFreeTimes}</p>
            ) : (
              <div class="slots">
                {times.map((time) => (
                  <button key={time} type="button" class="slot" aria-pressed={chosen.value === time} onClick={() => (chosen.value = time)}>
                    {wallTimeOf(workspace, time)}
                  </button>
                ))}
              </div>
            )
          }
        </Loaded>
      </fieldset>
      <button
        type="button"
        class="primary"
        disabled={!chosen.value || busy}
        onClick={() => chosen.value && onPick(zonedDateTime(day.value, chosen.value, workspace.timezone))}
      >
        {submitLabel}
      </button>
    </div>
  );
}

/** A booking made by hand (the session is keyed: no captcha, no widget domain). */
function NewBooking({
  client,
  workspace,
  t,
  catalogue,
  onDone,
  onCancel,
}: SectionProps & { catalogue: Catalogue; onDone: () => Promise<void>; onCancel: () => void }) {
  const form = useForm(t);
  const active = catalogue.services.filter((service) => service.active);
  const serviceId = useSignal(active[0]?.id ?? '');
  const providerId = useSignal('');
  const name = useSignal('');
  const email = useSignal('');
  const phone = useSignal('');
  const notes = useSignal('');
  const offering = catalogue.providers.filter((provider) => provider.active && provider.serviceIds.includes(serviceId.value));
  const book = (date: string) =>
    form.run(async () => {
      await call(
        client.POST('/workspaces/{slug}/bookings', {
          params: { path: { slug: workspace.slug } },
          body: {
            serviceId: serviceId.value,
            date,
            email: email.value.trim(),
            ...(providerId.value ? { providerId: providerId.value } : {}),
            ...(name.value.trim() ? { name: name.value.trim() } : {}),
            ...(phone.value.trim() ? { phone: phone.value.trim() } : {}),
            ...(notes.value.trim() ? { notes: notes.value.trim() } : {}),
          },
        }),
      );
      await onDone();
      return t.booked;
    });
  return (
    <section class="card new-booking" aria-labelledby="new-booking-title">
      <div class="section-head">
        <h3 id="new-booking-title">{t.newBooking}</h3>
        <button type="button" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
      <p class="muted">{t.newBookingHint}</p>
      <div class="grid">
        <Select label={t.service} name="serviceId" value={serviceId} options={active.map((service) => [service.id, service.name])} />
        <Select
          label={t.provider}
          name="providerId"
          value={providerId}
          options={[['', t.anyone], ...offering.map((provider) => [provider.id, provider.name] as [string, string])]}
        />
        <TextField label={t.name} name="name" form={form} value={name} />
        <TextField label={t.email} name="email" form={form} value={email} type="email" required />
        <TextField label={`${t.phone} ${t.optional}`} name="phone" form={form} value={phone} type="tel" />
        <TextField label={`${t.notes} ${t.optional}`} name="notes" form={form} value={notes} />
      </div>
      <SlotPicker
        client={client}
        workspace={workspace}
        t={t}
        serviceId={serviceId.value}
        providerId={providerId.value || null}
        submitLabel={t.book}
        busy={form.busy.value}
        onPick={book}
      />
      <FormOutcome form={form} />
    </section>
  );
}
