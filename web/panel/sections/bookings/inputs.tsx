import type { Signal } from '@preact/signals';
import { useId } from '../common.tsx';

/** A labelled select bound to a signal; `options` are [value, text] pairs. */
export function Select({ label, value, options, name }: { label: string; value: Signal<string>; options: [string, string][]; name?: string }) {
  const id = useId('select');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value.value} onChange={(event) => (value.value = event.currentTarget.value)}>
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled date input bound to a signal. */
export function DateInput({ label, value }: { label: string; value: Signal<string> }) {
  const id = useId('date');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" value={value.value} onInput={(event) => (value.value = event.currentTarget.value)} />
    </div>
  );
}
