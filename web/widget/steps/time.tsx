import { useState } from 'preact/hooks';
import { useWidget } from '../context.ts';
import type { FlowState } from '../machine.ts';
import { formatWallTime } from '../time.ts';
import { Chosen, RetryLoad } from './parts.tsx';
import { visitorZoneNote } from './wording.ts';

/**
 * The times of the chosen day, in the workspace's zone. A class shows the places left under each time; a
 * waiting-list service also shows its full times, each offering its waiting list (docs/contract/classes.md §1).
 */
export function TimeStep({ state }: { state: FlowState }) {
  const widget = useWidget();
  const { flow, strings, locale } = widget;
  const other = visitorZoneNote(state, state.day!, widget);
  const { timeFormat, timezone } = state.config!.workspace;
  const [waitFor, setWaitFor] = useState<string | null>(null);
  const seats = state.seats;
  const free = state.slots.status === 'ready' ? state.slots.value : [];
  // Free times and (waiting lists) full ones, in the order of the day.
  const times = seats ? Object.keys(seats).filter((time) => free.includes(time) || seats[time] === 0) : free;
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
      {state.slots.status === 'ready' && times.length === 0 && <p class="note">{strings.noTimes}</p>}
      {state.slots.status === 'ready' && times.length > 0 && (
        <ul class="times">
          {times.map((time) => {
            const label = formatWallTime(time, timeFormat, locale);
            const left = seats?.[time];
            if (left === 0) {
              return (
                <li key={time} class="full">
                  <button type="button" class="time" aria-expanded={waitFor === time} onClick={() => setWaitFor(time)}>
                    {label}
                    <span class="seats">
                      {strings.full} · {strings.joinWaitlist}
                    </span>
                  </button>
                </li>
              );
            }
            return (
              <li key={time}>
                <button type="button" class="time" onClick={() => flow.dispatch({ type: 'chooseTime', time })}>
                  {label}
                  {left !== undefined && <span class="seats">{strings.placesLeft(left)}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {waitFor && <WaitlistForm key={waitFor} time={waitFor} label={formatWallTime(waitFor, timeFormat, locale)} />}
      <p class="zone">{strings.timesIn(timezone)}</p>
      {other && <p class="zone">{other}</p>}
    </>
  );
}

/** Email (required) and name for the waiting list of one full time; the answer is announced. */
function WaitlistForm({ time, label }: { time: string; label: string }) {
  const { flow, strings } = useWidget();
  const [email, setEmail] = useState(flow.current.form.email);
  const [name, setName] = useState(flow.current.form.name);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<'joined' | 'available' | 'failed' | 'sending' | null>(null);
  if (outcome === 'joined') {
    return (
      <p class="notice ok" role="status">
        {strings.joinedWaitlist(label)}
      </p>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError(email.trim() ? strings.invalidEmail : strings.required);
      return;
    }
    setError(null);
    setOutcome('sending');
    const answer = await flow.joinWaitlist(time, email.trim(), name.trim());
    setOutcome(answer);
    if (answer === 'available') flow.dispatch({ type: 'reloadTimes' });
  };
  return (
    <form class="waitlist" onSubmit={submit} noValidate aria-labelledby="svc-waitlist-lead">
      <p id="svc-waitlist-lead">{strings.waitlistLead(label)}</p>
      <div class="field">
        <label for="svc-waitlist-email">{strings.email}</label>
        <input
          id="svc-waitlist-email"
          type="email"
          autocomplete="email"
          required
          value={email}
          aria-invalid={error ? 'true' : 'false'}
          aria-describedby={error ? 'svc-waitlist-error' : undefined}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        {error && (
          <p id="svc-waitlist-error" class="error">
            {error}
          </p>
        )}
      </div>
      <div class="field">
        <label for="svc-waitlist-name">
          {strings.name}
          <span class="hint"> {strings.optional}</span>
        </label>
        <input id="svc-waitlist-name" autocomplete="name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <button type="submit" class="btn" disabled={outcome === 'sending'}>
        {strings.joinWaitlist}
      </button>
      {outcome === 'available' && (
        <p class="notice ok" role="status">
          {strings.waitlistAvailable}
        </p>
      )}
      {outcome === 'failed' && (
        <p class="notice" role="alert">
          {strings.retry}
        </p>
      )}
    </form>
  );
}
