/* Providers (staff, rooms): create, edit, deactivate, the services they offer, and their own working hours. */
import { useSignal } from '@preact/signals';
import { call, type Provider, type Service } from '../api/client.ts';
import { useUnsaved } from '../unsaved.ts';
import {
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
import { ProviderCalendars } from './calendars.tsx';
import { CopyValue } from './copy.tsx';
import { ScheduleEditor } from './hours.tsx';
import { loadServicesAndProviders } from './services.tsx';

interface Catalogue {
  services: Service[];
  providers: Provider[];
}

export function Providers(props: SectionProps) {
  const { client, workspace, can, t } = props;
  const slug = workspace.slug;
  const editing = useSignal<Provider | 'new' | null>(null);
  const { state, reload } = useLoad<Catalogue>(() => loadServicesAndProviders(client, slug), [slug], t);
  const saved = async (keepOpen: Provider | null) => {
    editing.value = keepOpen;
    props.notify({ type: 'svc:panel:changed' });
    await reload();
  };
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {({ services, providers }) => (
        <div>
          {!can.operations && <ReadOnlyNote text={t.readOnlyOperations} />}
          {editing.value ? (
            <ProviderForm
              {...props}
              key={editing.value === 'new' ? 'new' : editing.value.id}
              provider={editing.value === 'new' ? null : editing.value}
              services={services}
              onSaved={saved}
              onCancel={() => (editing.value = null)}
            />
          ) : (
            <NewRecordButton show={can.operations} label={t.newProvider} onClick={() => (editing.value = 'new')} />
          )}
          {providers.length === 0 ? (
            <p class="empty">{t.noProviderYet}</p>
          ) : (
            <ul class="items card">
              {providers.map((provider) => (
                <li key={provider.id} class={provider.active ? '' : 'is-inactive'}>
                  <span class="item-main">
                    <strong>{provider.name}</strong>
                    <span class="muted">
                      {[
                        provider.email,
                        services
                          .filter((service) => provider.serviceIds.includes(service.id))
                          .map((service) => service.name)
                          .join(', '),
                        provider.active ? '' : t.inactive,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                    {provider.active && !services.some((service) => service.active && provider.serviceIds.includes(service.id)) && (
                      <span class="unbookable">{t.offersNothing}</span>
                    )}
                  </span>
                  <button type="button" onClick={() => (editing.value = provider)} aria-label={`${can.operations ? t.edit : t.ownHours}: ${provider.name}`}>
                    {can.operations ? t.edit : t.ownHours}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Loaded>
  );
}

function ProviderForm(
  props: SectionProps & { provider: Provider | null; services: Service[]; onSaved: (keepOpen: Provider | null) => Promise<void>; onCancel: () => void },
) {
  const { client, workspace, can, t, provider, services, onSaved, onCancel, navigate } = props;
  const slug = workspace.slug;
  const form = useForm(t);
  const name = useSignal(provider?.name ?? '');
  const email = useSignal(provider?.email ?? '');
  const offered = services.filter((service) => service.active || provider?.serviceIds.includes(service.id));
  const serviceIds = useSignal<string[]>(provider?.serviceIds ?? []);
  useUnsaved(
    can.operations
      && (name.value !== (provider?.name ?? '') || email.value !== (provider?.email ?? '') || serviceIds.value.join() !== (provider?.serviceIds ?? []).join()),
  );
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const body = { name: name.value.trim(), email: email.value.trim() || null, serviceIds: serviceIds.value };
      if (provider) await call(client.PATCH('/workspaces/{slug}/providers/{providerId}', { params: { path: { slug, providerId: provider.id } }, body }));
      else await call(client.POST('/workspaces/{slug}/providers', { params: { path: { slug } }, body }));
      await onSaved(null);
    });
  };
  const setActive = (active: boolean) =>
    form.run(async () => {
      if (!provider) return;
      if (active)
        await call(client.PATCH('/workspaces/{slug}/providers/{providerId}', { params: { path: { slug, providerId: provider.id } }, body: { active: true } }));
      else await call(client.DELETE('/workspaces/{slug}/providers/{providerId}', { params: { path: { slug, providerId: provider.id } } }));
      await onSaved(null);
    });
  return (
    <div class="card">
      <form class="edit-form" onSubmit={save} noValidate>
        <SectionHead title={provider ? provider.name : t.newProvider}>
          <button type="button" onClick={onCancel}>
            {can.operations ? t.cancel : t.close}
          </button>
        </SectionHead>
        <fieldset class="plain" disabled={!can.operations}>
          <div class="grid">
            <TextField label={t.name} name="name" form={form} value={name} required />
            <TextField label={`${t.email} ${t.optional}`} name="email" form={form} value={email} type="email" />
          </div>
          {offered.length === 0 ? (
            <p class="note">
              {t.noServicesForProvider}{' '}
              <button type="button" class="link" onClick={() => navigate({ section: 'services', bookingId: null })}>
                {t.goToServices}
              </button>
            </p>
          ) : (
            <fieldset class="checks">
              <legend>{t.offers}</legend>
              <LinkChecks name="serviceIds" form={form} options={offered} chosen={serviceIds} />
            </fieldset>
          )}
          {can.operations && <SaveActions form={form} t={t} active={provider ? provider.active : null} setActive={setActive} />}
        </fieldset>
        <FormOutcome form={form} />
      </form>
      {provider && <ProviderHours {...props} provider={provider} />}
      {provider && can.operations && <ProviderCalendarFeed {...props} provider={provider} />}
      {provider && <ProviderCalendars {...props} provider={provider} />}
    </div>
  );
}

function ProviderHours(props: SectionProps & { provider: Provider }) {
  const { client, workspace, t, provider } = props;
  const path = { slug: workspace.slug, providerId: provider.id };
  const { state, reload } = useLoad(async () => call(client.GET('/workspaces/{slug}/providers/{providerId}/schedule', { params: { path } })), [provider.id], t);
  return (
    <section aria-label={`${t.ownHours}: ${provider.name}`}>
      <h4>{t.ownHours}</h4>
      <Loaded load={state.value} t={t} retry={reload}>
        {(answer) => (
          <>
            {answer.inherited && <p class="muted">{t.usesWorkspaceHours}</p>}
            <ScheduleEditor
              {...props}
              schedule={answer.schedule}
              idPrefix={`provider-${provider.id}`}
              save={async (next) => (await call(client.PUT('/workspaces/{slug}/providers/{providerId}/schedule', { params: { path }, body: next }))).schedule}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The provider's calendar feed address: made on request and shown once (svc keeps only its hash). */
function ProviderCalendarFeed(props: SectionProps & { provider: Provider }) {
  const { client, workspace, t, provider } = props;
  const form = useForm(t);
  const url = useSignal<string | null>(null);
  const make = () =>
    form.run(async () => {
      const answer = await call(
        client.POST('/workspaces/{slug}/providers/{providerId}/calendar-feed', { params: { path: { slug: workspace.slug, providerId: provider.id } } }),
      );
      url.value = answer.url;
    });
  return (
    <section aria-label={`${t.calendarFeed}: ${provider.name}`}>
      <h4>{t.calendarFeed}</h4>
      <p class="muted">{t.calendarFeedHint}</p>
      {url.value && (
        <div class="shown-once" role="status">
          <p>{t.calendarFeedShown}</p>
          <CopyValue value={url.value} label={t.copyAddress} t={t} />
        </div>
      )}
      <p>
        <button type="button" disabled={form.busy.value} onClick={() => void make()}>
          {t.calendarFeedCreate}
        </button>
      </p>
      <FormOutcome form={form} />
    </section>
  );
}
