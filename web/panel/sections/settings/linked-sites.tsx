import { useSignal } from '@preact/signals';
import { call, type PanelOrigin } from '../../api/client.ts';
import { whenOf } from '../../format.ts';
import { FormOutcome, Loaded, SectionHead, useForm, useLoad, type SectionProps } from '../common.tsx';
import { ShownOnce } from './shown-once.tsx';

/** The host sites linked to the panel, revoking one, and a new pairing code (shown once). */
export function LinkedSites({ client, workspace, can, notify, t }: SectionProps) {
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
        {can.credentials && (
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
      {pairing.value && <ShownOnce text={t.pairingOnce(whenOf(workspace, pairing.value.expiresAt))} value={pairing.value.code} t={t} />}
      <FormOutcome form={form} />
    </section>
  );
}
