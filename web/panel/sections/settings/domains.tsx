import { useSignal } from '@preact/signals';
import { call, Problem } from '../../api/client.ts';
import type { Strings } from '../../i18n.ts';
import { Field, FormOutcome, Loaded, useForm, useLoad, type SectionProps } from '../common.tsx';

/** What is wrong with an entry, in words, when it is an address rather than a domain (the API only names its index). */
function domainProblem(entry: string, t: Strings): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) return t.domainWithScheme(entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/:]/)[0] ?? entry);
  if (entry.includes('/')) return t.domainWithPath(entry.split('/')[0] ?? entry);
  const port = /^(.+):(\d+)$/.exec(entry);
  if (port) return t.domainWithPort(port[1]!, port[2]!);
  return null;
}

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
      for (const entry of domains) {
        const problem = domainProblem(entry, t);
        if (problem) throw new Problem(problem, 'VALIDATION_ERROR', { domains: problem });
      }
      const answer = await call(client.PUT('/workspaces/{slug}/domains', { params: { path: { slug: workspace.slug } }, body: { domains } })).catch(
        (error: unknown) => {
          // the API names the entry by its place (`domains[2] must be a domain …`): say which one, in words
          const index = error instanceof Problem ? /^domains\[(\d+)\]/i.exec(error.message)?.[1] : undefined;
          if (index === undefined) throw error;
          const problem = t.domainInvalid(domains[Number(index)] ?? '');
          throw new Problem(problem, 'VALIDATION_ERROR', { domains: problem });
        },
      );
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
