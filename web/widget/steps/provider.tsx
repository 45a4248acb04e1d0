import { useState } from 'preact/hooks';
import { useWidget } from '../context.ts';
import { providerChoice, type FlowState } from '../machine.ts';
import { Chosen } from './parts.tsx';

/**
 * Who the visitor books with, for a service several people give: a radio group with "Any available" first and
 * checked (svc then assigns fairly, docs/contract/classes.md), then each of them by name; Continue goes to the days.
 */
export function ProviderStep({ state }: { state: FlowState }) {
  const { flow, strings } = useWidget();
  const [picked, setPicked] = useState(state.pickedProviderId ?? '');
  const options = [{ id: '', name: strings.anyProvider }, ...providerChoice(state)];
  return (
    <>
      <Chosen state={state} />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          flow.dispatch({ type: 'chooseProvider', providerId: picked || null });
        }}
      >
        <fieldset>
          <legend class="sr-only">{strings.stepProvider}</legend>
          <div class="list">
            {options.map((option, index) => (
              <label class="choice pick" key={option.id}>
                <input
                  type="radio"
                  name="provider"
                  value={option.id}
                  checked={picked === option.id}
                  aria-labelledby={`svc-pick-${index}`}
                  aria-describedby={option.id ? undefined : 'svc-pick-any'}
                  onChange={() => setPicked(option.id)}
                />
                <span>
                  <span class="pick-name" id={`svc-pick-${index}`}>
                    {option.name}
                  </span>
                  {!option.id && (
                    <span class="choice-meta" id="svc-pick-any">
                      {strings.anyProviderHint}
                    </span>
                  )}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" class="btn wide">
          {strings.continue}
        </button>
      </form>
    </>
  );
}
