import { useWidget } from '../context.ts';
import type { FlowState } from '../machine.ts';
import { dayIn, formatWallTime } from '../time.ts';
import { longDay } from './wording.ts';

/**
 * A booking waiting for its payment (on the way to the checkout, or back from it): its time is held until it is
 * paid or the hold ends, so the visitor may pay, release it (the manage page asks before it cancels), or book
 * something else and leave it to its hold.
 */
export function HeldStep({ state }: { state: FlowState }) {
  const { flow, strings, locale } = useWidget();
  const booking = state.booking!;
  const workspace = state.config!.workspace;
  const start = Date.parse(booking.startTime);
  const day = dayIn(workspace.timezone, start);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: workspace.timezone }).format(start);
  return (
    <>
      <div class="chosen">
        <strong>{[booking.serviceName, longDay(day, locale), formatWallTime(time, workspace.timeFormat, locale)].filter(Boolean).join(' · ')}</strong>
        <p>{strings.timesIn(workspace.timezone)}</p>
      </div>
      <p class="note">{strings.heldNote}</p>
      <div class="actions">
        <a class="btn" href={state.checkoutUrl!}>
          {strings.confirmAndPay}
        </a>
        {state.manageUrl && (
          <a class="btn secondary" href={`${state.manageUrl}?confirm=cancel`}>
            {strings.releaseHeld}
          </a>
        )}
        <button type="button" class="btn secondary" onClick={() => flow.dispatch({ type: 'dismissHeld' })}>
          {strings.bookSomethingElse}
        </button>
      </div>
    </>
  );
}
