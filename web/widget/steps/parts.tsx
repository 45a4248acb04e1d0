/* Pieces several steps show: the icons, the summary of what was chosen, and the retry of a failed load. */
import { useWidget } from '../context.ts';
import { chosenService, requestedProvider, type FlowState } from '../machine.ts';
import { formatWallTime } from '../time.ts';
import { longDay, money, paymentTerms, visitorTime } from './wording.ts';

export const Icon = ({ path }: { path: string }) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d={path} />
  </svg>
);
export const ICONS = {
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M15 18l-6-6 6-6',
  next: 'M9 18l6-6-6-6',
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  check: 'M5 12l5 5L20 7',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 2',
};

/** What the visitor chose so far: the service, the day and (`withTime`) the time, with the provider and the zone. */
export function Chosen({ state, withTime }: { state: FlowState; withTime?: boolean }) {
  const widget = useWidget();
  const { strings, locale } = widget;
  const service = chosenService(state)!;
  const workspace = state.config!.workspace;
  const parts = [
    service.name,
    state.day ? longDay(state.day, locale) : null,
    withTime && state.time ? formatWallTime(state.time, workspace.timeFormat, locale) : null,
  ];
  const providerId = requestedProvider(state);
  const provider = providerId ? state.config!.providers.find((one) => one.id === providerId)?.name : null;
  const other = withTime ? visitorTime(state, widget) : null;
  const terms = paymentTerms(service, state.config!.booking.onlinePayment, strings, locale);
  return (
    <div class="chosen">
      <strong>{parts.filter(Boolean).join(' · ')}</strong>
      <p>
        {strings.minutes(service.duration)} · {service.price > 0 ? money(service.price, service.currency, locale) : strings.free}
      </p>
      {terms && <p>{terms}</p>}
      {provider && (
        <p>
          {strings.summaryProvider} {provider}
        </p>
      )}
      {withTime && <p>{strings.timesIn(workspace.timezone)}</p>}
      {other && <p>{other}</p>}
    </div>
  );
}

/** The days or the times could not be loaded: say so, and offer to try again. */
export function RetryLoad() {
  const { flow, strings } = useWidget();
  return (
    <div class="notice" role="alert">
      {strings.retry}
      <div>
        <button type="button" class="btn" onClick={() => flow.dispatch({ type: 'retryLoad' })}>
          {strings.retryButton}
        </button>
      </div>
    </div>
  );
}
