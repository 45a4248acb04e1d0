import { useSignal } from '@preact/signals';
import { call } from '../../api/client.ts';
import { Field, FormOutcome, Loaded, useForm, useLoad, type SectionProps } from '../common.tsx';

/** The websites that may take bookings (the widget's domains), one a line. */
export function DomainSettings({ client, workspace, can, notify, t }: SectionProps) {
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
