import { useSignal } from '@preact/signals';
import { call, Problem, type Schemas, type Webhook, type WebhookDelivery } from '../../api/client.ts';
import { whenOf } from '../../format.ts';
import { FormOutcome, Loaded, TextField, useForm, useLoad, type SectionProps } from '../common.tsx';
import { ShownOnce } from './shown-once.tsx';

type EventType = Schemas['BookingEvent']['type'] | Schemas['PaymentEvent']['type'] | Schemas['WaitlistEvent']['type'];
const EVENT_TYPES: EventType[] = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.completed',
  'payment.received',
  'waitlist.joined',
  'waitlist.offered',
  'waitlist.expired',
];

/** The webhooks: the list, a new one (its secret shown once), and per webhook its deliveries, a test send and on/off. */
export function WebhookSettings(props: SectionProps) {
  const { client, workspace, can, notify, t } = props;
  const slug = workspace.slug;
  const form = useForm(t);
  const url = useSignal('');
  const name = useSignal('');
  const events = useSignal<string[]>([]);
  const secret = useSignal<string | null>(null);
  const { state, reload } = useLoad(async () => (await call(client.GET('/workspaces/{slug}/webhooks', { params: { path: { slug } } }))).webhooks, [slug], t);
  const create = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const answer = await call(
        client.POST('/workspaces/{slug}/webhooks', {
          params: { path: { slug } },
          body: { url: url.value.trim(), ...(name.value.trim() ? { name: name.value.trim() } : {}), events: events.value },
        }),
      ).catch((error: unknown) => {
        // the server's reasons name settings of its operator; the owner reads what to do instead
        if (error instanceof Problem && /public host/i.test(error.message)) throw new Problem(t.webhookNotPublic, error.code, { url: t.webhookNotPublic });
        if (error instanceof Problem && /already the address of webhook/i.test(error.message))
          throw new Problem(t.webhookRepeated, error.code, { url: t.webhookRepeated });
        throw error;
      });
      secret.value = answer.webhook.secret;
      url.value = '';
      name.value = '';
      events.value = [];
      notify({ type: 'svc:panel:changed' });
      await reload();
    });
  };
  return (
    <section class="card" aria-labelledby="webhooks-title">
      <h3 id="webhooks-title">{t.webhooks}</h3>
      <Loaded load={state.value} t={t} retry={reload}>
        {(webhooks) =>
          webhooks.length === 0 ? (
            <p class="muted">{t.noWebhooks}</p>
          ) : (
            <ul class="items">
              {webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} {...props} webhook={webhook} onChanged={reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {secret.value && <ShownOnce text={t.secretOnce} value={secret.value} t={t} />}
      {can.settings && (
        <form class="inline-form" onSubmit={create} noValidate>
          <div class="grid">
            <TextField label={t.webhookUrl} name="url" form={form} value={url} type="url" required />
            <TextField label={`${t.name} ${t.optional}`} name="name" form={form} value={name} />
          </div>
          <fieldset class="checks">
            <legend>
              {t.events} <span class="muted">{t.allEventsHint}</span>
            </legend>
            {EVENT_TYPES.map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  checked={events.value.includes(type)}
                  onChange={(event) => (events.value = event.currentTarget.checked ? [...events.value, type] : events.value.filter((each) => each !== type))}
                />
                <code>{type}</code>
              </label>
            ))}
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary" disabled={form.busy.value}>
              {t.add}
            </button>
          </div>
          <FormOutcome form={form} />
        </form>
      )}
    </section>
  );
}

function WebhookRow({ client, workspace, can, notify, t, webhook, onChanged }: SectionProps & { webhook: Webhook; onChanged: () => Promise<void> }) {
  const form = useForm(t);
  const open = useSignal(false);
  const deliveries = useSignal<WebhookDelivery[] | null>(null);
  const path = { slug: workspace.slug, webhookId: webhook.id };
  const loadDeliveries = async () => {
    deliveries.value = (await call(client.GET('/workspaces/{slug}/webhooks/{webhookId}/deliveries', { params: { path } }))).deliveries;
  };
  const toggle = () =>
    form.run(async () => {
      await call(client.PATCH('/workspaces/{slug}/webhooks/{webhookId}', { params: { path }, body: { isActive: !webhook.isActive } }));
      notify({ type: 'svc:panel:changed' });
      await onChanged();
    });
  const test = () =>
    form.run(async () => {
      await call(client.POST('/workspaces/{slug}/webhooks/{webhookId}/test', { params: { path } }));
      open.value = true;
      await waitForDelivery();
      return t.testSent;
    });
  // the test message is delivered by the outbox loop: ask for the log until its attempt shows (a few seconds at most)
  const waitForDelivery = async () => {
    const before = deliveries.value?.length ?? 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      await loadDeliveries();
      if ((deliveries.value?.length ?? 0) > before) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  const show = () =>
    form.run(async () => {
      open.value = !open.value;
      if (open.value) await loadDeliveries();
    });
  return (
    <li class="webhook">
      <div class="item-row">
        <span class="item-main">
          <strong>{webhook.name || webhook.url}</strong>
          <span class="muted">
            {webhook.name ? `${webhook.url} · ` : ''}
            {webhook.isActive ? t.active : t.inactive} · {webhook.events.length === 0 ? t.allEvents : webhook.events.join(', ')}
          </span>
        </span>
        <span class="actions">
          <button type="button" aria-expanded={open.value} onClick={show}>
            {t.deliveries}
          </button>
          {can.settings && (
            <button type="button" disabled={form.busy.value} onClick={test}>
              {t.sendTest}
            </button>
          )}
          {can.settings && (
            <button type="button" disabled={form.busy.value} onClick={toggle}>
              {webhook.isActive ? t.disable : t.enable}
            </button>
          )}
        </span>
      </div>
      {open.value
        && deliveries.value
        && (deliveries.value.length === 0 ? (
          <p class="muted">{t.noDeliveries}</p>
        ) : (
          <table class="deliveries">
            <caption class="sr-only">
              {t.deliveries}: {webhook.url}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.events}</th>
                <th scope="col">{t.status}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.value.map((delivery) => (
                <tr key={delivery.id} data-event={delivery.eventType}>
                  <td>{whenOf(workspace, delivery.attemptedAt)}</td>
                  <td>
                    <code>{delivery.eventType}</code>
                  </td>
                  <td>
                    {delivery.statusCode !== null && delivery.statusCode < 300
                      ? `${t.delivered} (${delivery.statusCode})`
                      : `${t.failedDelivery}${delivery.statusCode ? ` (${delivery.statusCode})` : delivery.error ? `: ${delivery.error}` : ''}`}
                    {delivery.nextRetryAt && <span class="muted"> · {t.retryAt(whenOf(workspace, delivery.nextRetryAt))}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <FormOutcome form={form} />
    </li>
  );
}
