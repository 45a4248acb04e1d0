import { useSignal } from '@preact/signals';
import { call } from '../../api/client.ts';
import { useUnsaved } from '../../unsaved.ts';
import { Field, FormOutcome, SaveActions, TextField, useForm, type SectionProps } from '../common.tsx';

/** The business: name, colour, zone, language, time format, cancellation hours, manual confirmation and logo. */
export function WorkspaceSettings({ client, workspace, can, notify, t, embedded, onWorkspace }: SectionProps) {
  const form = useForm(t);
  const name = useSignal(workspace.name);
  const colour = useSignal(workspace.primaryColor ?? '#2563eb');
  const logoUrl = useSignal(workspace.logoUrl ?? '');
  const timezone = useSignal(workspace.timezone);
  const language = useSignal(workspace.language);
  const timeFormat = useSignal(workspace.timeFormat);
  // '' = dates follow the language
  const locale = useSignal(workspace.locale === workspace.language ? '' : workspace.locale);
  const contactEmail = useSignal(workspace.contactEmail ?? '');
  const contactPhone = useSignal(workspace.contactPhone ?? '');
  const cancellationHours = useSignal(String(workspace.cancellationHours));
  const requiresConfirmation = useSignal(workspace.requiresConfirmation);
  const notificationEmail = useSignal(workspace.notificationEmail ?? '');
  const shown = [name, colour, logoUrl, timezone, language, timeFormat, cancellationHours, requiresConfirmation, notificationEmail];
  const saved = useSignal(JSON.stringify(shown.map((each) => each.peek())));
  useUnsaved(can.settings && JSON.stringify(shown.map((each) => each.value)) !== saved.value);
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
            locale: locale.value || null,
            contactEmail: contactEmail.value.trim() || null,
            contactPhone: contactPhone.value.trim() || null,
            cancellationHours: Number(cancellationHours.value),
            requiresConfirmation: requiresConfirmation.value,
            notificationEmail: notificationEmail.value.trim() || null,
          },
        }),
      );
      notify({ type: 'svc:panel:changed' });
      saved.value = JSON.stringify(shown.map((each) => each.peek()));
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
          <Field label={t.locale} name="locale" form={form}>
            {(attributes) => (
              <select {...attributes} value={locale.value} onChange={(event) => (locale.value = event.currentTarget.value)}>
                <option value="">{t.localeOfLanguage}</option>
                {[...new Set(['en-GB', 'en-US', 'de-DE', 'de-AT', 'de-CH', locale.value].filter(Boolean))].map((tag) => (
                  <option key={tag} value={tag}>
                    {new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'long', year: 'numeric' }).format(Date.UTC(2026, 2, 24))} ({tag})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField label={`${t.contactEmail} ${t.optional}`} name="contactEmail" form={form} value={contactEmail} type="email" />
          <TextField label={`${t.contactPhone} ${t.optional}`} name="contactPhone" form={form} value={contactPhone} type="tel" />
          <TextField label={t.cancellationHours} name="cancellationHours" form={form} value={cancellationHours} type="number" min={0} />
          <TextField
            label={`${t.notificationEmail} ${t.optional}`}
            name="notificationEmail"
            form={form}
            value={notificationEmail}
            type="email"
            hint={t.notificationEmailHint}
          />
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
        {can.settings && <SaveActions form={form} t={t} />}
      </fieldset>
      <FormOutcome form={form} />
    </form>
  );
}
