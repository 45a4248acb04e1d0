/*
 * A provider's connected calendars (docs/contract/calendars.md): connect one (CalDAV, a calendar address, or
 * Google / Microsoft through their consent page in a new window: an embedded panel cannot send its frame away),
 * choose which calendars block and which one receives the bookings, see whether each works, sync now, disconnect.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { call, problemOf, type CalendarConnection, type Provider } from '../api/client.ts';
import { whenOf } from '../format.ts';
import { Field, FormOutcome, Loaded, TextField, useForm, useId, useLoad, type SectionProps } from './common.tsx';

type Kind = CalendarConnection['kind'];

export function ProviderCalendars(props: SectionProps & { provider: Provider }) {
  const { client, workspace, can, t, provider } = props;
  const path = { slug: workspace.slug, providerId: provider.id };
  const { state, reload } = useLoad(
    async () => (await call(client.GET('/workspaces/{slug}/providers/{providerId}/calendars', { params: { path } }))).connections,
    [provider.id],
    t,
  );
  return (
    <section aria-labelledby={`calendars-${provider.id}`} class="calendars">
      <h4 id={`calendars-${provider.id}`}>{t.calendars}</h4>
      <p class="muted">{t.calendarsHint}</p>
      <Loaded load={state.value} t={t} retry={reload}>
        {(connections) => (
          <>
            {connections.length === 0 ? (
              <p class="empty">{t.noCalendarsYet}</p>
            ) : (
              <ul class="connections">
                {connections.map((connection) => (
                  <ConnectionItem key={connection.id} {...props} connection={connection} reload={reload} />
                ))}
              </ul>
            )}
            {can.operations && <ConnectCalendar {...props} reload={reload} />}
          </>
        )}
      </Loaded>
    </section>
  );
}

function ConnectionItem(props: SectionProps & { provider: Provider; connection: CalendarConnection; reload: () => Promise<void> }) {
  const { client, workspace, can, t, provider, connection, reload } = props;
  const path = { slug: workspace.slug, providerId: provider.id, connectionId: connection.id };
  const form = useForm(t);
  const asking = useSignal(false);
  const titleId = useId('connection');
  // The boxes show a choice at once (a checkbox that waits for the answer looks as if the click was lost).
  const calendars = useSignal(connection.calendars);
  useEffect(() => {
    calendars.value = connection.calendars;
  }, [connection]);
  const choose = (choice: { id: string; blocks?: boolean; writes?: boolean }) => {
    calendars.value = calendars.value.map((calendar) =>
      calendar.id === choice.id ? { ...calendar, ...choice } : choice.writes ? { ...calendar, writes: false } : calendar,
    );
    return form
      .run(async () => {
        await call(client.PATCH('/workspaces/{slug}/providers/{providerId}/calendars/{connectionId}', { params: { path }, body: { calendars: [choice] } }));
        await reload();
        return t.calendarChoiceSaved;
      })
      .then((saved) => {
        if (!saved) calendars.value = connection.calendars;
      });
  };
  const syncing = useSignal(false);
  const sync = () =>
    form
      .run(async () => {
        syncing.value = true;
        const answer = await call(client.POST('/workspaces/{slug}/providers/{providerId}/calendars/{connectionId}/sync', { params: { path } }));
        syncing.value = false;
        await reload();
        return answer.connection.status === 'error' ? null : t.syncDone(connection.name);
      })
      .finally(() => (syncing.value = false));
  const disconnect = () =>
    form.run(async () => {
      // 204 has no body, which `call` would take for a failure.
      let answer: Awaited<ReturnType<typeof client.DELETE>>;
      try {
        answer = await client.DELETE('/workspaces/{slug}/providers/{providerId}/calendars/{connectionId}', { params: { path } });
      } catch {
        throw problemOf(undefined, null);
      }
      if (!answer.response.ok) throw problemOf(answer.error, answer.response.status);
      props.notify({ type: 'svc:panel:changed' });
      await reload();
    });
  const read = connection.lastSyncedAt ? t.lastRead(whenOf(workspace, connection.lastSyncedAt)) : t.notReadYet;
  return (
    <li class={`connection card is-${connection.status}`} aria-labelledby={titleId}>
      <div class="connection-head">
        <span class="item-main">
          <strong id={titleId}>{connection.name}</strong>
          <span class="muted">{[t.calendarKinds[connection.kind], connection.account, read].filter(Boolean).join(' · ')}</span>
        </span>
        <span class={`badge status-${connection.status}`}>{t.calendarStatus[connection.status]}</span>
      </div>
      {connection.lastError && <p class="problem">{t.calendarProblem(connection.lastError)}</p>}
      {calendars.value.length > 0 && (
        <table class="calendar-choices">
          <thead>
            <tr>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.blocksTime}</th>
              <th scope="col">{t.receivesBookings}</th>
            </tr>
          </thead>
          <tbody>
            {calendars.value.map((calendar) => (
              <tr key={calendar.id}>
                <th scope="row">
                  {calendar.name}
                  {calendar.readOnly && <span class="muted"> ({t.readOnlyCalendar})</span>}
                </th>
                <td>
                  <input
                    type="checkbox"
                    checked={calendar.blocks}
                    disabled={!can.operations || form.busy.value}
                    aria-label={`${t.blocksTime}: ${calendar.name}`}
                    onChange={(event) => void choose({ id: calendar.id, blocks: event.currentTarget.checked })}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    checked={calendar.writes}
                    disabled={!can.operations || calendar.readOnly || form.busy.value}
                    aria-label={`${t.receivesBookings}: ${calendar.name}`}
                    onChange={(event) => void choose({ id: calendar.id, writes: event.currentTarget.checked })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can.operations
        && (asking.value ? (
          <div class="actions decline-ask">
            <span>{t.disconnectAsk(connection.name)}</span>
            <button type="button" class="danger" disabled={form.busy.value} onClick={() => void disconnect()}>
              {t.disconnectNow}
            </button>
            <button type="button" onClick={() => (asking.value = false)}>
              {t.keep}
            </button>
          </div>
        ) : (
          <div class="actions">
            <button type="button" disabled={form.busy.value} onClick={() => void sync()} aria-label={`${t.syncNow}: ${connection.name}`}>
              {syncing.value ? t.syncing : t.syncNow}
            </button>
            <button type="button" class="danger" onClick={() => (asking.value = true)} aria-label={`${t.disconnect}: ${connection.name}`}>
              {t.disconnect}
            </button>
          </div>
        ))}
      <FormOutcome form={form} />
    </li>
  );
}

/** Watches the consent window: once it is closed (or the panel gets the focus back) the list is read again. */
function useConsentWindow(reload: () => Promise<void>) {
  const watching = useRef<{ window: Window; timer: ReturnType<typeof setInterval> } | null>(null);
  const stop = () => {
    if (watching.current) clearInterval(watching.current.timer);
    watching.current = null;
    window.removeEventListener('focus', onFocus);
  };
  function onFocus() {
    void reload();
  }
  useEffect(() => stop, []);
  return (opened: Window) => {
    stop();
    const timer = setInterval(() => {
      if (opened.closed) {
        stop();
        void reload();
      }
    }, 1000);
    watching.current = { window: opened, timer };
    window.addEventListener('focus', onFocus);
  };
}

function ConnectCalendar(props: SectionProps & { provider: Provider; reload: () => Promise<void> }) {
  const { client, workspace, t, provider, reload } = props;
  const path = { slug: workspace.slug, providerId: provider.id };
  const form = useForm(t);
  const kind = useSignal<'caldav' | 'ics'>('caldav');
  const url = useSignal('');
  const username = useSignal('');
  const password = useSignal('');
  const watch = useConsentWindow(reload);
  const consent = useSignal<string | null>(null);

  const connect = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const body =
        kind.value === 'caldav'
          ? {
              kind: 'caldav' as const,
              url: url.value.trim(),
              ...(username.value ? { username: username.value } : {}),
              ...(password.value ? { password: password.value } : {}),
            }
          : { kind: 'ics' as const, url: url.value.trim() };
      const answer = await call(client.POST('/workspaces/{slug}/providers/{providerId}/calendars', { params: { path }, body }));
      url.value = '';
      username.value = '';
      password.value = '';
      props.notify({ type: 'svc:panel:changed' });
      await reload();
      return t.calendarConnected(answer.connection.name);
    });
  };

  /*
   * The window is opened in the click itself (a window opened after an await counts as a pop-up and is blocked),
   * then sent to the consent page; it gets no handle on the panel (opener cleared).
   */
  const connectOAuth = (oauthKind: Extract<Kind, 'google' | 'microsoft'>) => {
    consent.value = null;
    const opened = window.open('', '_blank');
    if (!opened) {
      consent.value = t.consentBlocked;
      return;
    }
    opened.opener = null;
    void form.run(async () => {
      try {
        const answer = await call(client.POST('/workspaces/{slug}/providers/{providerId}/calendars', { params: { path }, body: { kind: oauthKind } }));
        if (!answer.authorizeUrl) throw new Error(t.consentBlocked);
        opened.location.href = answer.authorizeUrl;
      } catch (error) {
        opened.close();
        throw error;
      }
      watch(opened);
      await reload();
      consent.value = t.consentOpened;
    });
  };

  return (
    <div class="connect-calendar">
      <h5>{t.connectCalendar}</h5>
      <div class="actions">
        <button type="button" disabled={form.busy.value} onClick={() => connectOAuth('google')}>
          {t.connectGoogle}
        </button>
        <button type="button" disabled={form.busy.value} onClick={() => connectOAuth('microsoft')}>
          {t.connectMicrosoft}
        </button>
      </div>
      {consent.value && (
        <p role="status" class="note">
          {consent.value}
        </p>
      )}
      <form class="edit-form" onSubmit={connect} noValidate>
        <Field label={t.calendarKind} name="kind" form={form} hint={t.calendarKindHint}>
          {(attributes) => (
            <select {...attributes} value={kind.value} onChange={(event) => (kind.value = event.currentTarget.value as 'caldav' | 'ics')}>
              <option value="caldav">{t.calendarKinds.caldav}</option>
              <option value="ics">{t.calendarKinds.ics}</option>
            </select>
          )}
        </Field>
        <div class="grid account-fields">
          <TextField label={t.calendarUrl} name="url" form={form} value={url} type="url" required placeholder="https://" />
          {kind.value === 'caldav' && (
            <>
              <TextField label={`${t.calendarUsername} ${t.optional}`} name="username" form={form} value={username} />
              <TextField
                label={`${t.calendarPassword} ${t.optional}`}
                name="password"
                form={form}
                value={password}
                type="password"
                hint={t.calendarPasswordHint}
              />
            </>
          )}
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={form.busy.value}>
            {form.busy.value ? t.connecting : t.connect}
          </button>
        </div>
        <FormOutcome form={form} />
      </form>
    </div>
  );
}

/** The dashboard's warning: every connection of every provider that is not working, with a way to the providers. */
export function BrokenCalendars(props: SectionProps) {
  const { client, workspace, t, navigate } = props;
  const slug = workspace.slug;
  const { state } = useLoad(
    async () => {
      const { providers } = await call(client.GET('/workspaces/{slug}/providers', { params: { path: { slug } } }));
      const lists = await Promise.all(
        providers.map(async (provider) => {
          const { connections } = await call(
            client.GET('/workspaces/{slug}/providers/{providerId}/calendars', { params: { path: { slug, providerId: provider.id } } }),
          );
          return connections.filter((connection) => connection.status === 'error').map((connection) => ({ provider, connection }));
        }),
      );
      return lists.flat();
    },
    [slug],
    t,
  );
  const load = state.value;
  if (load.phase !== 'ready' || load.data.length === 0) return null;
  return (
    <section aria-labelledby="broken-calendars-title" class="card attention broken-calendars" role="alert">
      <h3 id="broken-calendars-title">{t.calendarsBroken}</h3>
      <ul>
        {load.data.map(({ provider, connection }) => (
          <li key={connection.id}>
            <strong>{t.calendarBroken(connection.name, provider.name)}</strong>
            {connection.lastError && <span> {t.calendarProblem(connection.lastError)}</span>}
          </li>
        ))}
      </ul>
      <p>
        <button type="button" onClick={() => navigate({ section: 'providers', bookingId: null })}>
          {t.openProviders}
        </button>
      </p>
    </section>
  );
}
