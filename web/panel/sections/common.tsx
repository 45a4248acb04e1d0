/* What every section shares: its props, loading and error states, and forms that keep what was typed on an error. */
import { useSignal, type Signal } from '@preact/signals';
import type { ComponentChildren, InputHTMLAttributes, JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { PanelClient, Workspace } from '../api/client.ts';
import { Problem } from '../api/client.ts';
import type { Strings } from '../i18n.ts';
import type { Route } from '../route.ts';

/** What the panel tells its host from a section (docs/contract/panel.md). */
export type SectionNotice =
  | { type: 'svc:panel:changed' }
  | { type: 'svc:panel:focus-mode'; enabled: boolean }
  | { type: 'svc:panel:select-logo' }
  | { type: 'svc:panel:open-admin' };

export interface SectionProps {
  client: PanelClient;
  workspace: Workspace;
  /** what this session may change; the server's 403 stays the real guard */
  can: {
    operations: boolean;
    settings: boolean;
    /** minting pairing codes, minting or revoking API keys: both capabilities (docs/contract/panel.md §9) */
    credentials: boolean;
  };
  notify: (notice: SectionNotice) => void;
  t: Strings;
  /** true inside a host's iframe (the logo comes from the host's media library) */
  embedded: boolean;
  /** after a settings save: the workspace as the API answered it */
  onWorkspace: (workspace: Workspace) => void;
  /** goes to another section, or to a booking (standalone the address follows) */
  navigate: (route: Route) => void;
  /** the booking the address names (Bookings only) */
  bookingId: string | null;
}

/** A problem in the panel's words: a network failure or a 403 in a sentence of ours, else the server's sentence. */
export function messageOf(error: unknown, t: Strings): string {
  if (error instanceof Problem) {
    if (error.code === null) return t.network;
    if (error.code === 'FORBIDDEN') return t.forbidden;
    return error.message;
  }
  return t.network;
}

export type Load<T> = { phase: 'loading' } | { phase: 'failed'; message: string } | { phase: 'ready'; data: T };

/** Runs `load` now and whenever `keys` change; `reload()` runs it again without clearing what is shown. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[], t: Strings): { state: Signal<Load<T>>; reload: () => Promise<void> } {
  const state = useSignal<Load<T>>({ phase: 'loading' });
  const latest = useRef(0);
  const run = async () => {
    const ticket = ++latest.current;
    try {
      const data = await load();
      if (ticket === latest.current) state.value = { phase: 'ready', data };
    } catch (error) {
      if (ticket === latest.current) state.value = { phase: 'failed', message: messageOf(error, t) };
    }
  };
  useEffect(() => {
    state.value = { phase: 'loading' };
    void run();
  }, keys);
  return { state, reload: run };
}

/** The loading and failed states of a Load; `children` renders the data. */
export function Loaded<T>({ load, t, retry, children }: { load: Load<T>; t: Strings; retry: () => void; children: (data: T) => ComponentChildren }) {
  if (load.phase === 'loading')
    return (
      <p role="status" class="muted">
        {t.loading}
      </p>
    );
  if (load.phase === 'failed') {
    return (
      <div class="problem-box" role="alert">
        <p>
          {t.loadFailed} {load.message}
        </p>
        <button type="button" onClick={retry}>
          {t.retry}
        </button>
      </div>
    );
  }
  return <>{children(load.data)}</>;
}

export interface FormState {
  busy: Signal<boolean>;
  message: Signal<string | null>;
  fields: Signal<Record<string, string>>;
  done: Signal<string | null>;
  /** runs `action`; on a failure the message and the field errors are shown and every input keeps its value */
  run: (action: () => Promise<string | null | undefined | void>) => Promise<boolean>;
}

export function useForm(t: Strings): FormState {
  const busy = useSignal(false);
  const message = useSignal<string | null>(null);
  const fields = useSignal<Record<string, string>>({});
  const done = useSignal<string | null>(null);
  return {
    busy,
    message,
    fields,
    done,
    async run(action) {
      busy.value = true;
      message.value = null;
      done.value = null;
      fields.value = {};
      try {
        done.value = (await action()) || null;
        return true;
      } catch (error) {
        const found = error instanceof Problem ? error.fields : {};
        fields.value = found;
        message.value = Object.keys(found).length > 0 ? `${messageOf(error, t)} ${t.fixFields}` : messageOf(error, t);
        return false;
      } finally {
        busy.value = false;
      }
    },
  };
}

/** The form's outcome under its controls: the problem (alert) or what was done (status). */
export function FormOutcome({ form }: { form: FormState }) {
  if (form.message.value)
    return (
      <p role="alert" class="problem">
        {form.message.value}
      </p>
    );
  return (
    <p role="status" class="done">
      {form.done.value ?? ''}
    </p>
  );
}

let nextId = 0;
/** A stable id for a label and its control. */
export function useId(prefix: string): string {
  const id = useRef<string | null>(null);
  id.current ??= `${prefix}-${++nextId}`;
  return id.current;
}

interface FieldProps {
  label: string;
  /** the API's field name, whose validation error shows under this control */
  name: string;
  form: FormState;
  hint?: string;
  children: (attributes: { id: string; name: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => JSX.Element;
}

/** A labelled control with the API's error for its field right under it. */
export function Field({ label, name, form, hint, children }: FieldProps) {
  const id = useId(name);
  const error = form.fields.value[name];
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, name, ...(error ? { 'aria-invalid': 'true' as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A text input bound to a signal. */
export function TextField({
  label,
  name,
  form,
  value,
  type = 'text',
  hint,
  ...rest
}: {
  label: string;
  name: string;
  form: FormState;
  value: Signal<string>;
  type?: 'text' | 'email' | 'number' | 'url' | 'date' | 'time' | 'tel' | 'color' | 'password';
  hint?: string;
  required?: boolean;
  min?: number;
  step?: string;
  placeholder?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={label} name={name} form={form} hint={hint}>
      {(attributes) => (
        <input
          {...({ ...attributes, ...rest, type } as InputHTMLAttributes<HTMLInputElement>)}
          value={value.value}
          onInput={(event) => (value.value = event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A note that this session cannot write here (the controls are not offered). */
export function ReadOnlyNote({ text }: { text: string }) {
  return <p class="note">{text}</p>;
}

/** A section's heading row with its actions. */
export function SectionHead({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="section-head">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

/** A list of records to link by id (a provider's services, a service's providers), with the field's error under it. */
export function LinkChecks({
  name,
  form,
  options,
  chosen,
}: {
  name: string;
  form: FormState;
  options: { id: string; name: string }[];
  chosen: Signal<string[]>;
}) {
  return (
    <>
      {options.map((option) => (
        <label key={option.id}>
          <input
            type="checkbox"
            checked={chosen.value.includes(option.id)}
            onChange={(event) => (chosen.value = event.currentTarget.checked ? [...chosen.value, option.id] : chosen.value.filter((id) => id !== option.id))}
          />
          {option.name}
        </label>
      ))}
      {form.fields.value[name] && <small class="field-error">{form.fields.value[name]}</small>}
    </>
  );
}

/** Save, and for a record that can be switched off (`active` not null) Deactivate or Activate: the actions under a form. */
export function SaveActions({
  form,
  t,
  active = null,
  setActive,
}: {
  form: FormState;
  t: Strings;
  active?: boolean | null;
  setActive?: (active: boolean) => void;
}) {
  return (
    <div class="actions">
      <button type="submit" class="primary" disabled={form.busy.value}>
        {form.busy.value ? t.saving : t.save}
      </button>
      {active !== null
        && setActive
        && (active ? (
          <button type="button" class="danger" disabled={form.busy.value} onClick={() => setActive(false)}>
            {t.deactivate}
          </button>
        ) : (
          <button type="button" disabled={form.busy.value} onClick={() => setActive(true)}>
            {t.activate}
          </button>
        ))}
    </div>
  );
}

/** The button that opens a list's form for a new record, for those who may add one. */
export function NewRecordButton({ show, label, onClick }: { show: boolean; label: string; onClick: () => void }) {
  if (!show) return null;
  return (
    <p>
      <button type="button" class="primary" onClick={onClick}>
        {label}
      </button>
    </p>
  );
}
