import { useSignal } from '@preact/signals';
import { call, Problem } from '../../api/client.ts';
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
  const offering = catalogue.providers.filter((provider) => provider.active && provider.serviceIds.includes(serviceId.value));
  const book = (date: string) =>
    form.run(async () => {
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
      );
      await onDone();
      return t.booked;
    });
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
    </section>
  );
}
