/* Custom fields (the booking form's extra questions): create, edit, reorder, remove, per service. */
import { useSignal } from '@preact/signals';
import { call, type CustomField, type Schemas, type Service } from '../api/client.ts';
import { Field, FormOutcome, Loaded, NewRecordButton, ReadOnlyNote, SectionHead, TextField, useForm, useLoad, type SectionProps } from './common.tsx';

type FieldType = Schemas['CustomFieldCreate']['type'];
const FIELD_TYPES: FieldType[] = ['text', 'textarea', 'number', 'select', 'checkbox', 'phone', 'email', 'date'];

export function Fields(props: SectionProps) {
  const { client, workspace, can, notify, t } = props;
  const slug = workspace.slug;
  const editing = useSignal<CustomField | 'new' | null>(null);
  const order = useForm(t);
  const { state, reload } = useLoad(
    async () => {
      const [fields, services] = await Promise.all([
        call(client.GET('/workspaces/{slug}/custom-fields', { params: { path: { slug } } })),
        call(client.GET('/workspaces/{slug}/services', { params: { path: { slug } } })),
      ]);
      return { fields: fields.customFields, services: services.services };
    },
    [slug],
    t,
  );
  const saved = async () => {
    editing.value = null;
    notify({ type: 'svc:panel:changed' });
    await reload();
  };
  // moving swaps the two fields' `order` values (renumbered first, so equal orders move too)
  const move = (fields: CustomField[], index: number, by: -1 | 1) =>
    order.run(async () => {
      const other = fields[index + by];
      const field = fields[index];
      if (!other || !field) return;
      await call(
        client.PATCH('/workspaces/{slug}/custom-fields/{fieldId}', { params: { path: { slug, fieldId: field.id } }, body: { order: (index + by) * 10 } }),
      );
      await call(client.PATCH('/workspaces/{slug}/custom-fields/{fieldId}', { params: { path: { slug, fieldId: other.id } }, body: { order: index * 10 } }));
      notify({ type: 'svc:panel:changed' });
      await reload();
    });
  return (
    <Loaded load={state.value} t={t} retry={reload}>
      {({ fields, services }) => (
        <div>
          {!can.operations && <ReadOnlyNote text={t.readOnlyOperations} />}
          {editing.value ? (
            <FieldForm
              {...props}
              key={editing.value === 'new' ? 'new' : editing.value.id}
              field={editing.value === 'new' ? null : editing.value}
              services={services}
              nextOrder={fields.length * 10}
              onSaved={saved}
              onCancel={() => (editing.value = null)}
            />
          ) : (
            <NewRecordButton show={can.operations} label={t.newField} onClick={() => (editing.value = 'new')} />
          )}
          {fields.length === 0 ? (
            <p class="empty">{t.noFields}</p>
          ) : (
            <ol class="items card">
              {fields.map((field, index) => (
                <li key={field.id}>
                  <span class="item-main">
                    <strong>
                      {field.label}
                      {field.required ? ' *' : ''}
                    </strong>
                    <span class="muted">
                      {t.types[field.type as FieldType] ?? field.type} · <code>{field.key}</code> ·{' '}
                      {field.serviceIds.length === 0
                        ? t.allServices
                        : services
                            .filter((service) => field.serviceIds.includes(service.id))
                            .map((service) => service.name)
                            .join(', ')}
                    </span>
                  </span>
                  {can.operations && (
                    <span class="actions">
                      <button
                        type="button"
                        class="small"
                        disabled={index === 0 || order.busy.value}
                        aria-label={`${t.moveUp}: ${field.label}`}
                        onClick={() => move(fields, index, -1)}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        class="small"
                        disabled={index === fields.length - 1 || order.busy.value}
                        aria-label={`${t.moveDown}: ${field.label}`}
                        onClick={() => move(fields, index, 1)}
                      >
                        ↓
                      </button>
                      <button type="button" onClick={() => (editing.value = field)} aria-label={`${t.edit}: ${field.label}`}>
                        {t.edit}
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )}
          <FormOutcome form={order} />
        </div>
      )}
    </Loaded>
  );
}

function FieldForm({
  client,
  workspace,
  t,
  field,
  services,
  nextOrder,
  onSaved,
  onCancel,
}: SectionProps & {
  field: CustomField | null;
  services: Service[];
  nextOrder: number;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}) {
  const slug = workspace.slug;
  const form = useForm(t);
  const label = useSignal(field?.label ?? '');
  const key = useSignal(field?.key ?? '');
  const type = useSignal<FieldType>((field?.type as FieldType) ?? 'text');
  const required = useSignal(field?.required ?? false);
  const options = useSignal((field?.options ?? []).join('\n'));
  const placeholder = useSignal(field?.placeholder ?? '');
  const serviceIds = useSignal<string[]>(field?.serviceIds ?? []);
  const keyOf = (text: string) =>
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40);
  const save = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const body = {
        label: label.value.trim(),
        key: key.value.trim() || keyOf(label.value),
        type: type.value,
        required: required.value,
        options:
          type.value === 'select'
            ? options.value
                .split('\n')
                .map((each) => each.trim())
                .filter(Boolean)
            : null,
        placeholder: placeholder.value.trim() || null,
        serviceIds: serviceIds.value,
      };
      if (field) await call(client.PATCH('/workspaces/{slug}/custom-fields/{fieldId}', { params: { path: { slug, fieldId: field.id } }, body }));
      else await call(client.POST('/workspaces/{slug}/custom-fields', { params: { path: { slug } }, body: { ...body, order: nextOrder } }));
      await onSaved();
    });
  };
  const remove = () =>
    form.run(async () => {
      if (!field) return;
      await call(client.DELETE('/workspaces/{slug}/custom-fields/{fieldId}', { params: { path: { slug, fieldId: field.id } } }));
      await onSaved();
    });
  return (
    <form class="card edit-form" onSubmit={save} noValidate>
      <SectionHead title={field ? field.label : t.newField}>
        <button type="button" onClick={onCancel}>
          {t.cancel}
        </button>
      </SectionHead>
      <div class="grid">
        <TextField label={t.label} name="label" form={form} value={label} required />
        <TextField label={`${t.key} ${t.optional}`} name="key" form={form} value={key} placeholder={keyOf(label.value)} hint={t.keyHint} />
        <Field label={t.type} name="type" form={form}>
          {(attributes) => (
            <select {...attributes} value={type.value} onChange={(event) => (type.value = event.currentTarget.value as FieldType)}>
              {FIELD_TYPES.map((each) => (
                <option key={each} value={each}>
                  {t.types[each]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField label={`${t.placeholder} ${t.optional}`} name="placeholder" form={form} value={placeholder} />
      </div>
      {type.value === 'select' && (
        <Field label={t.options} name="options" form={form}>
          {(attributes) => <textarea {...attributes} rows={4} value={options.value} onInput={(event) => (options.value = event.currentTarget.value)} />}
        </Field>
      )}
      <label class="check">
        <input type="checkbox" checked={required.value} onChange={(event) => (required.value = event.currentTarget.checked)} />
        {t.required}
      </label>
      {services.length > 0 && (
        <fieldset class="checks">
          <legend>
            {t.forServices} <span class="muted">{t.forServicesHint}</span>
          </legend>
          {services.map((service) => (
            <label key={service.id}>
              <input
                type="checkbox"
                checked={serviceIds.value.includes(service.id)}
                onChange={(event) =>
                  (serviceIds.value = event.currentTarget.checked ? [...serviceIds.value, service.id] : serviceIds.value.filter((id) => id !== service.id))
                }
              />
              {service.name}
            </label>
          ))}
        </fieldset>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={form.busy.value}>
          {form.busy.value ? t.saving : t.save}
        </button>
        {field && (
          <button type="button" class="danger" disabled={form.busy.value} onClick={remove}>
            {t.remove}
          </button>
        )}
      </div>
      <FormOutcome form={form} />
    </form>
  );
}
