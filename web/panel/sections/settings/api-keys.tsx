import { useSignal } from '@preact/signals';
import { call, type ApiKey } from '../../api/client.ts';
import { whenOf } from '../../format.ts';
import { FormOutcome, Loaded, TextField, useForm, useLoad, type SectionProps } from '../common.tsx';
import { ShownOnce } from './shown-once.tsx';

/** The API keys: the list, a new one (shown once), and revoking one after a confirmation. */
export function ApiKeySettings({ client, workspace, can, notify, t }: SectionProps) {
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
                  {can.credentials && revoking.value?.id !== key.id && (
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
      {shown.value && <ShownOnce text={t.keyOnce} value={shown.value} t={t} />}
      {can.credentials && (
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
