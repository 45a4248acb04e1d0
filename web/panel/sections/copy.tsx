/* A value to copy (a secret shown once, the booking page address, the embed snippet) with its copy button. */
import { useSignal } from '@preact/signals';
import type { Strings } from '../i18n.ts';

/** Copies `value` to the clipboard and says so; where the clipboard is refused, says to copy it by hand. */
export function CopyButton({ value, label, t }: { value: string; label: string; t: Strings }) {
  const said = useSignal<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      said.value = t.copied;
    } catch {
      said.value = t.copyByHand;
    }
  };
  return (
    <span class="copy">
      <button type="button" class="small" aria-label={label} onClick={() => void copy()}>
        {t.copy}
      </button>
      <span role="status" class="muted">
        {said.value ?? ''}
      </span>
    </span>
  );
}

/** The value in full, selectable, with its copy button. */
export function CopyValue({ value, label, t, block = false }: { value: string; label: string; t: Strings; block?: boolean }) {
  return (
    <span class={block ? 'copy-value block' : 'copy-value'}>
      {block ? <pre>{value}</pre> : <code>{value}</code>}
      <CopyButton value={value} label={label} t={t} />
    </span>
  );
}
