import type { Strings } from '../../i18n.ts';
import { CopyValue } from '../copy.tsx';

/** A one-time secret with a copy button; it lives only in this component's memory. */
export function ShownOnce({ text, value, t }: { text: string; value: string; t: Strings }) {
  return (
    <div class="shown-once" role="status">
      <p>{text}</p>
      <CopyValue value={value} label={t.copySecret} t={t} />
    </div>
  );
}
