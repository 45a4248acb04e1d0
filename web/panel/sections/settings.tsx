/*
 * Settings: the business (name, colour, logo, zone, language, time format, cancellation hours, manual
 * confirmation), widget domains, webhooks (secret shown once, events, deliveries, test send, on/off), API keys
 * (shown once, revoke), linked sites and pairing codes. Without `svc_manage_settings` everything is read-only.
 */
import { useSignal } from '@preact/signals';
import { call, type ApiKey, type PanelOrigin, type Schemas, type Webhook, type WebhookDelivery } from '../api/client.ts';
import { whenOf } from '../format.ts';
import { Field, FormOutcome, Loaded, ReadOnlyNote, SectionHead, TextField, useForm, useLoad, type SectionProps } from './common.tsx';

type EventType = Schemas['BookingEvent']['type'] | Schemas['PaymentEvent']['type'];
const EVENT_TYPES: EventType[] = ['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.rescheduled', 'booking.completed', 'payment.received'];

export function Settings(props: SectionProps) {
  const { can, t } = props;
  return (
    <div class="settings">
      {!can.settings && <ReadOnlyNote text={t.readOnly} />}
      <WorkspaceSettings {...props} />
      <DomainSettings {...props} />
      <WebhookSettings {...props} />
      <ApiKeySettings {...props} />
      <LinkedSites {...props} />
    </div>
  );
}

/** A one-time secret with a copy button; it lives only in this component's memory. */
function ShownOnce({ text, value }: { text: string; value: string }) {
  return (
    <div class="shown-once" role="status">
      <p>{text}</p>
      <code>{value}</code>
    </div>
  );
}

function WorkspaceSettings({ client, workspace, can, notify, t, embedded, onWorkspace }: SectionProps) {
  const form = useForm(t);
  const name = useSignal(workspace.name);
  const colour = useSignal(workspace.primaryColor ?? '#2563eb');
  const logoUrl = useSignal(workspace.logoUrl ?? '');
  const timezone = useSignal(workspace.timezone);
  const language = useSignal(workspace.language);
  const timeFormat = useSignal(workspace.timeFormat);
  const cancellationHours = useSignal(String(workspace.cancellationHours));
  const requiresConfirmation = useSignal(workspace.requiresConfirmation);
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [workspace.timezone];
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const answer = await call(
        client.PATCH('/workspaces/{slug}', {
          params: { path: { slug: workspace.slug } },
          body: {
            name: name.value.trim(),
            primaryColor: colour.value,
            ...(embedded ? {} : { logoUrl: logoUrl.value.trim() || null }),
            timezone: timezone.value,
            language: language.value,
            timeFormat: timeFormat.value === '12h' ? '12h' : '24h',
            cancellationHours: Number(cancellationHours.value),
            requiresConfirmation: requiresConfirmation.value,
          },
        }),
      );
      notify({ type: 'svc:panel:changed' });
      onWorkspace(answer.workspace);
      return t.saved;
    });
  };
  const disabled = !can.settings;
  return (
    <form class="card" onSubmit={save} aria-labelledby="workspace-title" noValidate>
      <h3 id="workspace-title">{t.workspace}</h3>
      <fieldset disabled={disabled} class="plain">
        <div class="grid">
          <TextField label={t.businessName} name="name" form={form} value={name} required />
          <TextField label={t.colour} name="primaryColor" form={form} value={colour} type="color" />
          <Field label={t.timezone} name="timezone" form={form}>
            {(attributes) => (
              <select {...attributes} value={timezone.value} onChange={(event) => (timezone.value = event.currentTarget.value)}>
                {(zones.includes(workspace.timezone) ? zones : [workspace.timezone, ...zones]).map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t.language} name="language" form={form}>
            {(attributes) => (
              <select {...attributes} value={language.value} onChange={(event) => (language.value = event.currentTarget.value)}>
                <option value="en">English</option>
                <option value="de">Deutsch</option>
                {!['en', 'de'].includes(workspace.language) && <option value={workspace.language}>{workspace.language}</option>}
              </select>
            )}
          </Field>
          <Field label={t.timeFormat} name="timeFormat" form={form}>
            {(attributes) => (
              <select {...attributes} value={timeFormat.value} onChange={(event) => (timeFormat.value = event.currentTarget.value)}>
                <option value="24h">14:30</option>
                <option value="12h">2:30 PM</option>
              </select>
            )}
          </Field>
          <TextField label={t.cancellationHours} name="cancellationHours" form={form} value={cancellationHours} type="number" min={0} />
        </div>
        <label class="check">
          <input type="checkbox" checked={requiresConfirmation.value} onChange={(event) => (requiresConfirmation.value = event.currentTarget.checked)} />
          {t.requiresConfirmation}
        </label>
        <div class="logo-row">
          {embedded ? (
            <>
              <span>
                {t.logo}: {workspace.logoUrl ? <img class="logo-preview" src={workspace.logoUrl} alt={t.logo} /> : '—'}
              </span>
              {can.settings && (
                <button type="button" onClick={() => notify({ type: 'svc:panel:select-logo' })}>
                  {t.chooseLogo}
                </button>
              )}
            </>
          ) : (
            <TextField label={`${t.logoUrl} ${t.optional}`} name="logoUrl" form={form} value={logoUrl} type="url" />
          )}
        </div>
        {can.settings && (
          <div class="actions">
            <button type="submit" class="primary" disabled={form.busy.value}>
              {form.busy.value ? t.saving : t.save}
            </button>
          </div>
        )}
      </fieldset>
      <FormOutcome form={form} />
    </form>
  );
}

function DomainSettings({ client, workspace, can, notify, t }: SectionProps) {
  const form = useForm(t);
  const text = useSignal('');
  const { state, reload } = useLoad(
    async () => {
      const answer = await call(client.GET('/workspaces/{slug}/domains', { params: { path: { slug: workspace.slug } } }));
      text.value = answer.domains.join('\n');
      return answer.domains;
    },
    [workspace.slug],
    t,
  );
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const domains = text.value
        .split(/[\s,]+/)
        .map((each) => each.trim())
        .filter(Boolean);
      const answer = await call(client.PUT('/workspaces/{slug}/domains', { params: { path: { slug: workspace.slug } }, body: { domains } }));
      text.value = answer.domains.join('\n');
      notify({ type: 'svc:panel:changed' });
      return t.saved;
    });
  };
  return (
    <form class="card" onSubmit={save} aria-labelledby="domains-title">
      <h3 id="domains-title">{t.domains}</h3>
      <Loaded load={state.value} t={t} retry={reload}>
        {() => (
          <>
            <Field label={t.domainsLabel} name="domains" form={form} hint={t.domainsHint}>
              {(attributes) => (
                <textarea {...attributes} rows={3} readOnly={!can.settings} value={text.value} onInput={(event) => (text.value = event.currentTarget.value)} />
              )}
            </Field>
            {can.settings && (
              <div class="actions">
                <button type="submit" class="primary" disabled={form.busy.value}>
                  {t.save}
                </button>
              </div>
            )}
            <FormOutcome form={form} />
          </>
        )}
      </Loaded>
    </form>
  );
}

function WebhookSettings(props: SectionProps) {
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
      );
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
      {secret.value && <ShownOnce text={t.secretOnce} value={secret.value} />}
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

function ApiKeySettings({ client, workspace, can, notify, t }: SectionProps) {
  const slug = workspace.slug;
  const form = useForm(t);
  const name = useSignal('');
  const shown = useSignal<string | null>(null);
  const { state, reload } = useLoad(async () => (await call(client.GET('/workspaces/{slug}/api-keys', { params: { path: { slug } } }))).apiKeys, [slug], t);
  const create = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const answer = await call(
        client.POST('/workspaces/{slug}/api-keys', { params: { path: { slug } }, body: name.value.trim() ? { name: name.value.trim() } : {} }),
      );
      shown.value = answer.key;
      name.value = '';
      notify({ type: 'svc:panel:changed' });
      await reload();
    });
  };
  const revoking = useSignal<ApiKey | null>(null);
  const revoke = (key: ApiKey) =>
    form.run(async () => {
      revoking.value = null;
      await call(client.DELETE('/workspaces/{slug}/api-keys/{keyId}', { params: { path: { slug, keyId: key.id } } }));
      shown.value = null;
      notify({ type: 'svc:panel:changed' });
      await reload();
    });
  return (
    <section class="card" aria-labelledby="keys-title">
      <h3 id="keys-title">{t.apiKeys}</h3>
      <Loaded load={state.value} t={t} retry={reload}>
        {(keys) =>
          keys.length === 0 ? (
            <p class="muted">{t.noApiKeys}</p>
          ) : (
            <ul class="items">
              {keys.map((key) => (
                <li key={key.id} data-key={key.id}>
                  <span class="item-main">
                    <strong>{key.name}</strong>
                    <span class="muted">
                      <code>{key.prefix}…</code> · {t.created} {whenOf(workspace, key.createdAt)} · {t.lastUsed}{' '}
                      {key.lastUsedAt ? whenOf(workspace, key.lastUsedAt) : t.never}
                    </span>
                  </span>
                  {can.settings && revoking.value?.id !== key.id && (
                    <button type="button" class="danger" onClick={() => (revoking.value = key)} aria-label={`${t.revoke}: ${key.name}`}>
                      {t.revoke}
                    </button>
                  )}
                  {revoking.value?.id === key.id && (
                    <span class="confirm-row">
                      <span>{t.revokeKey(key.name)}</span>
                      <button type="button" class="danger" onClick={() => revoke(key)}>
                        {t.revoke}
                      </button>
                      <button type="button" onClick={() => (revoking.value = null)}>
                        {t.keep}
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {shown.value && <ShownOnce text={t.keyOnce} value={shown.value} />}
      {can.settings && (
        <form class="inline-form row-form" onSubmit={create}>
          <TextField label={t.keyName} name="name" form={form} value={name} />
          <button type="submit" class="primary" disabled={form.busy.value}>
            {t.create}
          </button>
        </form>
      )}
      <FormOutcome form={form} />
    </section>
  );
}

function LinkedSites({ client, workspace, can, notify, t }: SectionProps) {
  const slug = workspace.slug;
  const form = useForm(t);
  const pairing = useSignal<{ code: string; expiresAt: string } | null>(null);
  const { state, reload } = useLoad(
    async () => (await call(client.GET('/workspaces/{slug}/panel/origins', { params: { path: { slug } } }))).origins,
    [slug],
    t,
  );
  const revoke = (origin: PanelOrigin) =>
    form.run(async () => {
      await call(client.DELETE('/workspaces/{slug}/panel/origins/{originId}', { params: { path: { slug, originId: origin.id } } }));
      notify({ type: 'svc:panel:changed' });
      await reload();
    });
  const newCode = () =>
    form.run(async () => {
      const answer = await call(client.POST('/workspaces/{slug}/pairing-codes', { params: { path: { slug } } }));
      pairing.value = { code: answer.pairingCode, expiresAt: answer.expiresAt };
    });
  return (
    <section class="card" aria-labelledby="sites-title">
      <SectionHead title={t.linkedSites}>
        {can.settings && (
          <button type="button" disabled={form.busy.value} onClick={newCode}>
            {t.pairingCode}
          </button>
        )}
      </SectionHead>
      <Loaded load={state.value} t={t} retry={reload}>
        {(origins) =>
          origins.length === 0 ? (
            <p class="muted">{t.noLinkedSites}</p>
          ) : (
            <ul class="items">
              {origins.map((origin) => (
                <li key={origin.id}>
                  <span class="item-main">
                    <strong>{origin.origin}</strong>
                    <span class="muted">
                      {origin.platform} · {t.lastUsed} {origin.lastUsedAt ? whenOf(workspace, origin.lastUsedAt) : t.never}
                    </span>
                  </span>
                  {can.settings && (
                    <button type="button" class="danger" onClick={() => revoke(origin)} aria-label={`${t.revoke}: ${origin.origin}`}>
                      {t.revoke}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {pairing.value && <ShownOnce text={t.pairingOnce(whenOf(workspace, pairing.value.expiresAt))} value={pairing.value.code} />}
      <FormOutcome form={form} />
    </section>
  );
}
