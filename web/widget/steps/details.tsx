import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { WidgetCustomField } from '../../../src/core/widget-protocol.ts';
import { useWidget } from '../context.ts';
import { chosenService, fieldsFor, type ErrorText, type FlowState } from '../machine.ts';
import { Chosen } from './parts.tsx';
import { errorText } from './wording.ts';

interface FieldProps {
  id: string;
  label: string;
  required: boolean;
  error: ErrorText | undefined;
  children: (aria: Record<string, unknown>) => ComponentChildren;
}

function Field({ id, label, required, error, children }: FieldProps) {
  const { strings } = useWidget();
  const errorId = `${id}-error`;
  const aria = { id, 'aria-invalid': error ? 'true' : 'false', ...(error ? { 'aria-describedby': errorId } : {}), required };
  return (
    <div class="field">
      <label for={id}>
        {label}
        {!required && <span class="hint"> {strings.optional}</span>}
      </label>
      {children(aria)}
      {error && (
        <p class="error" id={errorId}>
          {errorText(error, strings)}
        </p>
      )}
    </div>
  );
}

// preact types an <input> by its literal `type`; these are all text-like inputs
type InputType = 'text' | 'tel' | 'email' | 'number' | 'date';
const INPUT_TYPES: Record<string, InputType> = { text: 'text', phone: 'tel', email: 'email', number: 'number', date: 'date' };

function CustomField({ field, state }: { field: WidgetCustomField; state: FlowState }) {
  const { flow, strings } = useWidget();
  const name = `cf:${field.key}`;
  const id = `svc-cf-${field.key}`;
  const value = state.form.custom[field.key];
  const error = state.errors[name];
  const edit = (next: string | boolean) => flow.dispatch({ type: 'edit', field: name, value: next });
  if (field.type === 'checkbox') {
    const errorId = `${id}-error`;
    return (
      <div class="field">
        <div class="check">
          <input
            type="checkbox"
            id={id}
            checked={value === true}
            required={field.required}
            aria-invalid={error ? 'true' : 'false'}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => edit(event.currentTarget.checked)}
          />
          <label for={id}>
            {field.label}
            {!field.required && <span class="hint"> {strings.optional}</span>}
          </label>
        </div>
        {error && (
          <p class="error" id={errorId}>
            {errorText(error, strings)}
          </p>
        )}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <Field id={id} label={field.label} required={field.required} error={error}>
      {(aria) =>
        field.type === 'select' ? (
          <select {...aria} value={text} onChange={(event) => edit(event.currentTarget.value)}>
            <option value="">{field.placeholder ?? '—'}</option>
            {(field.options ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : field.type === 'textarea' ? (
          <textarea {...aria} value={text} placeholder={field.placeholder ?? undefined} onInput={(event) => edit(event.currentTarget.value)} />
        ) : (
          <input
            {...aria}
            type={(INPUT_TYPES[field.type] ?? 'text') as 'text'}
            value={text}
            placeholder={field.placeholder ?? undefined}
            inputMode={field.type === 'number' ? 'decimal' : undefined}
            onInput={(event) => edit(event.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}

/** "Repeat weekly" (docs/contract/series.md §5): every 1–4 weeks, 2–52 dates; shown on repeatable services only. */
function Repeat({ state }: { state: FlowState }) {
  const { flow, strings } = useWidget();
  const edit = (field: string, value: string) => flow.dispatch({ type: 'edit', field, value });
  const on = state.form.repeat === 'yes';
  return (
    <div class="field">
      <div class="check">
        <input type="checkbox" id="svc-repeat" checked={on} onChange={(event) => edit('repeat', event.currentTarget.checked ? 'yes' : '')} />
        <label for="svc-repeat">{strings.repeatWeekly}</label>
      </div>
      {on && (
        <>
          <Field id="svc-every" label={strings.repeatEvery} required error={undefined}>
            {(aria) => (
              <select {...aria} value={state.form.every} onChange={(event) => edit('every', event.currentTarget.value)}>
                {[1, 2, 3, 4].map((weeks) => (
                  <option key={weeks} value={String(weeks)}>
                    {strings.weeks(weeks)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="svc-count" label={strings.repeatCount} required error={state.errors.count}>
            {(aria) => (
              <input {...aria} type="number" min={2} max={52} value={state.form.count} onInput={(event) => edit('count', event.currentTarget.value)} />
            )}
          </Field>
        </>
      )}
    </div>
  );
}

/** The visitor's details, the workspace's questions and the captcha; a failed submit focuses the first invalid field. */
export function DetailsStep({ state }: { state: FlowState }) {
  const { flow, strings, mountCaptcha } = useWidget();
  const form = useRef<HTMLFormElement>(null);
  const focusInvalid = useRef(false);
  useEffect(() => {
    if (!focusInvalid.current || Object.keys(state.errors).length === 0) return;
    focusInvalid.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state.errors]);
  useEffect(() => {
    if (state.config!.booking.captcha) mountCaptcha();
  }, []);
  const plain = (field: 'name' | 'email' | 'phone' | 'notes', type: InputType, required: boolean, autoComplete: string) => (
    <Field id={`svc-${field}`} label={strings[field]} required={required} error={state.errors[field]}>
      {(aria) =>
        field === 'notes' ? (
          <textarea {...aria} value={state.form.notes} onInput={(event) => flow.dispatch({ type: 'edit', field, value: event.currentTarget.value })} />
        ) : (
          <input
            {...aria}
            type={type as 'text'}
            value={state.form[field]}
            autoComplete={autoComplete}
            onInput={(event) => flow.dispatch({ type: 'edit', field, value: event.currentTarget.value })}
          />
        )
      }
    </Field>
  );
  return (
    <>
      <Chosen state={state} withTime />
      {state.notice?.kind === 'fixFields' && (
        <p class="error" role="alert">
          {strings.fixFields}
        </p>
      )}
      <form
        ref={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          focusInvalid.current = true;
          flow.dispatch({ type: 'submit' });
        }}
      >
        {plain('name', 'text', true, 'name')}
        {plain('email', 'email', true, 'email')}
        {plain('phone', 'tel', false, 'tel')}
        {fieldsFor(state.config!, state.serviceId).map((field) => (
          <CustomField key={field.key} field={field} state={state} />
        ))}
        {plain('notes', 'text', false, 'off')}
        {chosenService(state)?.repeatable && <Repeat state={state} />}
        {state.config!.booking.captcha && <slot name="captcha" />}
        <button type="submit" class="btn wide" disabled={state.submitting} aria-disabled={state.submitting}>
          {state.submitting ? strings.sending : strings.confirm}
        </button>
      </form>
    </>
  );
}
