import { useSignal } from '@preact/signals';
import { call, type PanelClient, type Workspace } from '../../api/client.ts';
import { longDayOf, todayIn, wallTimeOf, zonedDateTime } from '../../format.ts';
import type { Strings } from '../../i18n.ts';
import { Loaded, useId, useLoad } from '../common.tsx';

/** A day and the free times of a service on it (from the availability routes); `onPick` gets the date-time. */
export function SlotPicker({
  client,
  workspace,
  t,
  serviceId,
  providerId,
  submitLabel,
  busy,
  onPick,
}: {
  client: PanelClient;
  workspace: Workspace;
  t: Strings;
  serviceId: string;
  providerId: string | null;
  submitLabel: string;
  busy: boolean;
  onPick: (date: string) => void;
}) {
  const day = useSignal(todayIn(workspace));
  const chosen = useSignal<string | null>(null);
  const slots = useLoad(
    async () => {
      chosen.value = null;
      if (!serviceId || !day.value) return [];
      const query = { serviceId, date: day.value, ...(providerId ? { providerId } : {}) };
      return (await call(client.GET('/workspaces/{slug}/availability', { params: { path: { slug: workspace.slug }, query } }))).slots;
    },
    [serviceId, providerId, day.value],
    t,
  );
  const dayId = useId('day');
  return (
    <div class="slot-picker">
      <div class="field">
        <label for={dayId}>{t.newDay}</label>
        <input id={dayId} type="date" min={todayIn(workspace)} value={day.value} onInput={(event) => (day.value = event.currentTarget.value)} />
      </div>
      <fieldset>
        <legend>
          {t.newTime} · {day.value ? longDayOf(workspace, day.value) : ''} <span class="muted">({workspace.timezone})</span>
        </legend>
        <Loaded load={slots.state.value} t={t} retry={slots.reload}>
          {(times) =>
            times.length === 0 ? (
              <p class="muted">{t.noFreeTimes}</p>
            ) : (
              <div class="slots">
                {times.map((time) => (
                  <button key={time} type="button" class="slot" aria-pressed={chosen.value === time} onClick={() => (chosen.value = time)}>
                    {wallTimeOf(workspace, time)}
                  </button>
                ))}
              </div>
            )
          }
        </Loaded>
      </fieldset>
      <button
        type="button"
        class="primary"
        disabled={!chosen.value || busy}
        onClick={() => chosen.value && onPick(zonedDateTime(day.value, chosen.value, workspace.timezone))}
      >
        {submitLabel}
      </button>
    </div>
  );
}
