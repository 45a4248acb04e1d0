/* Services: create, edit, deactivate; the API's validation errors under their fields; what was typed is kept. */
import { useSignal } from '@preact/signals';
import { call, type Provider, type Service } from '../api/client.ts';
import { moneyOf } from '../format.ts';
import { Field, FormOutcome, Loaded, ReadOnlyNote, SectionHead, TextField, useForm, useLoad, type SectionProps } from './common.tsx';

interface Catalogue {
  services: Service[];
  providers: Provider[];
}

export function Services(props: SectionProps) {
  const { client, workspace, can, t } = props;
  const slug = workspace.slug;
  const editing = useSignal<Service | 'new' | null>(null);
  const { state, reload } = useLoad<Catalogue>(
    async () => {
      const [services, providers] = await Promise.all([
        call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } })),
      ]);
      return { services: services.services, providers: providers.providers };
    },
    [slug],
    t,
  );
  const saved = async () => {
    editing.value = null;
    props.notify({ type: 'svc:panel:changed' });
    await reload();
  };
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {({ services, providers }) => (
        <div>
          {!can.operations && <ReadOnlyNote text={t.readOnlyOperations} />}
          {editing.value ? (
            <ServiceForm
              {...props}
              key={editing.value === 'new' ? 'new' : editing.value.id}
              service={editing.value === 'new' ? null : editing.value}
              providers={providers}
              onSaved={saved}
              onCancel={() => (editing.value = null)}
            />
          ) : (
            can.operations && (
              <p>
                <button type="button" class="primary" onClick={() => (editing.value = 'new')}>
                  {t.newService}
                </button>
              </p>
            )
          )}
          {services.length === 0 ? (
            <p class="empty">{t.noServices}</p>
          ) : (
            <ul class="items card">
              {services.map((service) => (
                <li key={service.id} class={service.active ? '' : 'is-inactive'}>
                  <span class="item-main">
                    <strong>{service.name}</strong>
                    <span class="muted">
                      {t.minutes(service.duration)} · {service.price > 0 ? moneyOf(workspace, service.price, service.currency) : t.free}
                      {service.active ? '' : ` · ${t.inactive}`}
                    </span>
                  </span>
                  {can.operations && (
                    <button type="button" onClick={() => (editing.value = service)} aria-label={`${t.edit}: ${service.name}`}>
                      {t.edit}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Loaded>
  );
}

function ServiceForm({
  client,
  workspace,
  t,
  service,
  providers,
  onSaved,
  onCancel,
}: SectionProps & {
  service: Service | null;
  providers: Provider[];
  onSaved: () => Promise<void>;
  onCancel: () => void;
}) {
  const form = useForm(t);
  const name = useSignal(service?.name ?? '');
  const description = useSignal(service?.description ?? '');
  const duration = useSignal(String(service?.duration ?? 30));
  const price = useSignal(String(service?.price ?? 0));
  const currency = useSignal(service?.currency ?? 'EUR');
  const capacity = useSignal(String(service?.capacity ?? 1));
  const bufferTime = useSignal(String(service?.bufferTime ?? 0));
  const minNotice = useSignal(String(service?.minNotice ?? 0));
  const providerIds = useSignal<string[]>(service?.providerIds ?? []);
  const slug = workspace.slug;
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const body = {
        name: name.value.trim(),
        description: description.value.trim() || null,
        duration: number(duration.value),
        price: number(price.value),
        currency: currency.value.trim().toUpperCase(),
        capacity: number(capacity.value),
        bufferTime: number(bufferTime.value),
        minNotice: number(minNotice.value),
        providerIds: providerIds.value,
      };
      if (service) await call(client.PATCH('/workspaces/{slug}/services/{serviceId}', { params: { path: { slug, serviceId: service.id } }, body }));
      else await call(client.POST('/workspaces/{slug}/services', { params: { path: { slug } }, body }));
      await onSaved();
    });
  };
  const setActive = (active: boolean) =>
    form.run(async () => {
      if (!service) return;
      if (active)
        await call(client.PATCH('/workspaces/{slug}/services/{serviceId}', { params: { path: { slug, serviceId: service.id } }, body: { active: true } }));
      else await call(client.DELETE('/workspaces/{slug}/services/{serviceId}', { params: { path: { slug, serviceId: service.id } } }));
      await onSaved();
    });
  return (
    <form class="card edit-form" onSubmit={save} aria-labelledby="service-form-title" noValidate>
      <SectionHead title={service ? service.name : t.newService}>
        <button type="button" onClick={onCancel}>
          {t.cancel}
        </button>
      </SectionHead>
      <span id="service-form-title" class="sr-only">
        {service ? `${t.edit}: ${service.name}` : t.newService}
      </span>
      <div class="grid">
        <TextField label={t.name} name="name" form={form} value={name} required />
        <TextField label={t.duration} name="duration" form={form} value={duration} type="number" min={5} />
        <TextField label={t.price} name="price" form={form} value={price} type="number" min={0} step="0.01" />
        <TextField label={t.currency} name="currency" form={form} value={currency} />
        <TextField label={t.capacity} name="capacity" form={form} value={capacity} type="number" min={1} />
        <TextField label={t.bufferTime} name="bufferTime" form={form} value={bufferTime} type="number" min={0} />
        <TextField label={t.minNotice} name="minNotice" form={form} value={minNotice} type="number" min={0} />
      </div>
      <Field label={`${t.description} ${t.optional}`} name="description" form={form}>
        {(attributes) => <textarea {...attributes} rows={2} value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />}
      </Field>
      {providers.length > 0 && (
        <fieldset class="checks">
          <legend>{t.offeredBy}</legend>
          {providers.map((provider) => (
            <label key={provider.id}>
              <input
                type="checkbox"
                checked={providerIds.value.includes(provider.id)}
                onChange={(event) =>
                  (providerIds.value = event.currentTarget.checked ? [...providerIds.value, provider.id] : providerIds.value.filter((id) => id !== provider.id))
                }
              />
              {provider.name}
            </label>
          ))}
          {form.fields.value.providerIds && <small class="field-error">{form.fields.value.providerIds}</small>}
        </fieldset>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={form.busy.value}>
          {form.busy.value ? t.saving : t.save}
        </button>
        {service
          && (service.active ? (
            <button type="button" class="danger" disabled={form.busy.value} onClick={() => setActive(false)}>
              {t.deactivate}
            </button>
          ) : (
            <button type="button" disabled={form.busy.value} onClick={() => setActive(true)}>
              {t.activate}
            </button>
          ))}
      </div>
      <FormOutcome form={form} />
    </form>
  );
}
