import { useSignal } from '@preact/signals';
import { call, Problem } from '../../api/client.ts';
import { explainTime, reasonWords } from '../why-not-free.tsx';
import { FormOutcome, TextField, useForm, type SectionProps } from '../common.tsx';
import type { Catalogue } from './catalogue.ts';
import { Select } from './inputs.tsx';
import { SlotPicker } from './slot-picker.tsx';

/** A booking made by hand (the session is keyed: no captcha, no widget domain). */
export function NewBooking({
  client,
  workspace,
  t,
  catalogue,
  onDone,
  onCancel,
}: SectionProps & { catalogue: Catalogue; onDone: () => Promise<void>; onCancel: () => void }) {
  const form = useForm(t);
  const active = catalogue.services.filter((service) => service.active);
  const serviceId = useSignal(active[0]?.id ?? '');
  const providerId = useSignal('');
  const name = useSignal('');
  const email = useSignal('');
  const phone = useSignal('');
  const notes = useSignal('');
  /** the time a booking was just refused at (SLOT_UNAVAILABLE), for "Why not free?" */
  const refused = useSignal<string | null>(null);
  const why = useSignal<string[] | null>(null);
  const offering = catalogue.providers.filter((provider) => provider.active && provider.serviceIds.includes(serviceId.value));
  const book = (date: string) =>
    form.run(async () => {
      refused.value = null;
      why.value = null;
      // the API takes a booking without a name; made by hand, the owner must know whom it is for
      if (!name.value.trim()) throw new Problem(t.nameRequired, 'VALIDATION_ERROR', { name: t.nameRequired });
      await call(
        client.POST('/workspaces/{slug}/bookings', {
          params: { path: { slug: workspace.slug } },
          body: {
            serviceId: serviceId.value,
            date,
            email: email.value.trim(),
            ...(providerId.value ? { providerId: providerId.value } : {}),
            name: name.value.trim(),
            ...(phone.value.trim() ? { phone: phone.value.trim() } : {}),
            ...(notes.value.trim() ? { notes: notes.value.trim() } : {}),
          },
        }),
      ).catch((error: unknown) => {
        if (error instanceof Problem && error.code === 'SLOT_UNAVAILABLE') refused.value = date;
        throw error;
      });
      await onDone();
      return t.booked;
    });
  /** Asks availability/explain about the refused time and lists its reasons in words (a calendar by its name). */
  const explain = async () => {
    const date = refused.value;
    if (!date) return;
    const query = { serviceId: serviceId.value, date: date.slice(0, 10), ...(providerId.value ? { providerId: providerId.value } : {}) };
    const times = await explainTime(client, workspace.slug, query, date.slice(11, 16)).catch(() => []);
    const names = new Map(catalogue.providers.map((provider) => [provider.id, provider.name]));
    why.value = times
      .filter((entry) => !entry.free)
      .map((entry) => `${names.get(entry.providerId) ?? entry.providerId}: ${entry.reasons.map((reason) => reasonWords(reason, t)).join('; ')}`);
  };
  return (
    <section class="card new-booking" aria-labelledby="new-booking-title">
      <div class="section-head">
        <h3 id="new-booking-title">{t.newBooking}</h3>
        <button type="button" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
      <p class="muted">{t.newBookingHint}</p>
      <div class="grid">
        <Select label={t.service} name="serviceId" value={serviceId} options={active.map((service) => [service.id, service.name])} />
        <Select
          label={t.provider}
          name="providerId"
          value={providerId}
          options={[['', t.anyone], ...offering.map((provider) => [provider.id, provider.name] as [string, string])]}
        />
        <TextField label={t.name} name="name" form={form} value={name} required />
        <TextField label={t.email} name="email" form={form} value={email} type="email" required />
        <TextField label={`${t.phone} ${t.optional}`} name="phone" form={form} value={phone} type="tel" />
        <TextField label={`${t.notes} ${t.optional}`} name="notes" form={form} value={notes} />
      </div>
      <SlotPicker
        client={client}
        workspace={workspace}
        t={t}
        serviceId={serviceId.value}
        providerId={providerId.value || null}
        submitLabel={t.book}
        busy={form.busy.value}
        onPick={book}
      />
      <FormOutcome form={form} />
      {refused.value && (
        <div class="why-not-free">
          <button type="button" onClick={explain}>
            {t.whyNotFree}
          </button>
          {why.value && (
            <ul aria-live="polite">{why.value.length === 0 ? <li>{t.whyNotFreeNone}</li> : why.value.map((line) => <li key={line}>{line}</li>)}</ul>
          )}
        </div>
      )}
    </section>
  );
}
