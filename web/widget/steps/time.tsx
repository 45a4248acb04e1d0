import { useWidget } from '../context.ts';
import type { FlowState } from '../machine.ts';
import { formatWallTime } from '../time.ts';
import { Chosen, RetryLoad } from './parts.tsx';

/** The free times of the chosen day, in the workspace's zone. */
export function TimeStep({ state }: { state: FlowState }) {
  const { flow, strings, locale } = useWidget();
  const { timeFormat, timezone } = state.config!.workspace;
  return (
    <>
      <Chosen state={state} />
      {state.slots.status === 'loading' && <p class="loading">{strings.loading}</p>}
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
    </>
  );
}
