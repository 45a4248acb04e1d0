/*
 * Services: create, edit, deactivate; the API's validation errors under their fields; what was typed is kept.
 * A service nobody offers, or whose providers have no working hours, cannot be booked: the list says why, and the
 * form offers its providers (or a new one, by name) so a new service is never left unbookable in silence.
 */
import { useSignal } from '@preact/signals';
import { call, type PanelClient, type Provider, type Service, type WeeklyHours } from '../api/client.ts';
import { moneyOf, whenOf } from '../format.ts';
import type { Strings } from '../i18n.ts';
import { useUnsaved } from '../unsaved.ts';
import {
  Field,
  FormOutcome,
  LinkChecks,
  Loaded,
  NewRecordButton,
  ReadOnlyNote,
  SaveActions,
  SectionHead,
  TextField,
  useForm,
  useLoad,
  type SectionProps,
} from './common.tsx';

interface Catalogue {
  services: Service[];
  providers: Provider[];
  /** active providers with no working hours in any week day (their own or the business's) */
  withoutHours: Set<string>;
}

const hasHours = (weekly: WeeklyHours) => Object.values(weekly).some((intervals) => intervals.length > 0);

/** The workspace's services and providers, read side by side. */
export async function loadServicesAndProviders(client: PanelClient, slug: string): Promise<{ services: Service[]; providers: Provider[] }> {
  const [services, providers] = await Promise.all([
    call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } })),
    call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } })),
  ]);
  return { services: services.services, providers: providers.providers };
}

/** The services and providers, and which active providers work no hours at all. */
export async function loadCatalogue(client: PanelClient, slug: string): Promise<Catalogue> {
  const { services, providers } = await loadServicesAndProviders(client, slug);
  const active = providers.filter((provider) => provider.active);
  const schedules = await Promise.all(
    active.map((provider) => call(client.GET('/workspaces/{slug}/providers/{providerId}/schedule', { params: { path: { slug, providerId: provider.id } } }))),
  );
  const withoutHours = new Set(active.filter((_, index) => !hasHours(schedules[index]!.schedule.weekly)).map((provider) => provider.id));
  return { services, providers, withoutHours };
}

/** Why an active service cannot be booked, in words; null when it can. */
export function unbookableReason(service: Service, catalogue: Catalogue, t: Strings): string | null {
  if (!service.active) return null;
  const offering = catalogue.providers.filter((provider) => provider.active && service.providerIds.includes(provider.id));
  if (offering.length === 0) return t.noProviderReason;
  if (offering.every((provider) => catalogue.withoutHours.has(provider.id))) return t.noHoursReason;
  return null;
}

export function Services(props: SectionProps) {
  const { client, workspace, can, t } = props;
  const slug = workspace.slug;
  const editing = useSignal<Service | 'new' | null>(null);
  const { state, reload } = useLoad<Catalogue>(() => loadCatalogue(client, slug), [slug], t);
  const saved = async () => {
    editing.value = null;
    props.notify({ type: 'svc:panel:changed' });
    await reload();
  };
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {(catalogue) => (
        <div>
          {!can.operations && <ReadOnlyNote text={t.readOnlyOperations} />}
          {editing.value ? (
            <ServiceForm
              {...props}
              key={editing.value === 'new' ? 'new' : editing.value.id}
              service={editing.value === 'new' ? null : editing.value}
              providers={catalogue.providers}
              onSaved={saved}
              onCancel={() => (editing.value = null)}
            />
          ) : (
            <NewRecordButton show={can.operations} label={t.newService} onClick={() => (editing.value = 'new')} />
          )}
          {catalogue.services.length === 0 ? (
            <p class="empty">{t.noServices}</p>
          ) : (
            <ul class="items card">
              {catalogue.services.map((service) => {
                const reason = unbookableReason(service, catalogue, t);
                return (
                  <li key={service.id} class={service.active ? '' : 'is-inactive'}>
                    <span class="item-main">
                      <strong>{service.name}</strong>
                      <span class="muted">
                        {t.minutes(service.duration)} · {service.price > 0 ? moneyOf(workspace, service.price, service.currency) : t.free}
                        {service.active ? '' : ` · ${t.inactive}`}
                      </span>
                      {reason && <span class="unbookable">{reason}</span>}
                    </span>
                    {can.operations && (
                      <button type="button" onClick={() => (editing.value = service)} aria-label={`${t.edit}: ${service.name}`}>
                        {t.edit}
                      </button>
                    )}
                  </li>
                );
              })}
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
  const repeatable = useSignal(service?.repeatable ?? false);
  const waitlist = useSignal(service?.waitlist ?? false);
  const active = providers.filter((provider) => provider.active || service?.providerIds.includes(provider.id));
  // a new service is offered by every active provider until unticked: nobody offering it leaves it unbookable
  const providerIds = useSignal<string[]>(service?.providerIds ?? active.map((provider) => provider.id));
  const newProvider = useSignal('');
  const initial = useSignal(JSON.stringify([service?.name ?? '', service?.description ?? '', String(service?.duration ?? 30), String(service?.price ?? 0)]));
  useUnsaved(JSON.stringify([name.value, description.value, duration.value, price.value]) !== initial.value || newProvider.value.trim() !== '');
  const slug = workspace.slug;
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const ids = [...providerIds.value];
      if (newProvider.value.trim()) {
        const made = await call(client.POST('/workspaces/{slug}/providers', { params: { path: { slug } }, body: { name: newProvider.value.trim() } }));
        ids.push(made.provider.id);
        newProvider.value = '';
        providerIds.value = ids;
      }
      const body = {
        name: name.value.trim(),
        description: description.value.trim() || null,
        duration: number(duration.value),
        price: number(price.value),
        currency: currency.value.trim().toUpperCase(),
        capacity: number(capacity.value),
        bufferTime: number(bufferTime.value),
        minNotice: number(minNotice.value),
        repeatable: repeatable.value,
        waitlist: waitlist.value,
        providerIds: ids,
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
      <label class="check">
        <input type="checkbox" checked={waitlist.value} onChange={(event) => (waitlist.value = event.currentTarget.checked)} />
        {t.waitlist}
      </label>
      <Field label={`${t.description} ${t.optional}`} name="description" form={form}>
        {(attributes) => <textarea {...attributes} rows={2} value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />}
      </Field>
      <div class="checks">
        <label>
          <input type="checkbox" name="repeatable" checked={repeatable.value} onChange={(event) => (repeatable.value = event.currentTarget.checked)} />
          {t.repeatable}
        </label>
      </div>
      <fieldset class="checks">
        <legend>{t.offeredBy}</legend>
        {active.length === 0 && <p class="note">{t.noProviderForService}</p>}
        <LinkChecks name="providerIds" form={form} options={active} chosen={providerIds} />
        <TextField label={t.addProviderByName} name="newProvider" form={form} value={newProvider} hint={t.addProviderByNameHint} />
      </fieldset>
      <SaveActions form={form} t={t} active={service ? service.active : null} setActive={setActive} />
      <FormOutcome form={form} />
      {service?.waitlist && <WaitingList client={client} workspace={workspace} t={t} serviceId={service.id} />}
    </form>
  );
}

/** A waiting-list service's entries, by time then arrival, each removable (docs/contract/classes.md §2). */
function WaitingList({ client, workspace, t, serviceId }: Pick<SectionProps, 'client' | 'workspace' | 't'> & { serviceId: string }) {
  const slug = workspace.slug;
  const { state, reload } = useLoad(
    async () => (await call(client.GET('/workspaces/{slug}/waitlist', { params: { path: { slug }, query: { serviceId } } }))).entries,
    [slug, serviceId],
    t,
  );
  const remove = async (entryId: string) => {
    await call(client.DELETE('/workspaces/{slug}/waitlist/{entryId}', { params: { path: { slug, entryId } } }));
    await reload();
  };
  return (
    <section aria-labelledby="waiting-list-title">
      <h4 id="waiting-list-title">{t.waitingList}</h4>
      <Loaded load={state.value} t={t} retry={reload}>
        {(entries) =>
          entries.length === 0 ? (
            <p class="muted">{t.noWaiting}</p>
          ) : (
            <ul class="items">
              {entries.map((entry) => (
                <li key={entry.id} class="item-row">
                  <span class="item-main">
                    <strong>{whenOf(workspace, entry.date)}</strong>
                    <span class="muted">
                      {entry.customerName ? `${entry.customerName} · ` : ''}
                      {entry.customerEmail} · {t.waitlistStatuses[entry.status]}
                    </span>
                  </span>
                  <button type="button" onClick={() => void remove(entry.id)}>
                    {t.removeEntry}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
