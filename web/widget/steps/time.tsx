import { useWidget } from '../context.ts';
import type { FlowState } from '../machine.ts';
import { formatWallTime } from '../time.ts';
import { Chosen, RetryLoad } from './parts.tsx';
import { visitorZoneNote } from './wording.ts';

/** The free times of the chosen day, in the workspace's zone. */
export function TimeStep({ state }: { state: FlowState }) {
  const widget = useWidget();
  const { flow, strings, locale } = widget;
  const other = visitorZoneNote(state, state.day!, widget);
  const { timeFormat, timezone } = state.config!.workspace;
  return (
    <>
      <Chosen state={state} />
      {state.slots.status === 'loading' && (
        <div class="skeleton times-skeleton" aria-busy="true">
          {[1, 2, 3, 4, 5, 6].map((key) => (
            <span key={key} />
          ))}
          <p class="sr-only">{strings.loading}</p>
        </div>
      )}
      {state.slots.status === 'error' && <RetryLoad />}
      {state.slots.status === 'ready' && state.slots.value.length === 0 && <p class="note">{strings.noTimes}</p>}
      {state.slots.status === 'ready' && (
        <ul class="times">
          {state.slots.value.map((time) => (
            <li key={time}>
              <button type="button" class="time" onClick={() => flow.dispatch({ type: 'chooseTime', time })}>
                {formatWallTime(time, timeFormat, locale)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="zone">{strings.timesIn(timezone)}</p>
      {other && <p class="zone">{other}</p>}
    </>
  );
}
