/* One component per step of the booking flow (service → provider → day → time → details → done); StepBody shows the current one. */
import { useWidget } from '../context.ts';
import type { FlowState } from '../machine.ts';
import { DayStep } from './day.tsx';
import { DetailsStep } from './details.tsx';
import { DoneStep } from './done.tsx';
import { ProviderStep } from './provider.tsx';
import { ServiceStep } from './service.tsx';
import { TimeStep } from './time.tsx';
import { HeldStep } from './held.tsx';

export { Icon, ICONS } from './parts.tsx';

export function StepBody({ state }: { state: FlowState }) {
  const { flow, strings } = useWidget();
  switch (state.step) {
    case 'loading':
      // the shape of the service list, so the page does not jump when it arrives
      return (
        <div class="skeleton" aria-busy="true">
          <span />
          <span />
          <span />
          <p class="sr-only">{strings.loading}</p>
        </div>
      );
    case 'failed':
      return (
        <div class="notice" role="alert">
          {strings.retry}
          <div>
            <button type="button" class="btn" onClick={() => flow.dispatch({ type: 'reload' })}>
              {strings.retryButton}
            </button>
          </div>
        </div>
      );
    case 'unavailable':
      return (
        <div class="notice" role="alert">
          {strings.notAllowed(state.config!.workspace.name)}
        </div>
      );
    case 'service':
      return <ServiceStep state={state} />;
    case 'provider':
      return <ProviderStep state={state} />;
    case 'day':
      return <DayStep state={state} />;
    case 'time':
      return <TimeStep state={state} />;
    case 'details':
      return <DetailsStep state={state} />;
    case 'redirecting':
      return <HeldStep state={state} />;
    case 'done':
      return <DoneStep state={state} />;
  }
}
